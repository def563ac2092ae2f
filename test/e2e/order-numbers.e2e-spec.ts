import { cards, checkoutBody } from '../helpers/fixtures.js';
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
  expect(JSON.stringify(events.body)).not.toMatch(/ORDNUM/);

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
