import { checkoutBody, cards } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Payments under load: a pay never holds two pooled connections, so the pool cannot be
 * exhausted by payments waiting on themselves, and `/healthz` never waits behind the pool.
 */

async function openSessions(api: Client, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, () =>
        api.post(
          '/api/v2/checkout',
          checkoutBody([
            ['THERM', 'Thermometer', 2000, 1],
            ['CANDY', 'Candy', 1000, 1],
          ]),
        ),
      ),
    );
    for (const res of batch) {
      expect(res.status).toBe(201);
      ids.push(res.body.data.checkout_id);
    }
  }
  return ids;
}

const timed = async <T>(run: () => Promise<T>): Promise<{ ms: number; res: T }> => {
  const start = performance.now();
  const res = await run();
  return { ms: performance.now() - start, res };
};

let apiKey = '';
async function withProducts(t: TestApp) {
  const keys = await t.merchant('Load');
  apiKey = keys.test_api_key;
  const api = client(t.url, keys.test_api_key);
  await api.post('/api/v2/products', {
    name: 'Digital thermometer',
    price: 2000,
    currency: 'USD',
    merchant_product_id: 'THERM',
  });
  await api.post('/api/v2/products', {
    name: 'Chocolate candy bar',
    price: 1000,
    currency: 'USD',
    merchant_product_id: 'CANDY',
  });
  return api;
}

describe('with the default pool (10)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.reset();
  });
  afterAll(() => t.close());

  test('200 concurrent split pays on 200 sessions: each answers within 5 s with 200 (or 429 to retry), never 500; /healthz stays under 1 s', async () => {
    const api = await withProducts(t);
    const ids = await openSessions(api, 200);
    let paying = true;
    const health: number[] = [];
    const probe = (async () => {
      while (paying) {
        const { ms, res } = await timed(() => fetch(`${t.url}/healthz`));
        expect(res.status).toBe(200);
        health.push(ms);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const pays = await Promise.all(
      ids.map((id) =>
        timed(() => api.post(`/api/v2/test-helpers/checkout/${id}/pay`, { hsa_fsa_card: cards.hsa, card: cards.visa })),
      ),
    );
    paying = false;
    await probe;
    const statuses = pays.map((p) => p.res.status);
    const q = (xs: number[], f: number) => Math.round(xs.sort((a, b) => a - b)[Math.floor(f * (xs.length - 1))] ?? 0);
    const okMs = pays.filter((p) => p.res.status === 200).map((p) => p.ms);
    const shedMs = pays.filter((p) => p.res.status === 429).map((p) => p.ms);
    console.log(
      `paid p50 ${q(okMs, 0.5)} p99 ${q(okMs, 0.99)} max ${q(okMs, 1)}; shed n=${shedMs.length} p50 ${q(shedMs, 0.5)} max ${q(shedMs, 1)}`,
    );
    // A burst beyond what the process can start within 2.5 s is shed with 429 + Retry-After (nothing done, safe to retry).
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    for (const p of pays.filter((p) => p.res.status === 429)) expect(p.res.headers.get('retry-after')).toBe('1');
    const paid = statuses.filter((s) => s === 200).length;
    // How many start within the admission window is the machine's speed (about half on an idle
    // 2-core runner, fewer when it is shared); the bench measures throughput. Here: most work is done, none lost.
    expect(paid).toBeGreaterThanOrEqual(60);
    expect(Math.max(...pays.map((p) => p.ms))).toBeLessThan(5000);
    expect(health.length).toBeGreaterThan(3);
    expect(Math.max(...health)).toBeLessThan(1000);
    const [orders] = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from orders where status = 'completed'`);
    expect(orders.n).toBe(paid);
    console.log(
      `200 concurrent pays: ${paid} paid, ${200 - paid} shed with 429; slowest answer ${Math.round(Math.max(...pays.map((p) => p.ms)))} ms, slowest /healthz ${Math.round(Math.max(...health))} ms`,
    );
  });

  test('50 concurrent pays with one Idempotency-Key: one order, every answer 200 (the first or its replay) or 409 while it runs', async () => {
    const api = await withProducts(t);
    const [id] = await openSessions(api, 1);
    const key = crypto.randomUUID();
    const pays = await Promise.all(
      Array.from({ length: 50 }, () =>
        api.post(
          `/api/v2/test-helpers/checkout/${id}/pay`,
          { hsa_fsa_card: cards.hsa, card: cards.visa },
          { 'idempotency-key': key },
        ),
      ),
    );
    expect(pays.filter((p) => p.status >= 500)).toEqual([]);
    const ok = pays.filter((p) => p.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((p) => p.body.id)).size).toBe(1);
    for (const p of pays.filter((p) => p.status !== 200)) expect([409]).toContain(p.status);
    const [orders] = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from orders where checkout_id = ?`, [id]);
    expect(orders.n).toBe(1);
    // Once the first has answered, a retry replays its exact bytes.
    const raw = async () => {
      const res = await fetch(`${t.url}/api/v2/test-helpers/checkout/${id}/pay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ hsa_fsa_card: cards.hsa, card: cards.visa }),
      });
      return { status: res.status, replayed: res.headers.get('idempotent-replayed'), text: await res.text() };
    };
    const replay = await raw();
    expect(replay).toEqual({ status: 200, replayed: 'true', text: JSON.stringify(ok[0].body) });
  });
});

describe('with a pool of 2 connections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DB_POOL_MAX: '2' });
  });
  afterAll(() => t.close());

  test('no request path holds two pooled connections at once: 30 concurrent pays, refunds and reads all finish', async () => {
    const api = await withProducts(t);
    const ids = await openSessions(api, 30);
    // A client retries a 429 (shed before anything was done) with the same key, as a merchant's would.
    const payOnce = async (id: string, key: string) => {
      for (;;) {
        const res = await api.post(
          `/api/v2/test-helpers/checkout/${id}/pay`,
          { hsa_fsa_card: cards.hsa, card: cards.visa },
          { 'idempotency-key': key },
        );
        if (res.status !== 429) return res;
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    const pays = await Promise.all(ids.map((id) => payOnce(id, crypto.randomUUID())));
    expect(pays.map((p) => p.status)).toEqual(ids.map(() => 200));
    const work = await Promise.all([
      ...pays.map((p) =>
        api.post(
          '/api/v2/refunds',
          { order_id: p.body.id, amount: 300, reason: 'customer_request' },
          { 'idempotency-key': crypto.randomUUID() },
        ),
      ),
      ...pays.map((p) => api.get(`/api/v2/orders/${p.body.id}`)),
      ...ids.map(() => api.graphql('{ orders(first: 5) { edges { node { id payments { amount } } } } }')),
    ]);
    expect(work.filter((r) => r.status >= 500)).toEqual([]);
    await t.app.http.jobs.runDue(new Date()); // refunds go to the processor (no transaction held while it works)
    const [refunds] = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from refunds where status = 'succeeded'`);
    expect(refunds.n).toBe(30);
  }, 60_000);
});

describe('routes that call the payment processor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DB_POOL_MAX: '2' });
  });
  afterAll(() => t.close());

  test("with an Idempotency-Key they run outside the key's transaction (REST and GraphQL) and replay", async () => {
    const api = await withProducts(t);
    const key = () => ({ 'idempotency-key': crypto.randomUUID() });
    const customer = await api.post(
      '/api/v2/customers',
      { email: 'pat@example.com', first_name: 'Pat', last_name: 'Lee' },
      key(),
    );
    expect(customer.status).toBe(201);
    const attachKey = key();
    const pm = await api.post(`/api/v2/customers/${customer.body.id}/payment-methods`, { card: cards.visa }, attachKey);
    expect(pm.status).toBe(201);
    const again = await api.post(
      `/api/v2/customers/${customer.body.id}/payment-methods`,
      { card: cards.visa },
      attachKey,
    );
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(pm.body.id);
    const sub = await api.post(
      '/api/v2/subscriptions',
      {
        customer_id: customer.body.id,
        payment_method_id: pm.body.id,
        amount_cents: 1500,
        currency: 'USD',
        interval: 'monthly',
        merchant_product_id: 'THERM',
      },
      key(),
    );
    expect(sub.status).toBe(201);
    expect(sub.body.status).toBe('active');
    const globalId = (await api.graphql('{ customers(first: 1) { edges { node { id } } } }')).body.data.customers
      .edges[0].node.id;
    const gql = await api.graphql(
      'mutation($input: AttachPaymentMethodInput!) { attachPaymentMethod(input: $input) { paymentMethod { id last4 } } }',
      {
        input: {
          customerId: globalId,
          card: { number: cards.mastercard.number, expMonth: 12, expYear: 2030, cvc: '123' },
        },
      },
      key(),
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.attachPaymentMethod.paymentMethod.last4).toBe('4444');
  });
});
