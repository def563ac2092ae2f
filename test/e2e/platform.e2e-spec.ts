import { sqlStatementCount } from '../../src/platform/db/sql-counter.js';
import { client, type ApiResponse, type Page, type Client } from '../helpers/http.js';
import { startTestApp, startWithMerchant, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;
let keys: Awaited<ReturnType<TestApp['merchant']>>;

beforeAll(async () => {
  ({ t, keys, api } = await startWithMerchant());
});
afterAll(() => t.close());

const product = (n: number | string) => ({ name: `Thermometer ${n}`, price: 1000, currency: 'USD' });

describe('authentication', () => {
  test.each([
    ['no header', undefined],
    ['a malformed key', 'Bearer nope'],
    ['an unknown key', 'Bearer glm_test_00000000000000000000000000000000'],
    ['a key without Bearer', undefined as unknown as string],
  ])('%s answers 401 unauthorized in the spec error shape', async (_label, authorization) => {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    for (const path of ['/api/v2/products', '/api/v2/products/1']) {
      const res = await client(t.url).get(path, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    }
  });

  test('keys are stored only as hashes', async () => {
    const rows = await t.orm.em.fork().getConnection().execute('select key_hash, key_prefix from api_keys');
    const all = JSON.stringify(rows);
    expect(all).not.toContain(keys.test_api_key);
    expect(all).not.toContain(keys.live_api_key);
    expect(keys.test_api_key).toMatch(/^glm_test_/);
    expect(keys.live_api_key).toMatch(/^glm_live_/);
    expect(keys.webhook_secret).toMatch(/^whsec_/);
  });

  test('GraphQL without a key is refused with 401 and code unauthorized', async () => {
    const res = await client(t.url).graphql('{ products { nodes { id } } }');
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0].extensions.code).toBe('unauthorized');
  });

  test('test and live objects never see each other', async () => {
    const live = client(t.url, keys.live_api_key);
    const liveProduct = (await live.post('/api/v2/products', product('live'))).body;
    expect(liveProduct.livemode).toBe(true);
    const testList = await api.get('/api/v2/products?limit=100');
    expect(testList.body.data.map((p: { id: number }) => p.id)).not.toContain(liveProduct.id);
    expect((await api.get(`/api/v2/products/${liveProduct.id}`)).status).toBe(404);
  });
});

describe('Idempotency-Key', () => {
  test('replays the first response for the same key and body', async () => {
    const key = crypto.randomUUID();
    const first = await api.post('/api/v2/products', product('idem'), { 'idempotency-key': key });
    const second = await api.post('/api/v2/products', product('idem'), { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const count = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from products where name = 'Thermometer idem'`);
    expect(count[0].n).toBe(1);
  });

  test('the same key with a different body is refused', async () => {
    const key = crypto.randomUUID();
    await api.post('/api/v2/products', product('a'), { 'idempotency-key': key });
    const res = await api.post('/api/v2/products', product('b'), { 'idempotency-key': key });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
  });

  test('concurrent requests with one key execute once', async () => {
    const key = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.post('/api/v2/products', product('race'), { 'idempotency-key': key })),
    );
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.every((r) => r.status === 201)).toBe(true);
    const count = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from products where name = 'Thermometer race'`);
    expect(count[0].n).toBe(1);
  });

  test('a failed request does not burn the key; keys are per merchant and mode', async () => {
    const key = crypto.randomUUID();
    const bad = await api.post('/api/v2/products', { ...product('x'), price: 0 }, { 'idempotency-key': key });
    expect(bad.status).toBe(400);
    const fixed = await api.post('/api/v2/products', product('fixed'), { 'idempotency-key': key });
    expect(fixed.status).toBe(201);
    const live = await client(t.url, keys.live_api_key).post('/api/v2/products', product('other mode'), {
      'idempotency-key': key,
    });
    expect(live.status).toBe(201);
    expect(live.body.id).not.toBe(fixed.body.id);
  });

  test('an expired key (older than 24 h) executes again', async () => {
    const key = crypto.randomUUID();
    const first = await api.post('/api/v2/products', product('expiring'), { 'idempotency-key': key });
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`update idempotency_keys set expires_at = now() - interval '1 second' where key = ?`, [key]);
    const again = await api.post('/api/v2/products', product('expiring'), { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
  });
});

describe('pagination', () => {
  let ids: number[];
  beforeAll(async () => {
    const m = await t.merchant('Pager');
    api = client(t.url, m.test_api_key);
    ids = [];
    for (let i = 0; i < 25; i++) ids.push((await api.post('/api/v2/products', product(i))).body.id);
  });
  afterAll(() => {
    api = client(t.url, keys.test_api_key);
  });

  test('default limit 10, most recent first, next_cursor walks every row once', async () => {
    const first = await api.get('/api/v2/products');
    expect(first.body.data).toHaveLength(10);
    expect(first.body.has_more).toBe(true);
    expect(first.body.data[0].id).toBe(ids[24]);
    const seen: number[] = [];
    let cursor: number | null = null;
    do {
      const page: ApiResponse<Page<{ id: number }, number>> = await api.get(
        `/api/v2/products?limit=7${cursor ? `&starting_after=${cursor}` : ''}`,
      );
      seen.push(...page.body.data.map((p) => p.id));
      cursor = page.body.next_cursor;
      expect(page.body.has_more).toBe(cursor !== null);
    } while (cursor !== null);
    expect(seen).toEqual([...ids].reverse());
  });

  test('stable under concurrent inserts: no row skipped or repeated', async () => {
    const page1 = await api.get('/api/v2/products?limit=5');
    await Promise.all([1, 2, 3].map((i) => api.post('/api/v2/products', product(`new ${i}`))));
    const page2 = await api.get(`/api/v2/products?limit=5&starting_after=${page1.body.next_cursor}`);
    expect(page2.body.data.map((p: { id: number }) => p.id)).toEqual([...ids].reverse().slice(5, 10));
  });

  test('bad list parameters answer 400 invalid_request naming the parameter', async () => {
    for (const [query, param] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['status=gone', 'status'],
      ['hsa_fsa_eligible=maybe', 'hsa_fsa_eligible'],
      ['created_after=yesterday', 'created_after'],
      ['starting_after=99999999', 'starting_after'],
      ['colour=red', 'colour'],
    ]) {
      const res = await api.get(`/api/v2/products?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    }
  });

  test('filters: hsa_fsa_eligible, merchant_product_id, created range', async () => {
    await api.post('/api/v2/products', {
      name: 'Lipstick',
      price: 1500,
      currency: 'USD',
      merchant_product_id: 'LIP-1',
    });
    const eligible = await api.get<Page<{ name: string; eligibility: { hsa_fsa_eligible: boolean } }, number>>(
      '/api/v2/products?hsa_fsa_eligible=true&limit=100',
    );
    expect(eligible.body.data.every((p) => p.eligibility.hsa_fsa_eligible)).toBe(true);
    const notEligible = await api.get<Page<{ name: string }, number>>('/api/v2/products?hsa_fsa_eligible=false');
    expect(notEligible.body.data.map((p) => p.name)).toEqual(['Lipstick']);
    const byRef = await api.get('/api/v2/products?merchant_product_id=LIP-1');
    expect(byRef.body.data).toHaveLength(1);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await api.get(`/api/v2/products?created_after=${encodeURIComponent(future)}`)).body.data).toEqual([]);
    expect(
      (await api.get(`/api/v2/products?created_before=${encodeURIComponent(future)}&limit=3`)).body.data,
    ).toHaveLength(3);
  });
});

describe('operations', () => {
  test('GET /healthz checks the database without a key', async () => {
    const res = await client(t.url).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'ok' });
  });

  test('GET /favicon.ico answers an icon without a key (browsers ask it of every hosted page and the console)', async () => {
    const res = await fetch(`${t.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toMatch(/^<svg /);
  });

  test('every response carries the request id', async () => {
    const res = await api.get('/api/v2/products/424242');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  test('GET /api/v2/openapi.json is OpenAPI 3.1 covering every REST route', async () => {
    const res = await client(t.url).get('/api/v2/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const operations = Object.entries(res.body.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    // The spec's and the contract's operations are all there (modules add more; the OpenAPI test checks every registered route).
    expect(operations).toEqual(
      expect.arrayContaining([
        'DELETE /api/v2/products/{id}',
        'GET /api/v2/products',
        'GET /api/v2/products/{id}',
        'POST /api/v2/products',
        'POST /api/v2/products/check-eligibility',
        'PUT /api/v2/products/{id}',
        'POST /api/v2/checkout',
        'GET /api/v2/checkout/{checkout_id}',
        'GET /api/v2/orders',
        'GET /api/v2/orders/{id}',
        'POST /api/v2/test-helpers/checkout/{checkout_id}/pay',
        'POST /api/v2/test-helpers/advance-clock',
        'POST /api/v2/refunds',
        'GET /api/v2/refunds',
        'GET /api/v2/refunds/{id}',
        'POST /v1/checkout/{checkout_id}/refund',
        'POST /api/v2/webhook-endpoints',
        'GET /api/v2/webhook-endpoints',
        'GET /api/v2/webhook-endpoints/{id}',
        'POST /api/v2/webhook-endpoints/{id}/rotate-secret',
        'POST /api/v2/webhook-endpoints/{id}/disable',
        'GET /api/v2/webhook-endpoints/{id}/deliveries',
        'POST /api/v2/webhook-deliveries/{id}/retry',
        'POST /api/v2/customers',
        'GET /api/v2/customers',
        'GET /api/v2/customers/{id}',
        'PUT /api/v2/customers/{id}',
        'POST /api/v2/customers/{id}/payment-methods',
        'GET /api/v2/customers/{id}/payment-methods',
        'GET /api/v2/customers/{id}/payment-methods/{payment_method_id}',
        'DELETE /api/v2/customers/{id}/payment-methods/{payment_method_id}',
        'POST /api/v2/payment-links',
        'GET /api/v2/payment-links',
        'GET /api/v2/payment-links/{id}',
        'POST /api/v2/payment-links/{id}/cancel',
        'POST /api/v2/test-helpers/payment-links/{id}/pay',
        'POST /api/v2/subscriptions',
        'GET /api/v2/subscriptions',
        'GET /api/v2/subscriptions/{id}',
        'PUT /api/v2/subscriptions/{id}',
        'POST /api/v2/subscriptions/{id}/cancel',
        'POST /api/v2/subscriptions/{id}/resume',
        'POST /api/v2/subscriptions/{id}/payment-method',
        'GET /api/v2/subscriptions/{id}/invoices/{invoiceId}',
        'GET /v2/subscriptions/{id}/invoices/{invoiceId}',
        'POST /api/v2/test-helpers/subscriptions/{id}/dispute',
      ]),
    );
    const ref: string = res.body.paths['/api/v2/products'].post.requestBody.content['application/json'].schema.$ref;
    const body = res.body.components.schemas[ref.split('/').pop()!];
    expect(body.required).toEqual(expect.arrayContaining(['name', 'price', 'currency']));
    expect(body.properties.name.maxLength).toBe(255);
    expect(body.properties.images.maxItems).toBe(10);
    expect(
      Object.keys(res.body.paths['/api/v2/products'].get.parameters.map((p: { name: string }) => p.name)),
    ).toHaveLength(7);
  });

  test('unknown routes answer 404 in the error shape', async () => {
    const res = await api.get('/api/v2/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('route_not_found');
  });
});

describe('rate limiting', () => {
  test('429 rate_limit_exceeded with Retry-After, per API key, shared by every API process', async () => {
    const env = { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' };
    const [one, two] = await Promise.all([startTestApp(env), startTestApp(env)]);
    try {
      const m = await t.merchant('Limited');
      const viaOne = client(one.url, m.test_api_key);
      const viaTwo = client(two.url, m.test_api_key);
      const statuses = [];
      for (const api of [viaOne, viaTwo, viaOne, viaTwo]) statuses.push((await api.get('/api/v2/products')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const res = await viaOne.get('/api/v2/products');
      expect(res.status).toBe(429);
      expect(res.body).toEqual({
        error: { code: 'rate_limit_exceeded', message: expect.stringContaining('per API key') },
      });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await viaTwo.graphql('{ products { nodes { id } } }')).status).toBe(429);
      // The live key has its own budget.
      expect((await client(one.url, m.live_api_key).get('/api/v2/products')).status).toBe(200);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  test('public routes without a limit of their own are never limited; API routes answer the rate-limit headers', async () => {
    const limited = await startTestApp({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000' });
    try {
      const m = await t.merchant('Public');
      const anonymous = client(limited.url);
      for (let i = 0; i < 4; i++) {
        for (const path of ['/healthz', '/api/v2/openapi.json']) {
          const res = await anonymous.get(path);
          expect([path, res.status]).toEqual([path, 200]);
          expect(res.headers.get('x-ratelimit-limit')).toBeNull();
        }
      }
      const api = client(limited.url, m.test_api_key);
      const first = await api.get('/api/v2/products');
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-limit')).toBe('2');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
      expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      expect((await api.get('/api/v2/products')).headers.get('x-ratelimit-remaining')).toBe('0');
      const refused = await api.get('/api/v2/products');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-request-id')).toMatch(/^req_/);
    } finally {
      await limited.close();
    }
  });

  test('processes take the shared budget in leases: never more than the limit in a window, far fewer statements than requests', async () => {
    const env = { RATE_LIMIT_MAX: '40', RATE_LIMIT_WINDOW_MS: '3600000' };
    const [one, two] = await Promise.all([startTestApp(env), startTestApp(env)]);
    try {
      const m = await t.merchant('Leases');
      const apis = [client(one.url, m.test_api_key), client(two.url, m.test_api_key)];
      const before = sqlStatementCount(); // both processes live in this test process
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) statuses.push((await apis[i % 2].get('/api/v2/products?limit=1')).status);
      const ok = statuses.filter((s) => s === 200).length;
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      expect(ok).toBeLessThanOrEqual(40);
      // Tokens leased but unspent are lost: at most a lease less one per process (a quarter of what was left, 4 here).
      expect(ok).toBeGreaterThanOrEqual(40 - 2 * 3);
      const leaseStatements = sqlStatementCount() - before - ok; // each 200 read one page of products
      expect(leaseStatements).toBeLessThan(25);
      const [row] = await t.orm.em
        .fork()
        .getConnection()
        .execute(
          `select c.count from rate_limit_counters c join api_keys k on k.id = c.key where k.merchant_id = ? and k.mode = 'test'`,
          [m.id],
        );
      expect(row.count).toBe(40); // spent to the last token, never beyond
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
