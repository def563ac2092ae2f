import { checkoutBody } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;
let key: string;

beforeAll(async () => {
  let keys;
  ({ t, keys, api } = await startWithMerchant());
  key = keys.test_api_key;
});
afterAll(() => t.close());

const raw = async (method: string, path: string, body: unknown, idempotencyKey: string) => {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), text: await res.text() };
};

describe('Idempotency-Key', () => {
  test('a replay returns the first response byte for byte', async () => {
    const k = crypto.randomUUID();
    const body = {
      name: 'Digital thermometer',
      price: 1999,
      currency: 'USD',
      metadata: { zeta: 1, alpha: { b: 2, a: 1 } },
    };
    const first = await raw('POST', '/api/v2/products', body, k);
    const again = await raw('POST', '/api/v2/products', body, k);
    expect(first.status).toBe(201);
    expect(again).toEqual({ status: 201, replayed: 'true', text: first.text });
    expect(first.text.indexOf('"zeta"')).toBeLessThan(first.text.indexOf('"alpha"')); // key order as sent, not as jsonb stores it
  });

  test('the query string is part of the request: the same key with another query is refused', async () => {
    const k = crypto.randomUUID();
    const body = { name: 'Bandages', price: 499, currency: 'USD' };
    expect((await raw('POST', '/api/v2/products?source=a', body, k)).status).toBe(201);
    const other = await raw('POST', '/api/v2/products?source=b', body, k);
    expect(other.status).toBe(400);
    expect(JSON.parse(other.text).error.code).toBe('idempotency_key_reused');
  });

  test('a failed REST call stores nothing: the key works for the corrected request', async () => {
    const k = crypto.randomUUID();
    expect((await raw('POST', '/api/v2/products', { name: 'Gauze', price: -5, currency: 'USD' }, k)).status).toBe(400);
    const fixed = await raw('POST', '/api/v2/products', { name: 'Gauze', price: 500, currency: 'USD' }, k);
    expect(fixed.status).toBe(201);
    expect(fixed.replayed).toBeNull();
  });

  test('a GraphQL mutation answered with userErrors stores nothing and keeps nothing, like REST', async () => {
    const k = crypto.randomUUID();
    const mutation =
      'mutation($input: CreateProductInput!) { createProduct(input: $input) { product { id name } userErrors { code } } }';
    const failed = await api.graphql(
      mutation,
      { input: { name: 'Ice pack', price: 0, currency: 'USD' } },
      { 'idempotency-key': k },
    );
    expect(failed.body.data.createProduct).toEqual({ product: null, userErrors: [{ code: 'INVALID_PRICE' }] });
    const [stored] = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from idempotency_keys where key = ?`, [k]);
    expect(stored.n).toBe(0);
    const fixed = await api.graphql(
      mutation,
      { input: { name: 'Ice pack', price: 899, currency: 'USD' } },
      { 'idempotency-key': k },
    );
    expect(fixed.body.errors).toBeUndefined();
    expect(fixed.body.data.createProduct.product.name).toBe('Ice pack');
    const replay = await api.graphql(
      mutation,
      { input: { name: 'Ice pack', price: 899, currency: 'USD' } },
      { 'idempotency-key': k },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(fixed.body);
  });
});

describe('amount bounds', () => {
  test('a line of 99,999,999 × 1000 is refused before any money moves, naming the field', async () => {
    const res = await api.post('/api/v2/checkout', checkoutBody([['X', 'Gold', 99_999_999, 1000]]));
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'line_items.0.quantity', message: expect.stringContaining('99999999') }),
      ]),
    );
  });

  test('a checkout whose total exceeds 99,999,999 is refused; exactly the maximum is accepted', async () => {
    const over = await api.post('/api/v2/checkout', checkoutBody([['X', 'Gold', 99_999_999, 1]], { shipping: 1 }));
    expect(over.status).toBe(422);
    expect(over.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'line_items' })]));
    const max = await api.post('/api/v2/checkout', checkoutBody([['X', 'Gold', 49_999_999, 2]], { shipping: 1 }));
    expect(max.status).toBe(201);
    expect(max.body.data.amounts.total).toBe(99_999_999);
  });

  test('a refund above the bound is a validation error', async () => {
    const res = await api.post('/api/v2/refunds', { order_id: 'ord_x', amount: 100_000_000, reason: 'other' });
    expect(res.status).toBe(422);
  });
});
