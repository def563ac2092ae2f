import { allSettled } from '../helpers/events.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A paid checkout's events follow the life of its objects: the order is created before it
 * completes, and the checkout completes with it. Webhooks, graphql-ws and `GET /api/v2/events` all
 * follow the event log, so its order is the one every consumer sees.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
afterAll(() => t.close());

/** The merchant's events, oldest first (the REST list is newest first). */
async function typesInLogOrder(api: Client): Promise<string[]> {
  await allSettled(t); // the log read oldest first returns settled events only (another file's transaction holds them back)
  const res = await api.graphql<{ events: { nodes: { type: string }[] } }>(
    `{ events(first: 50, order: OLDEST_FIRST) { nodes { type } } }`,
  );
  expect(res.body.errors).toBeUndefined();
  return res.body.data.events.nodes.map((n) => n.type);
}

test('a paid checkout records order.created, then order.completed, then checkout.completed', async () => {
  const { api } = await newMerchant(t, 'One statement');
  const session = (await api.post('/api/v2/checkout', checkoutBody([['ITEM', 'Thermometer', 1200, 1]]))).body.data;
  expect(
    (await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, { card: cards.visa })).status,
  ).toBe(200);
  expect(await typesInLogOrder(api)).toEqual([
    'checkout.created',
    'order.created',
    'order.completed',
    'checkout.completed',
  ]);
  const rest = (await api.get<{ data: { type: string }[] }>('/api/v2/events?limit=10')).body.data.map((e) => e.type);
  expect(rest).toEqual(['checkout.completed', 'order.completed', 'order.created', 'checkout.created']);
});

test('a paid payment link records its order before it completes, and the link paid after its order', async () => {
  const { api } = await newMerchant(t, 'Payment link');
  const link = (await api.post('/api/v2/payment-links', { amount: 2500, description: 'Consultation', currency: 'USD' }))
    .body;
  expect(
    (
      await api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, {
        card: cards.visa,
        customer: { email: 'jane@example.com', first_name: 'Jane', last_name: 'Doe' },
      })
    ).status,
  ).toBe(200);
  const types = await typesInLogOrder(api);
  const at = (type: string) => types.indexOf(type);
  expect([at('order.created'), at('order.completed'), at('checkout.completed')].every((i) => i >= 0)).toBe(true);
  expect(at('order.created')).toBeLessThan(at('order.completed'));
  expect(at('order.completed')).toBeLessThan(at('checkout.completed'));
});
