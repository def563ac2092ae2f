import { randomUUID } from 'node:crypto';
import { client, type Client } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Query cost as Shopify reports it: `extensions.cost` on every response, and a leaky bucket of
 * cost points per API key, shared by every API process through PostgreSQL. A small bucket (300
 * points, 100 a second) so that a few requests drain it.
 */
const BUCKET = { GRAPHQL_COST_BUCKET: '300', GRAPHQL_COST_RESTORE_RATE: '100' };
let t: TestApp;
let api: Client;
beforeAll(async () => {
  t = await startTestApp(BUCKET);
  await t.reset();
  ({ api } = await newMerchant(t, 'Cost'));
  for (let i = 0; i < 5; i++)
    expect(
      (await api.post('/api/v2/products', { name: `Gauze pad ${i}`, price: 500 + i, currency: 'USD' })).status,
    ).toBe(201);
});
afterAll(() => t.close());

/** An operation whose actual cost is its estimate: `n` aliases of `__typename`, 1 point each. */
const costing = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('every response carries extensions.cost: queries, mutations, errors; a connection is priced by its page, then by what it returned', async () => {
  const twenty = await api.graphql('{ products(first: 20) { nodes { id name } } }');
  expect(twenty.status).toBe(200);
  expect(twenty.body.data.products.nodes).toHaveLength(5);
  // Asked: 1 + 20 × (nodes + id + name). Returned 5: 1 + 5 × nodes + 5 × (id + name).
  expect(twenty.body.extensions!.cost).toEqual({
    requestedQueryCost: 61,
    actualQueryCost: 16,
    throttleStatus: { maximumAvailable: 300, currentlyAvailable: expect.any(Number), restoreRate: 100 },
  });
  const one = (await api.graphql('{ products(first: 1) { nodes { id name } } }')).body.extensions!.cost;
  expect(one.requestedQueryCost).toBe(4);
  expect(one.actualQueryCost).toBe(4); // a full page costs its estimate
  expect(one.throttleStatus).toEqual({
    maximumAvailable: 300,
    currentlyAvailable: expect.any(Number),
    restoreRate: 100,
  });

  const created = await api.graphql(
    'mutation { createProduct(input: { name: "Thermometer", price: 1999, currency: "USD" }) { product { id name } } }',
  );
  expect(created.body.errors).toBeUndefined();
  expect(created.body.extensions!.cost).toMatchObject({ requestedQueryCost: 4, actualQueryCost: 4 });

  // Executed with an error: the null field counts 1, its selection nothing.
  const missing = await api.graphql('{ order(id: "bm9wZQ") { id status } }');
  expect(missing.status).toBe(200);
  expect(missing.body.extensions!.cost).toMatchObject({ requestedQueryCost: 3, actualQueryCost: 1 });

  // Never executed: nothing is spent (actual null); a document that does not parse has no price.
  const unparsed = await api.graphql('{ order(');
  expect(unparsed.status).toBe(400);
  expect(unparsed.body.extensions!.cost).toEqual({
    requestedQueryCost: null,
    actualQueryCost: null,
    throttleStatus: expect.objectContaining({ maximumAvailable: 300 }),
  });
  // Above the bucket: it could never run, so it is too complex (the single-operation limit is the bucket's size when smaller).
  const heavy = await api.graphql('{ products(first: 100) { nodes { id name price } } }');
  expect(heavy.status).toBe(400);
  expect(heavy.body.errors![0].extensions).toMatchObject({
    code: 'query_too_complex',
    details: { complexity: 401, maximum: 300 },
  });
  expect(heavy.body.extensions!.cost).toMatchObject({ requestedQueryCost: 401, actualQueryCost: null });
});

test('the bucket drains, refuses with throttled and the wait, and restores; other keys keep their own bucket', async () => {
  const { api: mine, keys } = await newMerchant(t, 'Drained');
  const first = await mine.graphql(costing(140));
  expect(first.status).toBe(200);
  expect(first.body.extensions!.cost).toMatchObject({ requestedQueryCost: 140, actualQueryCost: 140 });
  // 300 - 140, plus what was restored meanwhile (100 a second: a slow machine may take a while).
  expect(first.body.extensions!.cost.throttleStatus.currentlyAvailable).toBeGreaterThanOrEqual(160);
  expect(first.body.extensions!.cost.throttleStatus.currentlyAvailable).toBeLessThan(260);
  expect((await mine.graphql(costing(140))).status).toBe(200);

  const refused = await mine.graphql(costing(140));
  expect(refused.status).toBe(429);
  expect(refused.body.data).toBeUndefined();
  const error = refused.body.errors![0];
  expect(error.extensions).toMatchObject({
    code: 'throttled',
    retryAfterSeconds: expect.any(Number),
    details: { requestedQueryCost: 140, restoreRate: 100 },
  });
  const wait = error.extensions.retryAfterSeconds!;
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(2); // at most 140 points short, at 100 a second
  expect(refused.headers.get('retry-after')).toBe(String(wait));
  expect(refused.body.extensions!.cost).toMatchObject({ requestedQueryCost: 140, actualQueryCost: null });
  expect(refused.body.extensions!.cost.throttleStatus.currentlyAvailable).toBeLessThan(140);

  // Another merchant's key, and this merchant's live key, each have a bucket of their own.
  const other = await newMerchant(t, 'Untouched');
  for (const c of [other.api, client(t.url, keys.live_api_key)]) {
    const res = await c.graphql(costing(140));
    expect(res.status).toBe(200);
    expect(res.body.extensions!.cost.throttleStatus.currentlyAvailable).toBeGreaterThanOrEqual(160);
  }

  // Points come back at the restore rate: after the wait it names, the same operation runs.
  await sleep(wait * 1000 + 50);
  const again = await mine.graphql(costing(140));
  expect(again.status).toBe(200);
  expect(again.body.extensions!.cost.actualQueryCost).toBe(140);
});

test('the bucket is shared by every API process (PostgreSQL), not kept per process', async () => {
  const second = await startTestApp(BUCKET);
  try {
    const { keys, api: viaFirst } = await newMerchant(t, 'Two processes');
    const viaSecond = client(second.url, keys.test_api_key);
    expect((await viaFirst.graphql(costing(140))).status).toBe(200);
    expect((await viaFirst.graphql(costing(140))).status).toBe(200);
    // The second process has never seen this key: its first lease finds the bucket drained.
    const refused = await viaSecond.graphql(costing(140));
    expect(refused.status).toBe(429);
    expect(refused.body.errors![0].extensions.code).toBe('throttled');
    expect(refused.body.extensions!.cost.throttleStatus.currentlyAvailable).toBeLessThan(140);
  } finally {
    await second.close();
  }
});

test('an idempotent mutation (inside its transaction) is costed without a second connection, and replays its cost', async () => {
  const { api: mine } = await newMerchant(t, 'Idempotent');
  const headers = { 'idempotency-key': randomUUID() };
  const mutation =
    'mutation { createProduct(input: { name: "Bandages", price: 599, currency: "USD" }) { product { id } } }';
  const first = await mine.graphql(mutation, undefined, headers);
  expect(first.status).toBe(200);
  expect(first.body.errors).toBeUndefined();
  expect(first.body.extensions!.cost).toMatchObject({ requestedQueryCost: 3, actualQueryCost: 3 });
  const replay = await mine.graphql(mutation, undefined, headers);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(first.body);
  // The key's next operation settles the mutation's points with the shared bucket (a statement outside the transaction).
  const next = await mine.graphql('{ products(first: 1) { nodes { id } } }');
  expect(next.status).toBe(200);
  expect(next.body.extensions!.cost).toMatchObject({ requestedQueryCost: 3, actualQueryCost: 3 });
});
