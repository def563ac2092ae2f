import { address, cards } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

// Concurrent pays of one payment link: the prepare step (the link's short transaction) and the
// settle step (the transaction that commits the order) take the link's and the checkout's row
// locks in one order, so PostgreSQL never has to break a deadlock (a 500) between them.

let t: TestApp;
let api: Client;
const db = () => t.orm.em.fork().getConnection();

beforeAll(async () => {
  ({ t, api } = await startWithMerchant('Link races'));
  expect(
    (
      await api.post('/api/v2/products', {
        name: 'Digital thermometer',
        price: 2000,
        currency: 'USD',
        merchant_product_id: 'THERM',
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await api.post('/api/v2/products', {
        name: 'Chocolate candy bar',
        price: 1000,
        currency: 'USD',
        merchant_product_id: 'CANDY',
      })
    ).status,
  ).toBe(201);
});
afterAll(() => t.close());

const payer = { email: 'pat.lee@example.com', first_name: 'Pat', last_name: 'Lee' };
const products = [
  { merchant_product_id: 'THERM', quantity: 1 },
  { merchant_product_id: 'CANDY', quantity: 1 },
];

// Each kind makes the prepare step lock something different: the link only; the link then the
// checkout (the payer's details go on it); the link then the checkout (readied for a subscription).
const kinds: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['one-time link naming its customer', { products, currency: 'USD', customer: payer }, {}],
  ['link that takes the payer’s details', { products, currency: 'USD' }, { customer: payer }],
  [
    'subscription link',
    { products, currency: 'USD', customer: payer, payment_type: 'subscription', subscription: { interval: 'monthly' } },
    {},
  ],
];

describe.each(kinds)('50 concurrent pays of one %s', (_kind, linkBody, payExtra) => {
  test('make exactly one order; every other answer is 409, 400 or (a full payments gate, nothing done) 429, never 5xx', async () => {
    const link = await api.post('/api/v2/payment-links', linkBody);
    expect(link.status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.post(`/api/v2/test-helpers/payment-links/${link.body.id}/pay`, {
          card: cards.visa,
          client_reference_id: `try-${i}`,
          shipping_address: address,
          ...payExtra,
        }),
      ),
    );
    const answers = results.map((r) => (r.status === 200 ? '200' : `${r.status} ${r.body?.error?.code}`));
    const tally = answers.reduce<Record<string, number>>((acc, a) => ({ ...acc, [a]: (acc[a] ?? 0) + 1 }), {});
    // A burst beyond what the payments gate can start within 2 s is turned away at once (429, nothing done): on a slow machine some are.
    expect(
      answers.filter(
        (a) => !['200', '400 invalid_state', '409 payment_in_progress', '429 rate_limit_exceeded'].includes(a),
      ),
    ).toEqual([]);
    expect(tally['200']).toBe(1);

    const winner = results.find((r) => r.status === 200)!.body;
    const orders = await db().execute<{ id: string }[]>(`select id from orders where payment_link_id = ?`, [
      link.body.id,
    ]);
    expect(orders).toEqual([{ id: winner.id }]);
    expect((await api.get(`/api/v2/payment-links/${link.body.id}`)).body).toMatchObject({
      status: 'paid',
      order: { id: winner.id },
    });
    // One capture kept for the checkout, however many attempts were made.
    const [captures] = await db().execute<{ n: number }[]>(
      `select count(*)::int as n from processor_ledger l where l.operation = 'capture' and l.ok
         and split_part(l.key, '.', 1) in (select id from payment_attempts where subject_id = ?)
         and not exists (select 1 from processor_ledger r where r.operation = 'refund' and r.ok and r.target = l.reference)`,
      [link.body.checkout_id],
    );
    expect(captures.n).toBe(1);
  });
});

test('pays raced by cancels of the link: one of them wins, never 5xx, never an order for a cancelled link', async () => {
  const link = await api.post('/api/v2/payment-links', { products, currency: 'USD' });
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      i % 4 === 3
        ? api.post(`/api/v2/payment-links/${link.body.id}/cancel`, { reason: `race ${i}` })
        : api.post(`/api/v2/test-helpers/payment-links/${link.body.id}/pay`, {
            card: cards.visa,
            customer: payer,
            shipping_address: address,
          }),
    ),
  );
  expect(results.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
  const final = (await api.get(`/api/v2/payment-links/${link.body.id}`)).body;
  const orders = await db().execute<{ id: string; status: string }[]>(
    `select id, status from orders where payment_link_id = ? and status = 'completed'`,
    [link.body.id],
  );
  if (final.status === 'paid') expect(orders).toEqual([{ id: final.order.id, status: 'completed' }]);
  else expect({ status: final.status, orders }).toEqual({ status: 'cancelled', orders: [] });
});
