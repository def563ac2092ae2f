import { request as httpRequest } from 'node:http';
import { createHash } from 'node:crypto';
import { ERROR_STATUS } from '../../src/platform/errors.js';
import type { Json, Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * Client mistakes are 4xx answers in the spec's error shape with an `X-Request-Id`, never a 5xx:
 * one table of hostile or malformed inputs at every layer (router, body parser, path ids,
 * GraphQL request handling).
 */
let t: TestApp;
let key: string;
let api: Client;
let openapi: { paths: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  let keys;
  ({ t, keys, api } = await startWithMerchant('Hardening'));
  key = keys.test_api_key;
  openapi = (await api.get('/api/v2/openapi.json')).body;
});
afterAll(() => t.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the text when it is not JSON (as ApiResponse's body). */
  body: Json;
}

/** A request with the raw path as given (no URL normalisation, unlike fetch). */
function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Raw> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* keep text */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** The spec's error shape: REST `{ error: { code, message, param?, details? } }`, GraphQL `{ errors: [{ message, extensions.code }] }`. */
function expectErrorShape(res: Raw, graphql: boolean) {
  expect(res.headers['x-request-id']).toMatch(/^req_/);
  expect(res.status).toBeLessThan(500);
  if (!graphql || res.status !== 200) expect(res.status).toBeGreaterThanOrEqual(400);
  if (graphql) {
    expect(Array.isArray(res.body.errors)).toBe(true);
    for (const e of res.body.errors) {
      expect(typeof e.message).toBe('string');
      expect(Object.keys(ERROR_STATUS)).toContain(e.extensions.code);
    }
    return res.body.errors[0].extensions.code as string;
  }
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(Object.keys(ERROR_STATUS)).toContain(res.body.error.code);
  expect(typeof res.body.error.message).toBe('string');
  for (const k of Object.keys(res.body.error)) expect(['code', 'message', 'param', 'details']).toContain(k);
  return res.body.error.code as string;
}

const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
const gql = (body: unknown) => JSON.stringify(body);

const rest: [string, string, string, string | undefined, Record<string, string>, number, string][] = [
  ['10,000-deep JSON (product create)', 'POST', '/api/v2/products', deep(10_000), {}, 400, 'invalid_request'],
  ['10,000-deep JSON (checkout create)', 'POST', '/api/v2/checkout', deep(10_000), {}, 400, 'invalid_request'],
  ['10,000-deep JSON (refund create)', 'POST', '/api/v2/refunds', deepArray(10_000), {}, 400, 'invalid_request'],
  ['100,000-deep arrays', 'POST', '/api/v2/webhook-endpoints', deepArray(100_000), {}, 400, 'invalid_request'],
  ['malformed JSON', 'POST', '/api/v2/products', '{"name": ', {}, 400, 'invalid_request'],
  ['__proto__ in JSON', 'POST', '/api/v2/products', '{"__proto__": {"x": 1}}', {}, 400, 'invalid_request'],
  [
    'NUL inside a JSON string',
    'POST',
    '/api/v2/products',
    JSON.stringify({ name: 'a\u0000b', price: 100, currency: 'USD' }),
    {},
    400,
    'invalid_request',
  ],
  ['NUL in a query parameter', 'GET', '/api/v2/orders?starting_after=%00', undefined, {}, 400, 'invalid_request'],
  [
    'NUL in a query parameter (products)',
    'GET',
    '/api/v2/products?merchant_product_id=a%00b',
    undefined,
    {},
    400,
    'invalid_request',
  ],
  [
    'wrong content type',
    'POST',
    '/api/v2/products',
    'name=x',
    { 'content-type': 'application/x-www-form-urlencoded' },
    415,
    'unsupported_media_type',
  ],
  [
    'body too large',
    'POST',
    '/api/v2/products',
    JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    {},
    413,
    'payload_too_large',
  ],
  ['bad percent-encoding', 'GET', '/api/v2/orders/%E0%A4%A', undefined, {}, 400, 'invalid_request'],
  ['bad percent-encoding in the query', 'GET', '/api/v2/orders?limit=%E0%A4%A', undefined, {}, 400, 'invalid_request'],
  ['over-long id', 'GET', `/api/v2/orders/ord_${'a'.repeat(5000)}`, undefined, {}, 404, 'not_found'],
  ['over-long product id', 'GET', `/api/v2/products/${'9'.repeat(40)}`, undefined, {}, 404, 'not_found'],
  ['non-numeric product id', 'GET', '/api/v2/products/abc', undefined, {}, 404, 'not_found'],
  ['negative product id', 'GET', '/api/v2/products/-1', undefined, {}, 404, 'not_found'],
  ['unknown route', 'GET', '/api/v2/nothing-here', undefined, {}, 404, 'route_not_found'],
  ['wrong method on a known route', 'DELETE', '/api/v2/products', undefined, {}, 405, 'method_not_allowed'],
  ['wrong method on a route with an id', 'PATCH', '/api/v2/orders/ord_x', '{}', {}, 405, 'method_not_allowed'],
  ['GraphQL: nested JSON', 'POST', '/graphql', deep(10_000), {}, 400, 'invalid_request'],
  ['GraphQL: malformed JSON', 'POST', '/graphql', '{"query": ', {}, 400, 'invalid_request'],
];

describe('REST and router errors', () => {
  test.each(rest)('%s', async (_name, method, path, body, headers, status, code) => {
    const res = await raw(method, path, body, headers);
    expect(expectErrorShape(res, path.startsWith('/graphql'))).toBe(code);
    expect(res.status).toBe(status);
  });

  test('405 names the allowed methods', async () => {
    const res = await raw('DELETE', '/api/v2/products');
    expect(res.headers.allow).toBe('GET, POST');
  });

  test('a URL longer than the server accepts is answered in the error shape, with a request id', async () => {
    const res = await raw('GET', `/api/v2/orders?x=${'a'.repeat(70_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(res.body.error.code).toBe('headers_too_large');
  });

  test('a NUL byte in any path id of any documented route is 404 not_found or 400, never 5xx', async () => {
    let checked = 0;
    for (const [path, ops] of Object.entries(openapi.paths)) {
      if (!path.includes('{')) continue;
      for (const method of Object.keys(ops)) {
        for (const value of ['%00', 'a%00b', '%01', '%7F', '..%2F..%2F', "'%20or%201=1--"]) {
          const res = await raw(
            method.toUpperCase(),
            path.replace(/\{[^}]+\}/g, value),
            method === 'get' ? undefined : '{}',
          );
          const code = expectErrorShape(res, false);
          expect(['not_found', 'invalid_request', 'validation_error', 'bad_request']).toContain(code);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(60);
  });
});

const Q_ORDER = 'query Order($id: ID!) { order(id: $id) { id } }';
const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;
const forged = (raw: string) => Buffer.from(raw).toString('base64url');

const graphqlCases: [string, unknown, number, string][] = [
  ['required variable missing', { query: Q_ORDER, variables: {} }, 400, 'invalid_request'],
  ['variable of the wrong type', { query: Q_ORDER, variables: { id: { a: 1 } } }, 400, 'invalid_request'],
  ['variables not an object', { query: Q_ORDER, variables: 'nope' }, 400, 'bad_request'],
  ['unknown operationName', { query: Q_ORDER, operationName: 'Nope', variables: { id: 'x' } }, 400, 'invalid_request'],
  [
    'several operations, none named',
    { query: `${Q_ORDER} query B { __typename }`, variables: { id: 'x' } },
    400,
    'invalid_request',
  ],
  ['20,000 aliases', { query: aliases(20_000) }, 400, 'invalid_request'],
  ['syntax error', { query: '{ products { ' }, 400, 'invalid_request'],
  ['unknown field', { query: '{ nothing }' }, 400, 'invalid_request'],
  ['no query', { variables: {} }, 400, 'bad_request'],
  ['query not a string', { query: 42 }, 400, 'bad_request'],
  [
    'cursor with a non-numeric id',
    { query: `{ products(first: 2, after: "${forged('cursor:abc')}") { nodes { id } } }` },
    200,
    'invalid_request',
  ],
  [
    'cursor that is not base64',
    { query: '{ products(first: 2, after: "%%%") { nodes { id } } }' },
    200,
    'invalid_request',
  ],
  [
    'cursor naming a NUL id',
    { query: `{ orders(first: 2, after: "${forged('cursor:\u0000')}") { nodes { id } } }` },
    200,
    'invalid_request',
  ],
  ['NUL in a string argument', { query: '{ order(id: "\\u0000") { id } }' }, 400, 'invalid_request'],
  ['NUL in a variable', { query: Q_ORDER, variables: { id: 'ord_\u0000' } }, 400, 'invalid_request'],
  ['id that is not a global id', { query: '{ order(id: "!!") { id } }' }, 200, 'not_found'],
  [
    'bad persisted-query hash (unknown)',
    { extensions: { persistedQuery: { version: 1, sha256Hash: 'zz' } } },
    400,
    'persisted_query_not_found',
  ],
  [
    'persisted-query hash that does not match the query',
    {
      query: '{ __typename }',
      extensions: { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update('other').digest('hex') } },
    },
    400,
    'bad_request',
  ],
  [
    'persisted-query of an unknown version',
    { query: '{ __typename }', extensions: { persistedQuery: { version: 9, sha256Hash: 'x' } } },
    400,
    'bad_request',
  ],
  ['subscription over HTTP POST', { query: 'subscription { events { id } }' }, 400, 'invalid_request'],
  [
    'too complex',
    { query: '{ orders(first: 100) { nodes { refunds(first: 100) { nodes { id amount status createdAt } } } } }' },
    400,
    'query_too_complex',
  ],
];

// A request that executed (a resolver refused a cursor or an id) answers 200, its error in `errors`.
describe('GraphQL errors: 4xx unless executed, one lower-case vocabulary', () => {
  test.each(graphqlCases)('%s', async (_name, body, status, code) => {
    const res = await raw('POST', '/graphql', gql(body));
    expect(expectErrorShape(res, true)).toBe(code);
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.body)).not.toMatch(/"code":"[A-Z_]+"/);
  });

  test('GET without a preflight header or JSON content type is refused (CSRF prevention)', async () => {
    const res = await raw('GET', `/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(expectErrorShape(res, true)).toBe('bad_request');
    const ok = await raw('GET', `/graphql?query=${encodeURIComponent('{ __typename }')}`, undefined, {
      'apollo-require-preflight': 'true',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.__typename).toBe('Query');
  });

  test('a mutation over GET is a 405 in the same vocabulary', async () => {
    const res = await raw(
      'GET',
      `/graphql?query=${encodeURIComponent('mutation { archiveProduct(id: "x") { product { id } } }')}`,
      undefined,
      { 'apollo-require-preflight': 'true' },
    );
    expect(expectErrorShape(res, true)).toBe('method_not_allowed');
    expect(res.status).toBe(405);
  });

  test('partial data keeps 200; the error still uses the spec vocabulary', async () => {
    const res = await raw('POST', '/graphql', gql({ query: '{ __typename order(id: "!!") { id } }' }));
    expect(res.status).toBe(200); // order is nullable: its siblings' data survives
    expect(res.body.data).toEqual({ __typename: 'Query', order: null });
    const partial = await raw('POST', '/graphql', gql({ query: '{ __typename nodes(ids: ["!!"]) { id } }' }));
    expect(partial.status).toBe(200);
    expect(partial.body.data.__typename).toBe('Query');
  });
});
