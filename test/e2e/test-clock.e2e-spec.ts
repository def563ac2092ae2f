import { cards } from '../helpers/fixtures.js';
import { client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * The test clock drives everything: `advance-clock` answers only once every job due at the new
 * `now` has run (a daily subscription moved 3 days is billed for every period), and what the
 * service writes in test mode carries the merchant's clock (refunds, order history, event
 * envelopes, webhook attempts).
 */
let t: TestApp;
let api: ReturnType<typeof client>;
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
  const sub = (await api.post('/api/v2/subscriptions', { customer_id: customer.id, payment_method_id: pm.id, amount_cents: 700, currency: 'USD', interval: 'daily', merchant_product_id: 'THERM' })).body;
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
