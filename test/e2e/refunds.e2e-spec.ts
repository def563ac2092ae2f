import { toGlobalId } from '../../src/platform/relay/global-id.js';
import { cards, checkoutBody, createProducts, openCheckout, payCheckout } from '../helpers/fixtures.js';
import type { FieldError, Client } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
// A merchant per test: refunds are processed by moving its test clock, which must not carry into the next test.
beforeEach(async () => {
  ({ api } = await newMerchant(t));
  await createProducts(api, [
    ['THERM', 'Digital thermometer', 2000],
    ['CANDY', 'Chocolate candy', 1500],
  ]);
});
afterAll(() => t.close());

const db = () => t.orm.em.fork().getConnection();

/** One part of a refund: what it returns to one of the order's payments. */
interface RefundPart {
  payment_method: string;
  amount: number;
  success: boolean | null;
  refund_id: string;
  processor_refund_id: string | null;
}
/** An events row, as the tests select it. */
interface EventRow {
  type: string;
  data: Record<string, unknown>;
}

/** A paid split order: 2000 on the HSA/FSA card, 1500 on the regular card. */
async function paidSplitOrder(card = cards.visa, hsa = cards.hsa) {
  const s = (
    await api.post(
      '/api/v2/checkout',
      checkoutBody([
        ['THERM', 'Thermometer', 2000, 1],
        ['CANDY', 'Candy', 1500, 1],
      ]),
    )
  ).body.data;
  const res = await api.post(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { hsa_fsa_card: hsa, card });
  expect(res.status).toBe(200);
  return res.body;
}

/** Runs due jobs (the refund processor among them) through the test clock. */
const processRefunds = () => api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 });

test('a full refund returns each payment exactly: pending, then succeeded by the job, with events', async () => {
  const order = await paidSplitOrder();
  const res = await api.post('/api/v2/refunds', {
    order_id: order.id,
    reason: 'customer_request',
    notes: 'changed mind',
    metadata: { ticket: 'T-1' },
  });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ success: true, metadata: { request_id: expect.any(String) } });
  const refund = res.body.data;
  expect(refund).toMatchObject({
    id: expect.stringMatching(/^re_/),
    order_id: order.id,
    amount: 3500,
    reason: 'customer_request',
    notes: 'changed mind',
    status: 'pending',
    refund_breakdown: { hsa_amount: 2000, regular_amount: 1500 },
    refunds: [
      {
        payment_method: 'hsa_fsa_card',
        amount: 2000,
        success: null,
        refund_id: expect.stringMatching(/^rp_/),
        processor_refund_id: null,
      },
      {
        payment_method: 'card',
        amount: 1500,
        success: null,
        refund_id: expect.stringMatching(/^rp_/),
        processor_refund_id: null,
      },
    ],
    metadata: { ticket: 'T-1' },
  });
  await processRefunds();
  const done = (await api.get(`/api/v2/refunds/${refund.id}`)).body.data;
  expect(done.status).toBe('succeeded');
  expect(done.refunds.every((p: RefundPart) => p.success === true && /^re_/.test(String(p.processor_refund_id)))).toBe(
    true,
  );
  // Each part keeps the string refund_id it was created with.
  expect(done.refunds.map((p: RefundPart) => p.refund_id)).toEqual(refund.refunds.map((p: RefundPart) => p.refund_id));
  expect(new Set(done.refunds.map((p: RefundPart) => p.refund_id)).size).toBe(2);
  const after = (await api.get(`/api/v2/orders/${order.id}`)).body;
  expect(after).toMatchObject({ status: 'refunded', payment_status: 'refunded' });
  expect(after.status_history.at(-1)).toMatchObject({ status: 'refunded', reason: expect.stringContaining(refund.id) });
  expect(after.payments.map((p: { refunded_amount: number }) => p.refunded_amount)).toEqual([2000, 1500]);

  const events = await db().execute<EventRow[]>(
    `select type, data from events where data->>'id' = ? order by created_at`,
    [refund.id],
  );
  expect(events.map((e) => e.type)).toEqual(['refund.created', 'refund.succeeded']);
  expect(events[0].data).toMatchObject({
    id: refund.id,
    order_id: order.id,
    checkout_id: order.checkout_id,
    amount: 3500,
    currency: 'usd',
    reason: 'customer_request',
    reference_id: order.reference_id,
    payment_link_id: null,
    client_reference_id: null,
    customer: { email: 'Jane.Doe@example.com' },
    initiated_at: expect.any(String),
  });
  expect(events[1].data).toMatchObject({
    id: refund.id,
    order_status: 'refunded',
    payment_status: 'refunded',
    refunded_at: expect.any(String),
  });

  const again = await api.post('/api/v2/refunds', { order_id: order.id, reason: 'duplicate' });
  expect(again.status).toBe(400);
  expect(again.body.error.code).toBe('already_refunded');
});

test('partial refunds up to the total; over the remainder is invalid_amount with requested and maximum', async () => {
  const order = await paidSplitOrder();
  const first = await api.post('/api/v2/refunds', { order_id: order.id, amount: 1000, reason: 'damaged_product' });
  expect(first.body.data.refund_breakdown).toEqual({ hsa_amount: 571, regular_amount: 429 });
  const over = await api.post('/api/v2/refunds', { order_id: order.id, amount: 2501, reason: 'other' });
  expect(over.status).toBe(400);
  expect(over.body.error).toEqual({
    code: 'invalid_amount',
    message: expect.any(String),
    param: 'amount',
    details: { requested: 2501, maximum: 2500 },
  });
  const rest = await api.post('/api/v2/refunds', { order_id: order.id, reason: 'other' });
  expect(rest.body.data).toMatchObject({ amount: 2500, refund_breakdown: { hsa_amount: 1429, regular_amount: 1071 } });
  await processRefunds();
  expect((await api.get(`/api/v2/orders/${order.id}`)).body.payment_status).toBe('refunded');
});

test('a partial refund leaves the fulfilment status; only refunding the whole order makes it refunded', async () => {
  const order = await paidSplitOrder();
  expect(order).toMatchObject({ status: 'completed', amount: 3500 });
  await api.post('/api/v2/refunds', { order_id: order.id, amount: 1000, reason: 'other' });
  await processRefunds();
  const partial = (await api.get(`/api/v2/orders/${order.id}`)).body;
  expect(partial).toMatchObject({ status: 'completed', payment_status: 'partially_refunded' });
  expect(partial.status_history.map((h: { status: string }) => h.status)).not.toContain('refunded');
  await api.post('/api/v2/refunds', { order_id: order.id, amount: 2500, reason: 'other' });
  await processRefunds();
  const full = (await api.get(`/api/v2/orders/${order.id}`)).body;
  expect(full).toMatchObject({ status: 'refunded', payment_status: 'refunded' });
  expect(full.status_history.at(-1)).toMatchObject({
    status: 'refunded',
    reason: expect.stringContaining('3500 of 3500'),
  });
});

test('three refunds of 1 cent on a split order keep the cumulative split proportional', async () => {
  const order = await paidSplitOrder();
  const breakdowns = [];
  for (let i = 0; i < 3; i++)
    breakdowns.push(
      (await api.post('/api/v2/refunds', { order_id: order.id, amount: 1, reason: 'other' })).body.data
        .refund_breakdown,
    );
  expect(breakdowns).toEqual([
    { hsa_amount: 0, regular_amount: 1 },
    { hsa_amount: 1, regular_amount: 0 },
    { hsa_amount: 0, regular_amount: 1 },
  ]);
});

test('many concurrent partial refunds never exceed the order total', async () => {
  const order = await paidSplitOrder();
  const results = await Promise.all(
    Array.from({ length: 20 }, () => api.post('/api/v2/refunds', { order_id: order.id, amount: 300, reason: 'other' })),
  );
  const created = results.filter((r) => r.status === 201);
  expect(created).toHaveLength(11); // floor(3500 / 300)
  expect(results.filter((r) => r.status === 400).every((r) => r.body.error.code === 'invalid_amount')).toBe(true);
  const sumsSql = `select sum(amount)::int as total, sum(hsa_amount)::int as hsa, sum(regular_amount)::int as regular
                   from refunds where order_id = ? and status <> 'failed'`;
  const [sums] = await db().execute<{ total: number; hsa: number; regular: number }[]>(sumsSql, [order.id]);
  expect(sums.total).toBe(3300);
  expect(sums.hsa).toBeLessThanOrEqual(2000);
  expect(sums.regular).toBeLessThanOrEqual(1500);
  const payments = (await api.get(`/api/v2/orders/${order.id}`)).body.payments;
  expect(payments.map((p: { refunded_amount: number }) => p.refunded_amount)).toEqual([sums.hsa, sums.regular]);
});

test('a refused refund fails, gives its amount back, and a later refund can use it', async () => {
  const order = await paidSplitOrder(cards.refundFails);
  const res = await api.post('/api/v2/refunds', { order_id: order.id, amount: 3500, reason: 'other' });
  await processRefunds();
  const failed = (await api.get(`/api/v2/refunds/${res.body.data.id}`)).body.data;
  expect(failed).toMatchObject({ status: 'failed', failure_reason: 'card: refund_failed' });
  expect(failed.refunds).toEqual([
    expect.objectContaining({
      payment_method: 'hsa_fsa_card',
      amount: 2000,
      success: true,
      refund_id: res.body.data.refunds[0].refund_id,
      processor_refund_id: expect.stringMatching(/^re_/),
    }),
    expect.objectContaining({
      payment_method: 'card',
      amount: 1500,
      success: false,
      refund_id: res.body.data.refunds[1].refund_id,
      processor_refund_id: null,
    }),
  ]);
  expect(res.body.data.refunds.map((p: RefundPart) => [typeof p.refund_id, p.success])).toEqual([
    ['string', null],
    ['string', null],
  ]);
  const events = await db().execute<EventRow[]>(
    `select type, data from events where data->>'id' = ? order by created_at`,
    [failed.id],
  );
  expect(events.map((e) => e.type)).toEqual(['refund.created', 'refund.failed']);
  expect(events[1].data).toMatchObject({ failure_reason: 'card: refund_failed', failed_at: expect.any(String) });
  const after = (await api.get(`/api/v2/orders/${order.id}`)).body;
  expect(after.payments.map((p: { refunded_amount: number }) => p.refunded_amount)).toEqual([2000, 0]);
  expect(after.payment_status).toBe('partially_refunded');
  // The 1500 given back can be refunded again (it will only be tried on the regular card).
  const retry = await api.post('/api/v2/refunds', { order_id: order.id, reason: 'other' });
  expect(retry.body.data).toMatchObject({ amount: 1500, refund_breakdown: { hsa_amount: 0, regular_amount: 1500 } });
});

describe('refusals', () => {
  /** The failed order of a declined thermometer checkout. */
  async function failedOrderId(): Promise<string> {
    const s = await openCheckout(api, [['THERM', 'Thermometer', 2000, 1]]);
    const declined = await payCheckout(api, s.checkout_id, { card: cards.declined });
    expect(declined.status).toBe(402);
    return declined.body.error.details.order_id;
  }

  test('an order that was never captured cannot be refunded (400 invalid_state)', async () => {
    const state = await api.post('/api/v2/refunds', { order_id: await failedOrderId(), reason: 'other' });
    expect(state.status).toBe(400);
    expect(state.body.error.code).toBe('invalid_state');
  });

  test('an unknown order is 404 not_found on order_id', async () => {
    const missing = await api.post('/api/v2/refunds', { order_id: 'ord_nope', reason: 'other' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found', param: 'order_id' });
  });

  test('bad input is 422 with each invalid field listed', async () => {
    const bad = await api.post('/api/v2/refunds', {
      order_id: await failedOrderId(),
      reason: 'bored',
      notes: 'x'.repeat(501),
      amount: 0,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: FieldError) => d.field).sort()).toEqual(['amount', 'notes', 'reason']);
  });
});

test('an Idempotency-Key replays the first refund', async () => {
  const order = await paidSplitOrder();
  const key = crypto.randomUUID();
  const a = await api.post(
    '/api/v2/refunds',
    { order_id: order.id, amount: 500, reason: 'other' },
    { 'idempotency-key': key },
  );
  const b = await api.post(
    '/api/v2/refunds',
    { order_id: order.id, amount: 500, reason: 'other' },
    { 'idempotency-key': key },
  );
  expect(b.body.data.id).toBe(a.body.data.id);
  const [{ n }] = await db().execute(`select count(*)::int as n from refunds where order_id = ?`, [order.id]);
  expect(n).toBe(1);
});

test('v1: POST /v1/checkout/{id}/refund refunds lines of the paid checkout', async () => {
  const order = await paidSplitOrder();
  const line = order.line_items[1];
  const res = await api.post(`/v1/checkout/${order.checkout_id}/refund`, {
    line_items: [{ line_item_id: line.id, quantity: 1, amount_cents: 1500 }],
    reason: 'wrong_product',
  });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({
    checkout_id: order.checkout_id,
    status: 'pending',
    refunded_amount_cents: 1500,
    currency: 'usd',
    refunded_at: expect.any(String),
  });
  const tooMuch = await api.post(`/v1/checkout/${order.checkout_id}/refund`, {
    line_items: [{ line_item_id: line.id, quantity: 2, amount_cents: 1 }],
  });
  expect(tooMuch.status).toBe(400);
  expect(tooMuch.body.error).toMatchObject({
    code: 'invalid_amount',
    param: 'line_items',
    details: { line_item_id: line.id, field: 'quantity', requested: 2, maximum: 0 },
  });
  const unknown = await api.post('/v1/checkout/cs_nope/refund', {
    line_items: [{ line_item_id: 'x', quantity: 1, amount_cents: 1 }],
  });
  expect(unknown.status).toBe(404);
});

test('v1: a line refund goes back to the card that paid that line, not in the order-wide proportion', async () => {
  const order = await paidSplitOrder();
  const [thermometer, candy] = order.line_items;
  const refundOf = async (line: { id: string }, cents: number) => {
    const res = await api.post(`/v1/checkout/${order.checkout_id}/refund`, {
      line_items: [{ line_item_id: line.id, quantity: 1, amount_cents: cents }],
    });
    expect(res.status).toBe(201);
    return (await api.get(`/api/v2/refunds/${res.body.refund_id}`)).body.data.refund_breakdown;
  };
  // The candy was paid wholly by the regular card, the thermometer by the HSA/FSA card.
  expect(await refundOf(candy, 1200)).toMatchObject({ hsa_amount: 0, regular_amount: 1200 });
  expect(await refundOf(thermometer, 2000)).toMatchObject({ hsa_amount: 2000, regular_amount: 0 });
});

describe('v1: a line is never refunded beyond its quantity or amount across requests', () => {
  // One order for the scenario (and its own merchant): candy 1 × 100, socks 3 × 500, gum 1 × 2000.
  let own: Client;
  let order: { id: string; checkout_id: string; line_items: { id: string }[] };
  let candy: { id: string };
  let socks: { id: string };
  const refund = (items: { line_item_id: string; quantity: number; amount_cents: number }[]) =>
    own.post(`/v1/checkout/${order.checkout_id}/refund`, { line_items: items });

  beforeAll(async () => {
    ({ api: own } = await newMerchant(t));
    const s = (
      await own.post(
        '/api/v2/checkout',
        checkoutBody([
          ['CANDY', 'Candy', 100, 1],
          ['SOCKS', 'Socks', 500, 3],
          ['GUM', 'Gum', 2000, 1],
        ]),
      )
    ).body.data;
    order = (await own.post(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { card: cards.visa })).body;
    [candy, socks] = order.line_items;
  });

  test('a line refunded in full is refused on every later request, naming the line', async () => {
    expect((await refund([{ line_item_id: candy.id, quantity: 1, amount_cents: 100 }])).status).toBe(201);
    for (let i = 0; i < 7; i++) {
      const again = await refund([{ line_item_id: candy.id, quantity: 1, amount_cents: 100 }]);
      expect(again.status).toBe(400);
      expect(again.body.error).toMatchObject({
        code: 'invalid_amount',
        details: { line_item_id: candy.id, field: 'quantity', requested: 1, maximum: 0 },
      });
      expect(again.body.error.message).toContain(candy.id);
    }
  });

  test('quantity and amount are each tallied: a request over either is refused whole', async () => {
    expect((await refund([{ line_item_id: socks.id, quantity: 1, amount_cents: 300 }])).status).toBe(201);
    const overQuantity = await refund([
      { line_item_id: socks.id, quantity: 2, amount_cents: 600 },
      { line_item_id: socks.id, quantity: 1, amount_cents: 1 },
    ]);
    expect(overQuantity.status).toBe(400);
    expect(overQuantity.body.error).toMatchObject({
      code: 'invalid_amount',
      details: { field: 'quantity', requested: 3, maximum: 2 },
    });
    const overMoney = await refund([
      { line_item_id: socks.id, quantity: 2, amount_cents: 1000 },
      { line_item_id: candy.id, quantity: 1, amount_cents: 1 },
    ]);
    expect(overMoney.status).toBe(400); // the candy line is used up: nothing of this request is refunded
  });

  test('concurrent requests for the two remaining socks: exactly two pass, under the order lock', async () => {
    const racing = await Promise.all(
      Array.from({ length: 6 }, () => refund([{ line_item_id: socks.id, quantity: 1, amount_cents: 100 }])),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 400, 400, 400, 400]);
    const [{ refunded }] = await db().execute(
      `select coalesce(sum(amount), 0)::int as refunded from refunds where order_id = ?`,
      [order.id],
    );
    expect(refunded).toBe(100 + 300 + 100 + 100);
  });

  test('an unknown line is refused with 422 naming it', async () => {
    const unknown = await refund([{ line_item_id: 'li_does_not_exist', quantity: 1, amount_cents: 1 }]);
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toContain('li_does_not_exist');
  });
});

test('v1: a line whose refund failed at the processor can be refunded again', async () => {
  const s = (
    await api.post(
      '/api/v2/checkout',
      checkoutBody([
        ['CANDY', 'Candy', 700, 1],
        ['GUM', 'Gum', 300, 1],
      ]),
    )
  ).body.data;
  const order = (await api.post(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { card: cards.refundFails }))
    .body;
  const body = { line_items: [{ line_item_id: order.line_items[0].id, quantity: 1, amount_cents: 700 }] };
  expect((await api.post(`/v1/checkout/${order.checkout_id}/refund`, body)).status).toBe(201);
  expect((await api.post(`/v1/checkout/${order.checkout_id}/refund`, body)).status).toBe(400);
  await processRefunds();
  const [{ status }] = await db().execute(`select status from refunds where order_id = ?`, [order.id]);
  expect(status).toBe('failed');
  expect((await api.post(`/v1/checkout/${order.checkout_id}/refund`, body)).status).toBe(201);
});

test('GraphQL: createRefund with the same rules, Order.refunds and refunds connections', async () => {
  const order = await paidSplitOrder();
  const gid = (await api.graphql(`{ orders(first: 1) { nodes { id orderId } } }`)).body.data.orders.nodes[0];
  expect(gid.orderId).toBe(order.id);
  const M = `mutation($input: CreateRefundInput!) {
    createRefund(input: $input) { refund { id refundId amount status reason refundBreakdown { hsaAmount regularAmount } refunds { refundId processorRefundId success } } userErrors { field message code } }
  }`;
  const created = await api.graphql(M, { input: { orderId: gid.id, amount: 700, reason: 'DAMAGED_PRODUCT' } });
  const pending = {
    amount: 700,
    status: 'PENDING',
    reason: 'DAMAGED_PRODUCT',
    refundBreakdown: { hsaAmount: 400, regularAmount: 300 },
  };
  expect(created.body.data.createRefund.refund).toMatchObject(pending);
  expect(created.body.data.createRefund.refund.refunds).toEqual([
    { refundId: expect.stringMatching(/^rp_/), processorRefundId: null, success: null },
    { refundId: expect.stringMatching(/^rp_/), processorRefundId: null, success: null },
  ]);
  const over = await api.graphql(M, { input: { orderId: gid.id, amount: 5000, reason: 'OTHER' } });
  expect(over.body.data.createRefund).toEqual({
    refund: null,
    userErrors: [
      {
        field: ['input', 'amount'],
        message: expect.stringContaining('5000 exceeds the refundable remainder of 2800'),
        code: 'INVALID_AMOUNT',
      },
    ],
  });
  await api.graphql(M, { input: { orderId: gid.id, amount: 100, reason: 'OTHER' } });
  const q = await api.graphql(
    `query($id: ID!) { node(id: $id) { ... on Order { refunds(first: 1) { nodes { amount } pageInfo { hasNextPage endCursor } } } } }`,
    { id: gid.id },
  );
  const conn = q.body.data.node.refunds;
  expect(conn.nodes).toEqual([{ amount: 100 }]);
  expect(conn.pageInfo.hasNextPage).toBe(true);
  const refundsAfter = `query($id: ID!, $after: String) {
    node(id: $id) { ... on Order { refunds(first: 5, after: $after) { nodes { amount } pageInfo { hasNextPage } } } }
  }`;
  const next = await api.graphql(refundsAfter, { id: gid.id, after: conn.pageInfo.endCursor });
  expect(next.body.data.node.refunds).toEqual({ nodes: [{ amount: 700 }], pageInfo: { hasNextPage: false } });
  const all = await api.graphql(`query($o: ID) { refunds(first: 10, orderId: $o) { nodes { amount } } }`, {
    o: gid.id,
  });
  expect(all.body.data.refunds.nodes).toEqual([{ amount: 100 }, { amount: 700 }]);
});

test('refundPreview shows the split a refund would make, with the errors createRefund would answer', async () => {
  const order = await paidSplitOrder();
  const orderId = toGlobalId('Order', order.id);
  const preview = async (amount?: number) =>
    (
      await api.graphql(
        'query($o: ID!, $a: Int) { refundPreview(orderId: $o, amount: $a) { amount hsaAmount regularAmount remaining currency } }',
        { o: orderId, a: amount },
      )
    ).body;
  const partial = await preview(2500);
  expect(partial.errors).toBeUndefined();
  const made = (await api.post('/api/v2/refunds', { order_id: order.id, amount: 2500, reason: 'customer_request' }))
    .body.data;
  expect(partial.data.refundPreview).toEqual({
    amount: 2500,
    hsaAmount: made.refund_breakdown.hsa_amount,
    regularAmount: made.refund_breakdown.regular_amount,
    remaining: 3500,
    currency: 'usd',
  });
  expect((await preview()).data.refundPreview).toMatchObject({ amount: 1000, remaining: 1000 });
  expect((await preview(5000)).errors?.[0].extensions).toMatchObject({ code: 'invalid_amount' });
  expect(
    (await api.graphql('{ refundPreview(orderId: "T3JkZXI6b3JkX25vcGU=") { amount } }')).body.errors?.[0].extensions
      ?.code,
  ).toBe('not_found');
});
