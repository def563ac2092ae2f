import { address, cards } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { statementsOf } from '../helpers/sql.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';

let t: TestApp;
let keys: CreatedMerchant;
let api: Client;
const db = () => t.orm.em.fork().getConnection();
const events = (type: string, id: string) =>
  db().execute<{ type: string; data: Record<string, unknown> }[]>(`select type, data from events where type = ? and data->>'id' = ? order by created_at`, [type, id]);

beforeAll(async () => {
  ({ t, keys, api } = await startWithMerchant('Links'));
  for (const [merchant_product_id, name, price, status] of [
    ['THERM', 'Digital thermometer', 2000, 'active'],
    ['CANDY', 'Chocolate candy bar', 1000, 'active'],
    ['VIT', 'Daily multivitamin', 1299, 'active'],
    ['OLD', 'Digital thermometer v1', 1500, 'inactive'],
  ] as const) {
    expect((await api.post('/api/v2/products', { name, price, currency: 'USD', merchant_product_id, status })).status).toBe(201);
  }
});
afterAll(() => t.close());

const customer = { email: 'Pat.Lee@example.com', first_name: 'Pat', last_name: 'Lee' };
const split = {
  products: [
    { merchant_product_id: 'THERM', quantity: 1 },
    { merchant_product_id: 'CANDY', quantity: 1 },
  ],
  currency: 'USD',
  customer,
};
const create = async (body: object, via = api) => {
  const res = await via.post('/api/v2/payment-links', body);
  expect(res.status).toBe(201);
  return res.body;
};

describe('creating payment links', () => {
  test('products are priced from the catalog; the link owns a checkout with the HSA/FSA split', async () => {
    const before = Date.now();
    const link = await create({ ...split, success_url: 'https://shop.example.com/thanks', metadata: { campaign: 'email' } });
    expect(link).toEqual({
      id: expect.stringMatching(/^plink_[0-9A-Za-z]{24}$/),
      object: 'payment_link',
      livemode: false,
      url: `${t.url}/pay/${link.id}`,
      amount: 3000,
      currency: 'usd',
      description: null,
      payment_type: 'one_time',
      status: 'active',
      customer,
      customer_id: null,
      collect_shipping_address: true,
      products: [
        { merchant_product_id: 'THERM', name: 'Digital thermometer', quantity: 1, price: 2000, hsa_fsa_eligible: true, requires_lmn: false },
        { merchant_product_id: 'CANDY', name: 'Chocolate candy bar', quantity: 1, price: 1000, hsa_fsa_eligible: false, requires_lmn: false },
      ],
      checkout_id: expect.stringMatching(/^cs_/),
      order: null,
      success_url: 'https://shop.example.com/thanks',
      cancel_url: null,
      metadata: { campaign: 'email' },
      subscription: null,
      expires_at: expect.any(String),
      created_at: expect.any(String),
      paid_at: null,
      cancelled_at: null,
      cancellation_reason: null,
    });
    const lifetime = new Date(link.expires_at).getTime() - before;
    expect(lifetime).toBeGreaterThanOrEqual(7 * 86400_000 - 1000);
    expect(lifetime).toBeLessThan(7 * 86400_000 + 60_000);
    expect((await api.get(`/api/v2/payment-links/${link.id}`)).body).toEqual(link);

    const checkout = await api.get(`/api/v2/checkout/${link.checkout_id}`);
    expect(checkout.status).toBe(200);
    expect(checkout.body.data).toMatchObject({
      checkout_id: link.checkout_id,
      status: 'open',
      type: 'split',
      payment_link_id: link.id,
      checkout_url: link.url,
      expires_at: link.expires_at,
      amounts: { subtotal: 3000, hsa_amount: 2000, regular_amount: 1000, total: 3000 },
      order: null,
    });
  });

  test('an amount and a description make a single regular line', async () => {
    const link = await create({ amount: 4500, description: 'Consultation follow-up', currency: 'usd', expires_at: new Date(Date.now() + 3600_000).toISOString() });
    expect(link).toMatchObject({ amount: 4500, description: 'Consultation follow-up', products: [], customer: null });
    const checkout = (await api.get(`/api/v2/checkout/${link.checkout_id}`)).body.data;
    expect(checkout).toMatchObject({
      type: 'regular',
      amounts: { hsa_amount: 0, regular_amount: 4500, total: 4500 },
      line_items: [{ name: 'Consultation follow-up', price: 4500, quantity: 1, hsa_fsa_eligible: false }],
    });
  });

  test('bad inputs: each bad field in details', async () => {
    const bad = async (body: object, status = 422) => {
      const res = await api.post('/api/v2/payment-links', body);
      expect(res.status).toBe(status);
      return res.body.error;
    };
    const fields = (e: { details: { field: string }[] }) => e.details.map((d) => d.field).sort();
    const unknown = await bad({
      products: [
        { merchant_product_id: 'THERM', quantity: 1 },
        { merchant_product_id: 'NOPE', quantity: 1 },
        { merchant_product_id: 'OLD', quantity: 2 },
      ],
      currency: 'USD',
    });
    expect(unknown).toMatchObject({ code: 'validation_error', param: 'products.1.merchant_product_id' });
    expect(unknown.details).toEqual([
      { field: 'products.1.merchant_product_id', message: "no product 'NOPE' in your catalog" },
      { field: 'products.2.merchant_product_id', message: "product 'OLD' is inactive and cannot be sold" },
    ]);
    expect(fields(await bad({ ...split, amount: 100, description: 'x' }))).toEqual(['amount']);
    expect(fields(await bad({ currency: 'USD' }))).toEqual(['products']);
    for (const amount of [0, -5, 1.5]) expect((await bad({ amount, description: 'x', currency: 'USD' })).details).toEqual([{ field: 'amount', message: expect.any(String) }]);
    expect(fields(await bad({ amount: 100, currency: 'USD' }))).toEqual(['description']);
    expect(await bad({ ...split, expires_at: new Date(Date.now() - 1000).toISOString() })).toMatchObject({ param: 'expires_at', details: [{ field: 'expires_at', message: 'must be in the future' }] });
    expect((await bad({ ...split, expires_at: new Date(Date.now() + 91 * 86400_000).toISOString() })).details).toEqual([{ field: 'expires_at', message: 'must be at most 90 days from now' }]);
    expect((await bad({ ...split, currency: 'EUR' })).details[0]).toEqual({ field: 'currency', message: "must be the currency of product 'THERM' (USD)" });
    expect(fields(await bad({ ...split, currency: 'XYZ', success_url: 'ftp://x', extra: true }))).toEqual(['currency', 'extra', 'success_url']);
    expect(fields(await bad({ ...split, payment_type: 'subscription' }))).toEqual(['subscription']);
    expect(fields(await bad({ ...split, customer_id: 'cus_x' }))).toEqual(['customer_id']);
    expect(fields(await bad({ ...split, products: [{ merchant_product_id: 'THERM', quantity: 0 }] }))).toEqual(['products.0.quantity']);
  });

  test('customer_id names a stored customer of this account and mode, else 404 customer_not_found', async () => {
    const stored = (await api.post('/api/v2/customers', { email: 'stored@example.com', first_name: 'Sto', last_name: 'Red' })).body;
    const link = await create({ amount: 100, description: 'x', currency: 'usd', customer_id: stored.id });
    expect(link).toMatchObject({ customer_id: stored.id, customer: { email: 'stored@example.com', first_name: 'Sto', last_name: 'Red' } });
    const other = client(t.url, (await t.merchant('Foreign')).test_api_key);
    const foreign = (await other.post('/api/v2/customers', customer)).body.id;
    for (const id of [foreign, 'cus_nope']) {
      const res = await api.post('/api/v2/payment-links', { amount: 100, description: 'x', currency: 'usd', customer_id: id });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'customer_not_found', param: 'customer_id' });
    }
    const live = client(t.url, keys.live_api_key);
    expect((await live.post('/api/v2/payment-links', { amount: 100, description: 'x', currency: 'usd', customer_id: stored.id })).body.error.code).toBe('customer_not_found');
  });

  test('an Idempotency-Key replays the same link', async () => {
    const key = crypto.randomUUID();
    const a = await api.post('/api/v2/payment-links', split, { 'idempotency-key': key });
    const b = await api.post('/api/v2/payment-links', split, { 'idempotency-key': key });
    expect(b.body.id).toBe(a.body.id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('paying a link', () => {
  test('a split pay makes one order with payment_link_id and client_reference_id; the link is paid; events carry both', async () => {
    const link = await create(split);
    const paid = await api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { shipping_address: address, hsa_fsa_card: cards.hsa, card: cards.visa, client_reference_id: 'crm-42' });
    expect(paid.status).toBe(200);
    const order = paid.body;
    expect(order).toMatchObject({
      checkout_id: link.checkout_id,
      payment_link_id: link.id,
      client_reference_id: 'crm-42',
      reference_id: null,
      amount: 3000,
      status: 'completed',
      payment_status: 'captured',
    });
    expect(order.customer).toMatchObject({ email: customer.email, first_name: 'Pat' });
    expect(order.payments.map((p: { payment_method: string; amount: number }) => [p.payment_method, p.amount])).toEqual([
      ['hsa_fsa_card', 2000],
      ['card', 1000],
    ]);

    const after = (await api.get(`/api/v2/payment-links/${link.id}`)).body;
    expect(after).toMatchObject({ status: 'paid', paid_at: expect.any(String), order: { id: order.id, status: 'completed', paid_at: after.paid_at } });
    expect((await api.get(`/api/v2/checkout/${link.checkout_id}`)).body.data).toMatchObject({ status: 'paid', order: { id: order.id, payment_link_id: link.id } });

    for (const type of ['order.created', 'order.completed']) {
      const [e] = await events(type, order.id);
      expect(e.data).toMatchObject({ payment_link_id: link.id, client_reference_id: 'crm-42', reference_id: null });
    }
    const [paidEvent] = await events('payment_link.paid', link.id);
    expect(paidEvent.data).toMatchObject({
      id: link.id,
      status: 'paid',
      order_id: order.id,
      client_reference_id: 'crm-42',
      amount: 3000,
      currency: 'usd',
      order: { id: order.id, status: 'completed' },
    });

    const refund = await api.post('/api/v2/refunds', { order_id: order.id, amount: 1500, reason: 'customer_request' });
    expect(refund.status).toBe(201);
    await api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 });
    for (const type of ['refund.created', 'refund.succeeded']) {
      const [e] = await events(type, refund.body.data.id);
      expect(e.data).toMatchObject({ order_id: order.id, payment_link_id: link.id, client_reference_id: 'crm-42', reference_id: null });
    }

    const again = await api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { shipping_address: address, card: cards.visa });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'paid', order_id: order.id } });
    const viaCheckout = await api.post(`/api/v2/test-helpers/checkout/${link.checkout_id}/pay`, { card: cards.visa });
    expect(viaCheckout.body.error.code).toBe('invalid_state');
    const cancel = await api.post(`/api/v2/payment-links/${link.id}/cancel`, {});
    expect(cancel.status).toBe(400);
    expect(cancel.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'paid' } });
    const [{ n }] = await db().execute(`select count(*)::int as n from orders where payment_link_id = ?`, [link.id]);
    expect(n).toBe(1);
  });

  test('a declined card leaves the link active; a link without a customer takes the payer’s', async () => {
    const link = await create({ amount: 2500, description: 'Deposit', currency: 'usd' });
    const missing = await api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { shipping_address: address, card: cards.visa });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: 'validation_error', param: 'customer' });
    const declined = await api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { shipping_address: address, card: cards.declined, customer });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ code: 'card_declined', details: { decline_code: 'card_declined' } });
    const failed = (await api.get(`/api/v2/orders/${declined.body.error.details.order_id}`)).body;
    expect(failed).toMatchObject({ status: 'failed', payment_link_id: link.id, reference_id: null });
    expect((await api.get(`/api/v2/payment-links/${link.id}`)).body.status).toBe('active');
    const paid = await api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { shipping_address: address, card: cards.visa, customer: { ...customer, email: 'payer@example.com' } });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ client_reference_id: null, customer: { email: 'payer@example.com' } });
    const found = await api.get('/api/v2/payment-links?customer_email=PAYER@example.com');
    expect(found.body.data.map((l: { id: string }) => l.id)).toEqual([link.id]);
  });

  test('20 concurrent pays of one link make one order', async () => {
    const link = await create(split);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { shipping_address: address, card: cards.visa, client_reference_id: `try-${i}` })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The others find the link paid, or its one payment attempt still open: never a second charge.
    for (const r of results.filter((r) => r.status !== 200)) expect([`400 invalid_state`, `409 payment_in_progress`]).toContain(`${r.status} ${r.body.error.code}`);
    const winner = results.find((r) => r.status === 200)!.body;
    const rows = await db().execute<{ id: string; client_reference_id: string }[]>(`select id, client_reference_id from orders where payment_link_id = ?`, [link.id]);
    expect(rows).toEqual([{ id: winner.id, client_reference_id: winner.client_reference_id }]);
    expect((await api.get(`/api/v2/payment-links/${link.id}`)).body.order.id).toBe(winner.id);
    expect(await events('payment_link.paid', link.id)).toHaveLength(1);
  });

  test('a paid subscription link creates the customer, the stored card and the subscription; its first invoice is the link order', async () => {
    const link = await create({ products: [{ merchant_product_id: 'VIT', quantity: 1 }], currency: 'USD', customer, payment_type: 'subscription', subscription: { interval: 'monthly' } });
    expect(link).toMatchObject({ payment_type: 'subscription', subscription: { interval: 'monthly', interval_count: 1, trial_period_days: 0 }, amount: 1299 });
    const res = await api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { shipping_address: address, card: cards.visa, client_reference_id: 'sub-ref-1' });
    expect(res.status).toBe(200);
    const paid = (await api.get(`/api/v2/payment-links/${link.id}`)).body;
    expect(paid).toMatchObject({ status: 'paid', order: { id: expect.stringMatching(/^ord_/) } });
    const order = (await api.get(`/api/v2/orders/${paid.order.id}`)).body;
    expect(order).toMatchObject({ is_recurring: true, payment_link_id: link.id, client_reference_id: 'sub-ref-1', amount: 1299 });
    const stored = (await api.get(`/api/v2/customers?email=${encodeURIComponent(customer.email)}`)).body.data;
    expect(stored).toHaveLength(1);
    const subs = (await api.get(`/api/v2/subscriptions?customer_id=${stored[0].id}`)).body.data;
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ status: 'active', amount_cents: 1299, interval: 'monthly', payment_method: { type: 'card', last4: '4242' } });
    const invoice = (await api.get(`/api/v2/subscriptions/${subs[0].id}/invoices/${subs[0].latest_invoice_id}`)).body;
    expect(invoice).toMatchObject({ status: 'paid', order_id: order.id, attempts: [] });
    expect((await api.get('/api/v2/payment-links?payment_type=subscription')).body.data.map((l: { id: string }) => l.id)).toEqual([link.id]);
    expect((await api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { shipping_address: address, card: cards.visa })).body.error.code).toBe('invalid_state');
  });

  test('live keys get 403 from the pay helper and never see test links', async () => {
    const link = await create(split);
    const live = client(t.url, keys.live_api_key);
    expect((await live.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { card: cards.visa })).status).toBe(403);
    expect((await live.get(`/api/v2/payment-links/${link.id}`)).status).toBe(404);
    const liveLink = await create({ amount: 100, description: 'Live', currency: 'usd' }, live);
    expect(liveLink.livemode).toBe(true);
    expect((await live.get('/api/v2/payment-links?limit=100')).body.data.map((l: { id: string }) => l.id)).toEqual([liveLink.id]);
    expect((await api.get(`/api/v2/payment-links/${liveLink.id}`)).status).toBe(404);
    expect((await live.post(`/api/v2/payment-links/${link.id}/cancel`, {})).status).toBe(404);
  });
});

describe('cancel and expiry', () => {
  test('cancel: reason kept, event emitted, never reactivated; over-long reason is refused', async () => {
    const link = await create(split);
    const long = await api.post(`/api/v2/payment-links/${link.id}/cancel`, { reason: 'x'.repeat(501) });
    expect(long.status).toBe(422);
    expect(long.body.error).toMatchObject({ code: 'validation_error', details: [{ field: 'reason', message: 'must be at most 500 characters' }] });
    const cancelled = await api.post(`/api/v2/payment-links/${link.id}/cancel`, { reason: 'Customer ordered by phone' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: link.id, amount: 3000, currency: 'usd', status: 'cancelled', cancelled_at: expect.any(String), cancellation_reason: 'Customer ordered by phone' });
    const [e] = await events('payment_link.cancelled', link.id);
    expect(e.data).toMatchObject({ id: link.id, status: 'cancelled', cancellation_reason: 'Customer ordered by phone', cancelled_at: cancelled.body.cancelled_at });
    const again = await api.post(`/api/v2/payment-links/${link.id}/cancel`);
    expect(again.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'cancelled' } });
    const pay = await api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { shipping_address: address, card: cards.visa });
    expect(pay.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'cancelled' } });
    expect((await api.get(`/api/v2/checkout/${link.checkout_id}`)).body.data.status).toBe('expired');
    expect((await api.post('/api/v2/payment-links/plink_nope/cancel')).body.error.code).toBe('not_found');
  });

  test('the expiry sweep expires links on the test clock (advance-clock runs it)', async () => {
    const m = await t.merchant('Clock');
    const clocked = client(t.url, m.test_api_key);
    const link = await create({ amount: 700, description: 'Soon', currency: 'usd', expires_at: new Date(Date.now() + 3600_000).toISOString() }, clocked);
    const later = await create({ amount: 700, description: 'Later', currency: 'usd' }, clocked);
    expect((await clocked.post('/api/v2/test-helpers/advance-clock', { seconds: 2 * 3600 })).status).toBe(200);
    const [row] = await db().execute<{ status: string }[]>(`select status from payment_links where id = ?`, [link.id]);
    expect(row.status).toBe('expired');
    expect((await clocked.get(`/api/v2/payment-links/${link.id}`)).body.status).toBe('expired');
    expect((await clocked.get(`/api/v2/payment-links/${later.id}`)).body.status).toBe('active');
    expect(await events('payment_link.expired', link.id)).toHaveLength(1);
    expect((await clocked.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { card: cards.visa, customer })).body.error).toMatchObject({
      code: 'invalid_state',
      details: { status: 'expired' },
    });
    expect((await clocked.post(`/api/v2/payment-links/${link.id}/cancel`)).body.error).toMatchObject({ code: 'invalid_state', details: { status: 'expired' } });
    expect((await clocked.get('/api/v2/payment-links?status=expired')).body.data.map((l: { id: string }) => l.id)).toEqual([link.id]);
    expect((await clocked.get('/api/v2/payment-links?status=active')).body.data.map((l: { id: string }) => l.id)).toEqual([later.id]);
  });
});

describe('listing', () => {
  test('newest first, keyset pages and every filter of the spec', async () => {
    const m = client(t.url, (await t.merchant('Lister')).test_api_key);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await create({ amount: 100 + i, description: `L${i}`, currency: 'usd', customer: { ...customer, email: i % 2 ? 'odd@example.com' : 'even@example.com' } }, m)).id);
    await m.post(`/api/v2/payment-links/${ids[1]}/cancel`);
    const first = await m.get('/api/v2/payment-links?limit=2');
    expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: ids[3] });
    expect(first.body.data.map((l: { id: string }) => l.id)).toEqual([ids[4], ids[3]]);
    const rest = await m.get(`/api/v2/payment-links?limit=10&starting_after=${ids[3]}`);
    expect(rest.body.data.map((l: { id: string }) => l.id)).toEqual([ids[2], ids[1], ids[0]]);
    const list = async (q: string) => (await m.get(`/api/v2/payment-links?${q}`)).body.data.map((l: { id: string }) => l.id);
    expect(await list('status=cancelled')).toEqual([ids[1]]);
    expect(await list('customer_email=ODD@EXAMPLE.COM')).toEqual([ids[3], ids[1]]);
    expect(await list('payment_type=one_time&limit=100')).toHaveLength(5);
    expect(await list(`created_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    expect(await list(`created_before=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&status=active&customer_email=even@example.com`)).toEqual([ids[4], ids[2], ids[0]]);
    for (const q of ['status=open', 'payment_type=weekly', 'limit=0', 'created_after=yesterday']) {
      const res = await m.get(`/api/v2/payment-links?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
  });
});

describe('GraphQL', () => {
  test('create, cancel, node(id:), Order.paymentLink; 50 links with orders, customers and checkouts cost what 1 costs', async () => {
    const m = await t.merchant('Graph');
    const gql = client(t.url, m.test_api_key);
    await gql.post('/api/v2/products', { name: 'Digital thermometer', price: 2000, currency: 'USD', merchant_product_id: 'THERM' });
    const stored = (await gql.graphql(`mutation { createCustomer(input: { email: "g@example.com", firstName: "G", lastName: "Q" }) { customer { id customerId } } }`)).body.data.createCustomer
      .customer;
    const createLink = (input: object) =>
      gql.graphql(
        `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { paymentLink { id paymentLinkId url amount status paymentType customer { email } products { merchantProductId hsaFsaEligible } expiresAt } } }`,
        { input },
      );
    const made = await createLink({ products: [{ merchantProductId: 'THERM', quantity: 2 }], currency: 'USD', customerId: stored.id, expiresAt: new Date(Date.now() + 86400_000).toISOString() });
    expect(made.body.errors).toBeUndefined();
    const link = made.body.data.createPaymentLink.paymentLink;
    expect(link).toMatchObject({
      paymentLinkId: expect.stringMatching(/^plink_/),
      amount: 4000,
      status: 'ACTIVE',
      paymentType: 'ONE_TIME',
      customer: { email: 'g@example.com' },
      products: [{ merchantProductId: 'THERM', hsaFsaEligible: true }],
    });
    const invalid = await createLink({ amount: 0, currency: 'USD' });
    expect(invalid.body.errors?.[0].extensions).toMatchObject({ code: 'validation_error' });
    expect(invalid.body.errors?.[0].extensions.details.map((d: { field: string }) => d.field).sort()).toEqual(['amount', 'description']);

    for (let i = 0; i < 3; i++) {
      const l = (await createLink({ amount: 500 + i, description: `Item ${i}`, currency: 'usd', customerId: stored.id })).body.data.createPaymentLink.paymentLink;
      expect((await gql.post(`/api/v2/test-helpers/payment-links/${l.paymentLinkId}/pay`, { shipping_address: address, card: cards.visa, client_reference_id: `c${i}` })).status).toBe(200);
    }
    const query = `{ paymentLinks(first: 50) { edges { node { paymentLinkId status amount order { orderId clientReferenceId paymentLink { paymentLinkId } } storedCustomer { customerId email } checkoutSession { checkoutId status } } } pageInfo { hasNextPage } } }`;
    const res = await gql.graphql<{ paymentLinks: { edges: { node: { paymentLinkId: string } }[] } }>(query);
    const statements = await statementsOf(() => gql.graphql(query));
    expect(await statementsOf(() => gql.graphql(query.replace('first: 50', 'first: 1')))).toBe(statements);
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.paymentLinks.edges.map((e) => e.node);
    expect(nodes).toHaveLength(4);
    expect(nodes[0]).toMatchObject({
      status: 'PAID',
      amount: 502,
      order: { clientReferenceId: 'c2', paymentLink: { paymentLinkId: nodes[0].paymentLinkId } },
      storedCustomer: { customerId: stored.customerId },
      checkoutSession: { status: 'PAID' },
    });
    // links + orders + customers + checkout sessions + the orders' links: no N+1 (the rate limit spends leased tokens).
    expect(statements).toBe(5);

    const filtered = await gql.graphql(`{ paymentLinks(first: 10, status: ACTIVE, customerEmail: "G@EXAMPLE.COM", paymentType: ONE_TIME) { nodes { paymentLinkId } } }`);
    expect(filtered.body.data.paymentLinks.nodes).toEqual([{ paymentLinkId: link.paymentLinkId }]);
    const cancel = (input: object) =>
      gql.graphql(`mutation($input: CancelPaymentLinkInput!) { cancelPaymentLink(input: $input) { paymentLink { status cancellationReason cancelledAt } } }`, { input });
    expect((await cancel({ id: link.id, reason: 'x'.repeat(501) })).body.errors?.[0].extensions).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'reason', message: expect.any(String) }],
    });
    expect((await cancel({ id: link.id, reason: 'Typo' })).body.data.cancelPaymentLink.paymentLink).toMatchObject({ status: 'CANCELLED', cancellationReason: 'Typo' });
    expect((await cancel({ id: link.id })).body.errors?.[0].extensions.code).toBe('invalid_state');
    const node = await gql.graphql(`query($id: ID!) { node(id: $id) { __typename ... on PaymentLink { status } } }`, { id: link.id });
    expect(node.body.data.node).toEqual({ __typename: 'PaymentLink', status: 'CANCELLED' });
    const foreign = await createLink({ amount: 100, description: 'x', currency: 'usd', customerId: Buffer.from('Customer:cus_nope').toString('base64url') });
    expect(foreign.body.errors?.[0].extensions).toMatchObject({ code: 'customer_not_found', param: 'customerId' });
  });
});

describe('hosted link page (HTTP)', () => {
  test('the page, its pay call with ?client_reference_id=, and the paid, cancelled and unknown pages', async () => {
    const link = await create({ ...split, success_url: 'https://shop.example.com/thanks', cancel_url: 'https://shop.example.com/cart' });
    const page = await fetch(`${link.url}?client_reference_id=cart-77`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('Digital thermometer');
    expect(html).toContain(`action="/pay/${link.id}/pay?client_reference_id=cart-77"`);
    expect(html).toContain('https://shop.example.com/cart?payment_link_id=');
    expect(html).not.toContain('id="customer"');
    const pay = await fetch(`${t.url}/pay/${link.id}/pay?client_reference_id=cart-77`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hsa_fsa_card: cards.hsa, card: cards.visa, shipping_address: address }),
    });
    expect(pay.status).toBe(200);
    const paid = (await pay.json()) as { order_id: string; redirect_url: string };
    expect(paid.redirect_url).toBe(`https://shop.example.com/thanks?payment_link_id=${link.id}&order_id=${paid.order_id}`);
    expect((await api.get(`/api/v2/orders/${paid.order_id}`)).body).toMatchObject({ payment_link_id: link.id, client_reference_id: 'cart-77', reference_id: null });
    expect(await (await fetch(link.url)).text()).toContain('This payment link has been paid');

    const open = await create({ amount: 900, description: 'Open', currency: 'usd' });
    expect(await (await fetch(open.url)).text()).toContain('id="customer"');
    await api.post(`/api/v2/payment-links/${open.id}/cancel`);
    expect(await (await fetch(open.url)).text()).toContain('This payment link was cancelled');
    const unknown = await fetch(`${t.url}/pay/plink_000000000000000000000000`);
    expect(unknown.status).toBe(404);
    expect((await fetch(`${t.url}/pay/nope`)).status).toBe(404);
  });
});
