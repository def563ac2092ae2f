import { checkoutBody, cards } from '../helpers/fixtures.js';
import { pdfText } from '../helpers/mail-sink.js';
import { client, type Page, type Client } from '../helpers/http.js';
import { statementsOf } from '../helpers/sql.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;
const orderIds: string[] = [];
/** The split order as the pay call answered it. */
let paidSplit: Record<string, unknown>;

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  api = client(t.url, (await t.merchant()).test_api_key);
  await api.post('/api/v2/products', {
    name: 'Digital thermometer',
    price: 1999,
    currency: 'USD',
    merchant_product_id: 'THERM',
  });
  await api.post('/api/v2/products', {
    name: 'Chocolate candy',
    price: 250,
    currency: 'USD',
    merchant_product_id: 'CANDY',
  });
  for (let i = 0; i < 6; i++) {
    const body = checkoutBody(
      [
        ['THERM', 'Thermometer', 1999, 1],
        ['CANDY', 'Candy', 250, i + 1],
      ],
      {
        reference_id: `cart_${i}`,
        customer: { email: i % 2 ? 'odd@example.com' : 'even@example.com', first_name: 'A', last_name: 'B' },
      },
    );
    const s = (await api.post('/api/v2/checkout', body)).body.data;
    const paid = await api.post(
      `/api/v2/test-helpers/checkout/${s.checkout_id}/pay`,
      i === 5 ? { card: cards.declined } : { hsa_fsa_card: cards.hsa, card: cards.visa },
    );
    orderIds.push(i === 5 ? paid.body.error.details.order_id : paid.body.id);
    if (i === 0) paidSplit = paid.body;
  }
});
afterAll(() => t.close());

describe('GET /api/v2/orders', () => {
  test('lists newest first with cursor pagination', async () => {
    const first = await api.get<Page<{ id: string }>>('/api/v2/orders?limit=4');
    expect(first.status).toBe(200);
    expect(first.body.data.map((o) => o.id)).toEqual([...orderIds].reverse().slice(0, 4));
    expect(first.body).toMatchObject({ has_more: true, next_cursor: orderIds[2] });
    const second = await api.get<Page<{ id: string }>>(
      `/api/v2/orders?limit=4&starting_after=${first.body.next_cursor}`,
    );
    expect(second.body.data.map((o) => o.id)).toEqual([orderIds[1], orderIds[0]]);
    expect(second.body.has_more).toBe(false);
  });

  test('filters by status, payment_status, customer email, reference id and created range', async () => {
    const ids = async (q: string) =>
      (await api.get<Page<{ id: string }>>(`/api/v2/orders?${q}`)).body.data.map((o) => o.id);
    expect(await ids('status=failed')).toEqual([orderIds[5]]);
    expect(await ids('payment_status=captured&limit=100')).toHaveLength(5);
    expect(await ids('customer_email=ODD@example.com')).toEqual([orderIds[5], orderIds[3], orderIds[1]]);
    expect(await ids('reference_id=cart_2')).toEqual([orderIds[2]]);
    expect(await ids(`created_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    const bad = await api.get('/api/v2/orders?status=shipped');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', param: 'status' });
  });

  test('the order a pay call answers (rendered from what it made) is the order as read back, payments in the same order', async () => {
    const read = await api.get<Record<string, unknown>>(`/api/v2/orders/${orderIds[0]}`);
    const strip = ({ receipt_url: _receipt, ...rest }: Record<string, unknown>) => rest;
    expect((paidSplit.payments as unknown[]).length).toBe(2);
    expect(strip(paidSplit)).toEqual(strip(read.body));
    expect(typeof paidSplit.receipt_url).toBe('string');
  });

  test('an unknown order is 404 not_found', async () => {
    const res = await api.get('/api/v2/orders/ord_nope');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

/** The text of an order's receipt PDF. */
async function receiptText(orderId: string, via = api): Promise<string> {
  const { receipt_url } = (await via.get<{ receipt_url: string }>(`/api/v2/orders/${orderId}`)).body;
  return pdfText(Buffer.from(await (await fetch(receipt_url)).arrayBuffer()));
}

describe('receipts', () => {
  test('receipt_url is a real PDF; a fresh link on every read; forged or expired links are refused', async () => {
    const order = (await api.get(`/api/v2/orders/${orderIds[0]}`)).body;
    const pdf = await fetch(order.receipt_url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1000);

    const url = new URL(order.receipt_url);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeGreaterThan(3500);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(3600);

    const forged = new URL(order.receipt_url);
    forged.searchParams.set('expires', String(expires + 3600));
    expect((await fetch(forged)).status).toBe(404);
    const otherOrder = new URL(order.receipt_url.replace(orderIds[0], orderIds[1]));
    expect((await fetch(otherOrder)).status).toBe(404);
    const expired = new URL(order.receipt_url);
    expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10));
    const res = await fetch(expired);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  test('after refunds the receipt lists each one (date, split, lines) and the net figures; it names the seller with address and contact', async () => {
    const branding = await api.graphql(
      'mutation { updateEmailSettings(input: { businessAddress: "12 Health Way, Austin, TX 78701", phone: "+1 512 555 0199", supportEmail: "help@shop.example" }) { userErrors { field } } }',
    );
    expect(branding.body.data.updateEmailSettings.userErrors).toEqual([]);
    const order = (
      await api.get<{ id: string; checkout_id: string; line_items: { id: string; name: string }[] }>(
        `/api/v2/orders/${orderIds[2]}`,
      )
    ).body;
    expect((await api.post('/api/v2/refunds', { order_id: order.id, amount: 500, reason: 'other' })).status).toBe(201);
    const candy = order.line_items.find((l) => l.name === 'Candy')!;
    expect(
      (
        await api.post(`/v1/checkout/${order.checkout_id}/refund`, {
          line_items: [{ line_item_id: candy.id, quantity: 1, amount_cents: 250 }],
          reason: 'wrong_product',
        })
      ).status,
    ).toBe(201);
    await api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 }); // the refund job settles both
    const text = await receiptText(order.id);
    for (const part of [
      '12 Health Way, Austin, TX 78701 · +1 512 555 0199 · help@shop.example',
      '1 × Thermometer — HSA/FSA eligible — 19.99 USD',
      '3 × Candy — Not HSA/FSA eligible — 7.50 USD',
      'HSA/FSA eligible items: 19.99 USD',
      'Refunds',
      'for 1 × Candy',
    ]) {
      expect(text).toContain(part);
    }
    const today = new Date().toISOString().slice(0, 10);
    expect(text).toMatch(
      new RegExp(
        `${today}: refunded 5\\.00 USD \\(to the HSA/FSA card \\d+\\.\\d\\d USD, to other cards \\d+\\.\\d\\d USD\\)`,
      ),
    );
    expect(text).toContain(
      `${today}: refunded 2.50 USD (to the HSA/FSA card 0.00 USD, to other cards 2.50 USD) for 1 × Candy`,
    );
    expect(text).toContain('Net total after refunds: 19.99 USD');
  });

  test('a regular card paying for eligible items: the receipt still says what was HSA/FSA eligible', async () => {
    const shop = client(t.url, (await t.merchant('Regular card shop')).test_api_key);
    await shop.post('/api/v2/products', {
      name: 'Digital thermometer',
      price: 1999,
      currency: 'USD',
      merchant_product_id: 'THERM',
    });
    const s = (await shop.post('/api/v2/checkout', checkoutBody([['THERM', 'Thermometer', 1999, 1]]))).body.data;
    const order = (
      await shop.post<{ id: string }>(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { card: cards.visa })
    ).body;
    const text = await receiptText(order.id, shop);
    expect(text).toContain('HSA/FSA eligible items: 19.99 USD');
    expect(text).toContain('Paid by HSA/FSA card: 0.00 USD');
    expect(text).toContain('Paid by other cards: 19.99 USD');
  });

  test('a failed order has no receipt', async () => {
    expect((await api.get(`/api/v2/orders/${orderIds[5]}`)).body.receipt_url).toBeNull();
  });
});

describe('GraphQL', () => {
  const CART_INPUT = {
    referenceId: 'gql-cart',
    customer: { email: 'g@example.com', firstName: 'G', lastName: 'Q' },
    lineItems: [
      { productId: 'THERM', name: 'Thermometer', price: 1999, quantity: 1, currency: 'USD' },
      { productId: 'OTHER', name: 'Gift wrap', price: 300, quantity: 1, currency: 'USD' },
    ],
    shippingInfo: { addressLine1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    successUrl: 'https://shop.example.com/ok',
    failureUrl: 'https://shop.example.com/ko',
  };

  test('createCheckoutSession with nested inputs; the session resolves its products, under an Idempotency-Key too', async () => {
    const res = await api.graphql(
      `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { checkoutSession {
        id checkoutId status type checkoutUrl amounts { subtotal hsaAmount regularAmount total }
        billingInfo { addressLine1 city } lineItems { merchantProductId hsaFsaEligible product { productId name } } } } }`,
      { input: CART_INPUT },
    );
    expect(res.body.errors).toBeUndefined();
    const s = res.body.data.createCheckoutSession.checkoutSession;
    expect(s).toMatchObject({
      status: 'OPEN',
      type: 'SPLIT',
      amounts: { subtotal: 2299, hsaAmount: 1999, regularAmount: 300, total: 2299 },
      billingInfo: { addressLine1: '1 Main St', city: 'Austin' },
    });
    expect(s.lineItems).toEqual([
      {
        merchantProductId: 'THERM',
        hsaFsaEligible: true,
        product: { productId: expect.any(Number), name: 'Digital thermometer' },
      },
      { merchantProductId: 'OTHER', hsaFsaEligible: false, product: null },
    ]);
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const keyed = await api.graphql(
      `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { checkoutSession {
        checkoutId lineItems { product { productId name } } } } }`,
      { input: { ...CART_INPUT, referenceId: 'gql-cart-keyed' } },
      headers,
    );
    expect(keyed.body.errors).toBeUndefined();
    expect(keyed.body.data.createCheckoutSession.checkoutSession.lineItems).toEqual([
      { product: { productId: expect.any(Number), name: 'Digital thermometer' } },
      { product: null },
    ]);
    const invalid = await api.graphql(
      `mutation { createCheckoutSession(input: { referenceId: "x", customer: { email: "nope", firstName: "a", lastName: "b" }, lineItems: [],
        shippingInfo: { addressLine1: "1", city: "c", state: "s", postalCode: "p", country: "USA" }, successUrl: "x", failureUrl: "https://ok.example" })
        { checkoutSession { id } userErrors { field message code } } }`,
    );
    const { checkoutSession, userErrors } = invalid.body.data.createCheckoutSession as {
      checkoutSession: null;
      userErrors: { field: string[]; code: string }[];
    };
    expect(checkoutSession).toBeNull();
    expect(userErrors.map((e) => e.code)).toEqual(userErrors.map(() => 'VALIDATION_ERROR'));
    expect(userErrors.map((e) => e.field.join('.')).sort()).toEqual([
      'input.customer.email',
      'input.lineItems',
      'input.shippingInfo.country',
      'input.successUrl',
    ]);
  });

  test('a page of orders with line items, products, payments and sessions costs a constant number of statements', async () => {
    const query = `{ orders(first: 50) { edges { node { id orderNumber status amount
      lineItems { name quantity product { name eligibility { hsaFsaEligible } } }
      payments { paymentMethod amount } checkoutSession { checkoutId status } } } pageInfo { hasNextPage } } }`;
    const res = await api.graphql<{
      orders: { edges: { node: { lineItems: { product: unknown }[]; payments: unknown[] } }[] };
    }>(query);
    const statements = await statementsOf(() => api.graphql(query));
    expect(await statementsOf(() => api.graphql(query.replace('first: 50', 'first: 1')))).toBe(statements);
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.orders.edges.map((e) => e.node);
    expect(nodes).toHaveLength(6);
    expect(nodes[5].lineItems[0].product).toEqual({
      name: 'Digital thermometer',
      eligibility: { hsaFsaEligible: true },
    });
    expect(nodes[1].payments).toEqual([
      { paymentMethod: 'HSA_FSA_CARD', amount: 1999 },
      { paymentMethod: 'CARD', amount: 1250 },
    ]);
    // orders + products (with images) + payments + checkout sessions: no N+1 (the rate limit spends leased tokens).
    expect(statements).toBe(4);
  });

  test('order(id:) and node(id:) resolve an order with its receipt link', async () => {
    const list = await api.graphql(
      `{ orders(first: 1, status: COMPLETED) { nodes { id orderId receiptUrl paymentStatus } } }`,
    );
    const node = list.body.data.orders.nodes[0];
    expect(node).toMatchObject({
      orderId: orderIds[4],
      paymentStatus: 'CAPTURED',
      receiptUrl: expect.stringContaining('/receipts/'),
    });
    const byNode = await api.graphql(`query($id: ID!) { node(id: $id) { __typename ... on Order { orderNumber } } }`, {
      id: node.id,
    });
    expect(byNode.body.data.node).toEqual({ __typename: 'Order', orderNumber: expect.stringMatching(/^ORD-/) });
  });
});
