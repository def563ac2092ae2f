import type { PaymentProcessor } from '../../src/modules/payments/payment-processor.js';
import { simulatedProcessor, useTestModeProcessor } from '../../src/modules/payments/processor-registry.js';
import { address, cards, checkoutBody, createProducts } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { newMerchant, startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * Order numbers are each merchant's own book: consecutive per merchant and mode whatever other
 * merchants do, gap-free under concurrency (a declined payment's failed order takes its number too).
 */
let t: TestApp;
let a: Client;
let b: Client;
beforeAll(async () => {
  ({ t, api: a } = await startWithMerchant('Merchant A'));
  b = client(t.url, (await t.merchant('Merchant B')).test_api_key);
});
afterAll(() => t.close());

async function pay(api: Client, card = cards.visa): Promise<string> {
  const session = (await api.post('/api/v2/checkout', checkoutBody([['ITEM', 'Chocolate bar', 1200, 1]]))).body.data;
  const res = await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, { card });
  if (res.status !== 200 && res.status !== 402) throw new Error(JSON.stringify(res.body));
  return res.status === 200
    ? res.body.order_number
    : (await api.get(`/api/v2/orders/${res.body.error.details.order_id}`)).body.order_number;
}

/** A monthly subscription's checkout for one chocolate bar, not yet paid. */
const subscriptionCheckout = async (api: Client) =>
  (
    await api.post(
      '/api/v2/checkout',
      checkoutBody([['ITEM', 'Chocolate bar', 1200, 1]], {
        payment_type: 'subscription',
        subscription: { interval: 'monthly' },
      }),
    )
  ).body.data;

const numbersOf = async (api: Client) =>
  (await api.get('/api/v2/orders?limit=100')).body.data.map((o: { order_number: string }) => o.order_number).sort();
const book = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `ORD-${String(from + i).padStart(6, '0')}`);

test("another merchant's orders never take numbers from a merchant's book", async () => {
  expect(await pay(a)).toBe('ORD-001001');
  expect(await pay(b)).toBe('ORD-001001');
  expect(await pay(b)).toBe('ORD-001002');
  expect(await pay(a, cards.declined)).toBe('ORD-001002'); // a failed order is in the book too
  expect(await pay(a)).toBe('ORD-001003');
});

test('concurrent orders of two merchants: each book is gap-free and without duplicates', async () => {
  await Promise.all([...Array.from({ length: 12 }, () => pay(a)), ...Array.from({ length: 12 }, () => pay(b))]);
  expect(await numbersOf(a)).toEqual(book(1001, 15));
  expect(await numbersOf(b)).toEqual(book(1001, 14));
});

test("a paid order's events carry its number, and numbers past ORD-999999 grow a digit the same way on every path", async () => {
  const { keys, api } = await newMerchant(t, 'Merchant C');
  const first = await pay(api);
  const events = await api.get<{ data: { type: string; data: unknown }[] }>('/api/v2/events?limit=10');
  const paid = events.body.data.filter((e) =>
    ['order.created', 'order.completed', 'checkout.completed'].includes(e.type),
  );
  expect(paid.map((e) => e.type).sort()).toEqual(['checkout.completed', 'order.completed', 'order.created']);
  for (const e of paid.filter((x) => x.type.startsWith('order.')))
    expect(e.data).toMatchObject({ order_number: first });
  // The number is set where an order's payload has it, and nowhere else.
  expect(paid.find((e) => e.type === 'checkout.completed')!.data).not.toHaveProperty('order_number');

  await t.orm.em
    .fork()
    .getConnection()
    .execute(`update order_number_counters set last_number = 999998 where merchant_id = ? and livemode = false`, [
      keys.id,
    ]);
  // Paid (one statement, the number taken in SQL), declined (the number taken by the service), paid again.
  expect([await pay(api), await pay(api, cards.declined), await pay(api)]).toEqual([
    'ORD-999999',
    'ORD-1000000',
    'ORD-1000001',
  ]);
});

test("a payment link's and a subscription checkout's orders take the book's next numbers, and their events carry them", async () => {
  const { api } = await newMerchant(t, 'Merchant D');
  await createProducts(api, [['ITEM', 'Chocolate bar', 1200]]);
  expect(await pay(api)).toBe('ORD-001001');
  const link = (
    await api.post('/api/v2/payment-links', {
      products: [{ merchant_product_id: 'ITEM', quantity: 1 }],
      currency: 'USD',
      customer: { email: 'pat.lee@example.com', first_name: 'Pat', last_name: 'Lee' },
    })
  ).body;
  const byLink = await api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, {
    shipping_address: address,
    card: cards.visa,
  });
  expect(byLink.status).toBe(200);
  const subscription = await subscriptionCheckout(api);
  const bySubscription = await api.post(`/api/v2/test-helpers/checkout/${subscription.checkout_id}/pay`, {
    card: cards.visa,
  });
  expect(bySubscription.status).toBe(200);
  expect([byLink.body.order_number, bySubscription.body.order_number]).toEqual(['ORD-001002', 'ORD-001003']);

  const events = (
    await api.get<{ data: { type: string; data: { id?: string; order_number?: string } }[] }>('/api/v2/events?limit=20')
  ).body.data;
  for (const order of [byLink.body, bySubscription.body]) {
    const ofOrder = events.filter((e) => e.type.startsWith('order.') && e.data.id === order.id);
    expect(ofOrder.map((e) => [e.type, e.data.order_number]).sort()).toEqual([
      ['order.completed', order.order_number],
      ['order.created', order.order_number],
    ]);
  }
  expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['payment_link.paid', 'subscription.created']));
});

/** The test processor, but reconciliation takes the attempt over (status `reversing`) as the last card is captured. */
function overtakenOnCapture(): PaymentProcessor {
  const real = simulatedProcessor(t.orm.em.fork());
  return Object.assign(Object.create(real) as PaymentProcessor, {
    capture: async (id: string, key: string) => {
      const done = await real.capture(id, key);
      await t.orm.em
        .fork()
        .getConnection()
        .execute(`update payment_attempts set status = 'reversing' where id = ?`, [key.split('.')[0]]);
      return done;
    },
  });
}

test('a pay that reconciliation took over keeps nothing and takes no number, alone or with what a subscription starts', async () => {
  const { keys, api } = await newMerchant(t, 'Merchant E');
  const db = () => t.orm.em.fork().getConnection();
  const count = async (sql: string) => (await db().execute<{ n: number }[]>(sql, [keys.id]))[0].n;
  expect(await pay(api)).toBe('ORD-001001');
  const one = (await api.post('/api/v2/checkout', checkoutBody([['ITEM', 'Chocolate bar', 1200, 1]]))).body.data;
  const subscription = await subscriptionCheckout(api);
  const previous = useTestModeProcessor(overtakenOnCapture());
  try {
    for (const s of [one, subscription]) {
      const res = await api.post(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { card: cards.visa });
      expect([res.status, res.body.error.code]).toEqual([503, 'service_unavailable']);
      expect((await api.get(`/api/v2/checkout/${s.checkout_id}`)).body.data).toMatchObject({
        status: 'open',
        order_id: null,
      });
    }
  } finally {
    useTestModeProcessor(previous);
  }
  expect(await count(`select count(*)::int as n from orders where merchant_id = ?`)).toBe(1);
  expect(await count(`select count(*)::int as n from subscriptions where merchant_id = ?`)).toBe(0);
  expect(
    await count(`select count(*)::int as n from events where merchant_id = ? and type not like 'checkout.created'`),
  ).toBe(3); // the first pay's order.created, order.completed, checkout.completed
  expect(await pay(api)).toBe('ORD-001002');
});
