import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import type { RefundResource } from '../../src/modules/refunds/refund.resource.js';
import { cards, createProducts, openCheckout, paidOrder } from '../helpers/fixtures.js';
import type { Client, Envelope, Page } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

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
  t = await startTestApp();
  await t.reset();
});
// Each scenario moves the clock of a merchant of its own.
beforeEach(async () => {
  ({ api } = await newMerchant(t, 'Clockwork'));
  await createProducts(api, [['THERM', 'Digital thermometer', 1500]]);
});
afterAll(() => t.close());

const advance = async (seconds: number) => {
  const res = await api.post<{ now: string }>('/api/v2/test-helpers/advance-clock', { seconds });
  expect(res.status).toBe(200);
  return new Date(res.body.now);
};
const recurringOrders = async () =>
  (await api.get<Page<OrderResource>>('/api/v2/orders?limit=100')).body.data.filter((o) => o.is_recurring);

test('advancing 3 days bills every due period of a daily subscription before answering', async () => {
  const customer = (
    await api.post('/api/v2/customers', { email: 'daily@example.com', first_name: 'Dee', last_name: 'Daily' })
  ).body;
  const pm = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.visa })).body;
  const daily = {
    customer_id: customer.id,
    payment_method_id: pm.id,
    amount_cents: 700,
    currency: 'USD',
    interval: 'daily',
    merchant_product_id: 'THERM',
  };
  const sub = (await api.post('/api/v2/subscriptions', daily)).body;
  expect(sub.id).toMatch(/^sub_/);
  await advance(1); // the first period, due at creation
  const paidBefore = (await recurringOrders()).length;
  const now = await advance(3 * DAY);
  const orders = await recurringOrders();
  expect(orders.length - paidBefore).toBe(3); // periods starting at +1 d, +2 d and +3 d
  expect(orders.length).toBe(4);
  const after = (await api.get(`/api/v2/subscriptions/${sub.id}`)).body;
  expect(after.status).toBe('active');
  expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(now.getTime());
  expect(new Date(after.current_period_end).getTime()).toBeLessThanOrEqual(now.getTime() + DAY * 1000);
});

describe('a refund two hours of test clock after the payment', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver.close());

  /**
   * Subscribes the receiver to refund.succeeded, pays a thermometer, moves the clock 2 hours,
   * refunds the order, then moves it a second (which processes the refund and delivers its webhook).
   */
  async function refundTwoHoursLater() {
    expect(
      (await api.post('/api/v2/webhook-endpoints', { url: `${receiver.url}/hooks`, events: ['refund.succeeded'] }))
        .status,
    ).toBe(201);
    const session = await openCheckout(api, [['THERM', 'Thermometer', 1500, 1]]);
    const order = await paidOrder(api, session.checkout_id, { hsa_fsa_card: cards.hsa });
    expect(order.status).toBe('completed');
    const clock = await advance(2 * 3600);
    const refund = (
      await api.post<Envelope<RefundResource>>('/api/v2/refunds', { order_id: order.id, reason: 'customer_request' })
    ).body.data;
    await advance(1);
    return { order, clock, refund };
  }

  test('the refund is created and processed at the merchant clock', async () => {
    const { clock, refund } = await refundTwoHoursLater();
    expect(new Date(refund.created_at).getTime()).toBeGreaterThanOrEqual(clock.getTime());
    const processed = (await api.get<Envelope<RefundResource>>(`/api/v2/refunds/${refund.id}`)).body.data;
    expect(processed.status).toBe('succeeded');
    expect(new Date(processed.processed_at!).getTime()).toBeGreaterThanOrEqual(new Date(refund.created_at).getTime());
  });

  test("the order's status history is in order and ends at the merchant clock", async () => {
    const { order, clock } = await refundTwoHoursLater();
    const history = (await api.get<OrderResource>(`/api/v2/orders/${order.id}`)).body.status_history as {
      timestamp: string;
    }[];
    const times = history.map((h) => new Date(h.timestamp).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeGreaterThanOrEqual(clock.getTime());
  });

  test('the refund events are created at the merchant clock', async () => {
    const { clock } = await refundTwoHoursLater();
    type Events = { events: { nodes: { type: string; createdAt: string }[] } };
    const events = (await api.graphql<Events>('{ events(first: 5) { nodes { type createdAt } } }')).body.data.events
      .nodes;
    for (const type of ['refund.created', 'refund.succeeded']) {
      const event = events.find((e) => e.type === type);
      expect(new Date(event!.createdAt).getTime()).toBeGreaterThanOrEqual(clock.getTime());
    }
  });

  test('the webhook envelope and its delivery attempt carry the merchant clock', async () => {
    const { clock, refund } = await refundTwoHoursLater();
    const [hook] = await receiver.waitFor(1);
    expect(hook.body.type).toBe('refund.succeeded');
    expect(new Date(hook.body.created_at).getTime()).toBeGreaterThanOrEqual(clock.getTime());
    expect(new Date(hook.body.data.refunded_at as string).getTime()).toBeGreaterThanOrEqual(
      new Date(refund.created_at).getTime(),
    );
    const endpoints = (await api.get<Page<{ id: string }>>('/api/v2/webhook-endpoints')).body.data;
    type Attempt = { started_at: string; finished_at: string };
    const deliveries = (
      await api.get<Page<{ attempts: Attempt[] }>>(`/api/v2/webhook-endpoints/${endpoints[0].id}/deliveries`)
    ).body.data;
    const attempt = deliveries[0].attempts[0];
    expect(new Date(attempt.started_at).getTime()).toBeGreaterThanOrEqual(clock.getTime());
    expect(new Date(attempt.finished_at).getTime()).toBeGreaterThanOrEqual(new Date(attempt.started_at).getTime());
  });
});
