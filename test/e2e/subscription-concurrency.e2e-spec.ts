import { randomUUID } from 'node:crypto';
import { cards } from '../helpers/fixtures.js';
import { client, type ApiResponse } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

// Concurrent writes to one subscription on a pool of two connections: a write path that asks for
// a second pooled connection while it holds one freezes the whole service (every merchant) for
// the pool's acquire timeout. And a cancel racing a charge already in flight never keeps the
// money of a cycle it voided.

let t: TestApp;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
const DAY = 86_400;
const retryCard = { number: '4000000000000341', exp_month: 12, exp_year: 2035, cvc: '123' };
const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`, 'utf8').toString('base64url');
const db = () => t.orm.em.fork().getConnection();

beforeAll(async () => {
  t = await startTestApp({ DB_POOL_MAX: '2' });
  await t.reset();
  api = client(t.url, (await t.merchant('Subscriptions under load')).test_api_key);
  other = client(t.url, (await t.merchant('Unrelated merchant')).test_api_key);
  expect((await api.post('/api/v2/products', { name: 'Digital thermometer', price: 1500, currency: 'USD', merchant_product_id: 'THERM' })).status).toBe(201);
  expect((await other.post('/api/v2/products', { name: 'Bandages', price: 500, currency: 'USD', merchant_product_id: 'BAND' })).status).toBe(201);
});
afterAll(() => t.close());

/** A subscription on `card` (the retry card makes it past_due at once) and a second, good card of the same customer. */
async function subscription(card: object = cards.visa) {
  const customer = (await api.post('/api/v2/customers', { email: `c.${randomUUID().slice(0, 8)}@example.com`, first_name: 'Cy', last_name: 'Race' })).body;
  const pm = await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card });
  const spare = await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.mastercard });
  expect([pm.status, spare.status]).toEqual([201, 201]);
  const res = await api.post('/api/v2/subscriptions', { customer_id: customer.id, payment_method_id: pm.body.id, amount_cents: 1500, currency: 'USD', interval: 'monthly', merchant_product_id: 'THERM' });
  expect(res.status).toBe(201);
  return { sub: res.body, spare: spare.body.id as string };
}

/** The unrelated merchant's reads, one after another until `done`; returns each one's time in ms. */
async function readsUntil(done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const times: number[] = [];
  do {
    const started = performance.now();
    const res = await other.get(times.length % 2 ? '/api/v2/products' : '/api/v2/subscriptions');
    times.push(performance.now() - started);
    expect(res.status).toBe(200);
  } while (!finished);
  return times;
}

async function eventTypes(subId: string): Promise<string[]> {
  const rows = await db().execute<{ type: string }[]>(`select type from events where data->>'subscription_id' = ? order by created_at, id`, [subId]);
  return rows.map((r) => r.type);
}

/** What the simulated processor kept for each cycle of `subId`: charges under its attempts' keys minus refunds of those charges. */
async function keptByCycle(subId: string): Promise<{ invoice: string; status: string; charged: number; refunded: number }[]> {
  return db().execute(
    `select i.id as invoice, i.status,
            coalesce(sum(c.amount) filter (where c.ok), 0)::int as charged,
            coalesce(sum((select sum(r.amount) from processor_ledger r where r.operation = 'refund' and r.ok and r.target = c.reference)), 0)::int as refunded
       from subscription_invoices i
       join subscription_invoice_attempts a on a.invoice_id = i.id
       left join processor_ledger c on c.key = a.id and c.operation = 'charge'
      where i.subscription_id = ?
      group by i.id, i.status order by i.id`,
    [subId],
  );
}

/** Nothing kept for a cycle that is not paid, one charge kept for a paid one; never renewed after canceled. */
async function expectNothingKeptAfterCancel(subId: string): Promise<void> {
  for (const cycle of await keptByCycle(subId)) {
    expect({ ...cycle, kept: cycle.charged - cycle.refunded }).toEqual({ ...cycle, kept: cycle.status === 'paid' ? 1500 : 0 });
  }
  const types = await eventTypes(subId);
  expect(types.filter((e) => e === 'subscription.canceled')).toHaveLength(1);
  expect(types.slice(types.indexOf('subscription.canceled') + 1)).toEqual([]);
}

const summary = (res: ApiResponse[]) => res.map((r) => (r.status === 200 ? '200' : `${r.status} ${r.body?.error?.code}`));
const cancel = (id: string, key?: string) => api.post(`/api/v2/subscriptions/${id}/cancel`, { reason: 'race' }, key ? { 'idempotency-key': key } : {});

test('50 concurrent cancels of one subscription, with and without Idempotency-Key: one succeeds, the others are 400 invalid_state; an unrelated merchant is served meanwhile', async () => {
  const { sub } = await subscription();
  const burst = Promise.all(Array.from({ length: 50 }, (_, i) => cancel(sub.id, i % 2 ? randomUUID() : undefined)));
  const [results, reads] = await Promise.all([burst, readsUntil(burst)]);
  const answers = summary(results);
  expect(answers.filter((a) => a !== '200' && a !== '400 invalid_state')).toEqual([]);
  expect(answers.filter((a) => a === '200')).toHaveLength(1);
  expect(Math.max(...reads)).toBeLessThan(1000);
  expect((await api.get(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('cancelled');
  await expectNothingKeptAfterCancel(sub.id);
}, 150_000);

test('50 concurrent writes to one past_due subscription (REST and GraphQL cancels, card replacements, advance-clock): one cancel wins, never 5xx, an unrelated merchant is served meanwhile', async () => {
  const { sub, spare } = await subscription(retryCard);
  expect(sub.status).toBe('past_due');
  const cancelGraphql = () =>
    api.graphql(`mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { subscription { status } } }`, { input: { id: gid('SubscriptionContract', sub.id), reason: 'race' } }, { 'idempotency-key': randomUUID() });
  const writes: (() => Promise<ApiResponse>)[] = [
    ...Array.from({ length: 15 }, () => () => cancel(sub.id, randomUUID())),
    ...Array.from({ length: 10 }, () => () => cancel(sub.id)),
    ...Array.from({ length: 8 }, () => cancelGraphql),
    ...Array.from({ length: 6 }, (_, i) => () => api.post(`/api/v2/subscriptions/${sub.id}/payment-method`, { payment_method_id: spare }, i % 2 ? { 'idempotency-key': randomUUID() } : {})),
    ...Array.from({ length: 6 }, () => () => api.put(`/api/v2/subscriptions/${sub.id}`, { metadata: { touched: true } }, { 'idempotency-key': randomUUID() })),
    ...Array.from({ length: 5 }, () => () => api.post('/api/v2/test-helpers/advance-clock', { seconds: 2 * DAY })),
  ];
  const order = writes.map((_, i) => i).sort(() => Math.random() - 0.5);
  const burst = Promise.all(order.map((i) => writes[i]()));
  const [shuffled, reads] = await Promise.all([burst, readsUntil(burst)]);
  const results: ApiResponse[] = [];
  order.forEach((i, n) => (results[i] = shuffled[n]));

  expect(results.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
  const restCancels = summary(results.slice(0, 25));
  const graphqlCancels = results.slice(25, 33).map((r) => (r.body.errors ? `error ${r.body.errors[0].extensions.code}` : 'ok'));
  expect(restCancels.filter((a) => a !== '200' && a !== '400 invalid_state')).toEqual([]);
  expect(graphqlCancels.filter((a) => a !== 'ok' && a !== 'error invalid_state')).toEqual([]);
  expect(restCancels.filter((a) => a === '200').length + graphqlCancels.filter((a) => a === 'ok').length).toBe(1);
  expect(summary(results.slice(33, 45)).filter((a) => a !== '200' && a !== '400 invalid_state')).toEqual([]);
  expect(summary(results.slice(45))).toEqual(Array(5).fill('200'));
  expect(Math.max(...reads)).toBeLessThan(1000);

  expect((await api.get(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('cancelled');
  await expectNothingKeptAfterCancel(sub.id);
}, 150_000);
