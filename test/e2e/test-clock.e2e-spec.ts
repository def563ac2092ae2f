import { cards, checkoutBody } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

/**
 * The test clock drives everything: `advance-clock` answers only once every job due at the new
 * `now` has run (a daily subscription moved 3 days is billed for every period), and what the
 * service writes in test mode carries the merchant's clock (refunds, order history, event
 * envelopes, webhook attempts).
 */
let t: TestApp;
let api: Client;
const DAY = 86_400;
beforeAll(async () => {
  ({ t, api } = await startWithMerchant('Clockwork'));
  expect((await api.post('/api/v2/products', { name: 'Digital thermometer', price: 1500, currency: 'USD', merchant_product_id: 'THERM' })).status).toBe(201);
});
afterAll(() => t.close());

const advance = async (seconds: number) => {
  const res = await api.post('/api/v2/test-helpers/advance-clock', { seconds });
  expect(res.status).toBe(200);
  return new Date(res.body.now);
};

test('advancing 3 days bills every due period of a daily subscription before answering', async () => {
  const customer = (await api.post('/api/v2/customers', { email: 'daily@example.com', first_name: 'Dee', last_name: 'Daily' })).body;
  const pm = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.visa })).body;
  const sub = (await api.post('/api/v2/subscriptions', { customer_id: customer.id, payment_method_id: pm.id, amount_cents: 700, currency: 'USD', interval: 'daily', merchant_product_id: 'THERM' }))
    .body;
  expect(sub.id).toMatch(/^sub_/);
  await advance(1); // the first period, due at creation
  const paidBefore = (await api.get('/api/v2/orders?limit=100')).body.data.filter((o: { is_recurring: boolean }) => o.is_recurring).length;
  const now = await advance(3 * DAY);
  const orders = (await api.get('/api/v2/orders?limit=100')).body.data.filter((o: { is_recurring: boolean }) => o.is_recurring);
  expect(orders.length - paidBefore).toBe(3); // periods starting at +1 d, +2 d and +3 d
  expect(orders.length).toBe(4);
  const after = (await api.get(`/api/v2/subscriptions/${sub.id}`)).body;
  expect(after.status).toBe('active');
  expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(now.getTime());
  expect(new Date(after.current_period_end).getTime()).toBeLessThanOrEqual(now.getTime() + DAY * 1000);
});

test('refunds, order history, event envelopes and webhook attempts carry the merchant clock', async () => {
  const receiver = await startReceiver();
  try {
    expect((await api.post('/api/v2/webhook-endpoints', { url: `${receiver.url}/hooks`, events: ['refund.succeeded'] })).status).toBe(201);
    const session = (await api.post('/api/v2/checkout', checkoutBody([['THERM', 'Thermometer', 1500, 1]]))).body.data;
    const order = (await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, { hsa_fsa_card: cards.hsa })).body;
    expect(order.status).toBe('completed');
    const clock = await advance(2 * 3600);
    const refund = (await api.post('/api/v2/refunds', { order_id: order.id, reason: 'customer_request' })).body.data;
    expect(new Date(refund.created_at).getTime()).toBeGreaterThanOrEqual(clock.getTime());
    await advance(1); // processes the refund and delivers its webhook
    const processed = (await api.get(`/api/v2/refunds/${refund.id}`)).body.data;
    expect(processed.status).toBe('succeeded');
    expect(new Date(processed.processed_at).getTime()).toBeGreaterThanOrEqual(new Date(refund.created_at).getTime());

    const history: { timestamp: string }[] = (await api.get(`/api/v2/orders/${order.id}`)).body.status_history;
    const times = history.map((h) => new Date(h.timestamp).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeGreaterThanOrEqual(clock.getTime());

    const events = (await api.graphql('{ events(first: 5) { nodes { type createdAt } } }')).body.data.events.nodes;
    for (const type of ['refund.created', 'refund.succeeded']) {
      expect(new Date(events.find((e: { type: string }) => e.type === type).createdAt).getTime()).toBeGreaterThanOrEqual(clock.getTime());
    }

    const [hook] = await receiver.waitFor(1);
    expect(hook.body.type).toBe('refund.succeeded');
    expect(new Date(hook.body.created_at).getTime()).toBeGreaterThanOrEqual(clock.getTime());
    expect(new Date(hook.body.data.refunded_at as string).getTime()).toBeGreaterThanOrEqual(new Date(refund.created_at).getTime());
    const endpoints = (await api.get('/api/v2/webhook-endpoints')).body.data;
    const deliveries = (await api.get(`/api/v2/webhook-endpoints/${endpoints[0].id}/deliveries`)).body.data;
    const attempt = deliveries[0].attempts[0];
    expect(new Date(attempt.started_at).getTime()).toBeGreaterThanOrEqual(clock.getTime());
    expect(new Date(attempt.finished_at).getTime()).toBeGreaterThanOrEqual(new Date(attempt.started_at).getTime());
  } finally {
    await receiver.close();
  }
});
