import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { ERROR_STATUS } from '../../src/platform/errors.js';
import { USER_ERROR_CODES } from '../../src/platform/graphql/user-errors.js';
import { signedInConsole, type ConsoleClient } from '../helpers/console.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import type { JsonSchema, OpenApiDocument } from '../helpers/openapi.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * Property-based fuzzing of the whole HTTP surface, driven by the service's own descriptions: every
 * REST operation of `GET /api/v2/openapi.json` (so routes added later are fuzzed too) and every
 * query, mutation and subscription field of the GraphQL schema. At least 10,000 malformed or
 * half-valid requests: none may answer 5xx, every error is in the spec's shape with a
 * spec code, and every response carries `X-Request-Id`.
 */
const BATCH = 40;
const RUNS = 260; // BATCH × RUNS = 10,400 requests
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

let t: TestApp;
let key: string;
let owner: ConsoleClient;
let doc: OpenApiDocument;
let schema: GraphQLSchema;
const ids: string[] = [];
const globalIds: string[] = [];

beforeAll(async () => {
  let keys;
  let api: Client;
  ({ t, keys, api } = await startWithMerchant('Fuzz'));
  key = keys.test_api_key;
  owner = await signedInConsole(t, keys.id);
  doc = (await api.get<OpenApiDocument>('/api/v2/openapi.json')).body;
  schema = t.app.schema;
  // Real objects, so that fuzzed requests also reach the code behind a successful lookup.
  const product = (
    await api.post('/api/v2/products', {
      name: 'Digital thermometer',
      price: 2000,
      currency: 'USD',
      merchant_product_id: 'THERM',
    })
  ).body;
  const open = (await api.post('/api/v2/checkout', checkoutBody([['THERM', 'Thermometer', 2000, 1]]))).body.data;
  const paidSession = (await api.post('/api/v2/checkout', checkoutBody([['THERM', 'Thermometer', 2000, 2]]))).body.data;
  const order = (
    await api.post(`/api/v2/test-helpers/checkout/${paidSession.checkout_id}/pay`, { hsa_fsa_card: cards.hsa })
  ).body;
  const refund = (await api.post('/api/v2/refunds', { order_id: order.id, amount: 100, reason: 'other' })).body.data;
  const endpoint = (
    await api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['order.completed'] })
  ).body;
  const customer = (await api.post('/api/v2/customers', { email: 'fuzz@example.com', first_name: 'F', last_name: 'Z' }))
    .body;
  ids.push(
    String(product.id),
    open.checkout_id,
    paidSession.checkout_id,
    order.id,
    refund.id,
    endpoint.id,
    customer.id,
    order.line_items[0].id,
  );
  const nodes = await api.graphql<Record<string, { nodes: { id: string }[] }>>(
    `{ products(first: 1) { nodes { id } } orders(first: 1) { nodes { id } } refunds(first: 1) { nodes { id } } webhookEndpoints(first: 1) { nodes { id } } }`,
  );
  for (const conn of Object.values(nodes.body.data ?? {}))
    globalIds.push(...conn.nodes.map((n: { id: string }) => n.id));
});
afterAll(() => t.close());

/* ---------- values ---------- */

const hostileStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\u202e',
  '\ud800',
  'a\udc00',
  '💊'.repeat(50),
  '𝔘'.repeat(64),
  `${'x'.repeat(119)}💊`,
  'x'.repeat(300),
  'x'.repeat(5000),
  "' or 1=1 --",
  '"; drop table orders; --',
  '${7*7}',
  '{{7*7}}',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9'.repeat(30),
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'http://127.0.0.1/',
  'javascript:alert(1)',
  'USD',
  'usd',
  'ZZZ',
  '2026-02-30T00:00:00Z',
  '2026-11-23T10:00:00+14:00',
);
const hostileNumbers = fc.constantFrom(
  0,
  -1,
  1,
  0.5,
  -0.5,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 53,
  2 ** 53 + 2,
  1e20,
  1e308,
  -1e308,
  Number.MIN_VALUE,
);
/** Valid JSON that is not Unicode text: a UTF-16 surrogate without its partner, anywhere in a string. */
const loneSurrogates = fc
  .tuple(fc.string({ maxLength: 8 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 8 }))
  .map(([a, unit, b]) => `${a}${String.fromCharCode(unit)}${b}`);
/** Astral characters (a surrogate pair each) in runs that cross every length limit and cut point. */
const astral = fc
  .tuple(fc.constantFrom('𝔘', '💊', '🩹'), fc.integer({ min: 1, max: 300 }), fc.string({ maxLength: 2 }))
  .map(([c, n, prefix]) => prefix + c.repeat(n));
const anyString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  hostileStrings,
  loneSurrogates,
  astral,
);
/** Ids of real objects (created in beforeAll, hence read lazily). */
const knownId = () => fc.constant(null).chain(() => fc.constantFrom(...ids));
const junk = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: anyString },
  { weight: 2, arbitrary: hostileNumbers },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [[[]]], { __proto__: { admin: true } }) },
);

/** A value for a JSON schema of the OpenAPI document: mostly of the right shape, often not. */
function fromSchema(s: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 6) return junk;
  const ref = s.$ref;
  if (ref) return fc.constant(null).chain(() => fromSchema(doc.components.schemas[ref.split('/').pop()!], depth + 1));
  const typed = ((): fc.Arbitrary<unknown> => {
    if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf)!.map((x) => fromSchema(x, depth + 1)));
    if (s.enum) return fc.oneof(fc.constantFrom(...s.enum), anyString);
    if (s.const !== undefined) return fc.constant(s.const);
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case 'string':
        return fc.oneof(
          anyString,
          knownId(),
          s.format === 'uri' ? fc.webUrl() : fc.string({ minLength: 1, maxLength: 12 }),
          s.format === 'date-time' ? fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) : anyString,
        );
      case 'integer':
      case 'number':
        return fc.oneof(fc.integer({ min: -5, max: 5000 }), hostileNumbers);
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(fromSchema(s.items, depth + 1), { maxLength: 4 });
      case 'object': {
        const props = Object.fromEntries(
          Object.entries(s.properties ?? {}).map(([k, v]) => [k, fromSchema(v, depth + 1)]),
        );
        const record = fc.record(props, { requiredKeys: [] });
        return fc.oneof(
          { weight: 4, arbitrary: record },
          {
            weight: 1,
            arbitrary: fc
              .tuple(record, fc.dictionary(anyString, junk, { maxKeys: 2 }))
              .map(([a, b]) => ({ ...b, ...a })),
          },
        );
      }
      default:
        return junk;
    }
  })();
  return fc.oneof({ weight: 6, arbitrary: typed }, { weight: 1, arbitrary: junk });
}

/* ---------- requests ---------- */

interface FuzzRequest {
  op: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Sent as the signed-in console owner (session cookie and CSRF token) instead of the API key, or with no credentials at all. */
  as?: 'console' | 'anonymous';
}

const deepJson = fc.integer({ min: 30, max: 20_000 }).map((n) => '['.repeat(n) + ']'.repeat(n));
const rawBodies = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '{',
    '{"a":',
    '[1,2',
    'null',
    '"str"',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '\u0000',
    '{"a":"\\u0000"}',
    '{"a":1e999}',
  ),
  deepJson,
);

const headerSets = fc.oneof(
  { weight: 12, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { authorization: '' },
      { authorization: 'Bearer glm_test_nope' },
      { authorization: 'Basic Zm9vOmJhcg==' },
      { authorization: `Bearer ${'x'.repeat(3000)}` },
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.uuid(), fc.string({ maxLength: 300 }), fc.constant('k'.repeat(1000)))
      .map((k) => ({ 'idempotency-key': k.replace(/[^\x21-\x7e]/g, '') || 'k' })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'application/json; charset=latin1' },
      { 'content-type': 'multipart/form-data; boundary=x' },
    ),
  },
);

/** A path parameter: a real id, a random string (encoded), or a raw hostile segment. */
const pathValue = fc.oneof(
  { weight: 3, arbitrary: knownId() },
  { weight: 3, arbitrary: anyString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '')) || 'x') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '%',
      '%zz',
      '%E0%A4%A',
      '%C0%AF',
      '%00',
      '%2F',
      '..',
      '.',
      'a'.repeat(150),
      '1'.repeat(25),
      '-1',
      '0',
      '1.5',
      '1e3',
    ),
  },
);

function restOperations(): { op: string; arb: fc.Arbitrary<FuzzRequest> }[] {
  const out: { op: string; arb: fc.Arbitrary<FuzzRequest> }[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const name = `${method.toUpperCase()} ${template}`;
      const pathParams = (template.match(/\{[^}]+\}/g) ?? []).map((p) => p.slice(1, -1));
      const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const path = fc.tuple(...pathParams.map(() => pathValue)).map((values: string[]) => {
        let i = 0;
        return template.replace(/\{[^}]+\}/g, () => values[i++]);
      });
      const query = fc
        .tuple(
          fc.record(Object.fromEntries(queryParams.map((p) => [p.name, fromSchema(p.schema)])), { requiredKeys: [] }),
          fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 1 }),
          fc.constantFrom('', '', '', '&limit=%zz', '&starting_after=%00', '&limit=1&limit=2'),
        )
        .map(([known, extra, raw]) => {
          const qs = new URLSearchParams();
          for (const [k, v] of Object.entries({ ...extra, ...known }))
            qs.append(k, typeof v === 'string' ? v : JSON.stringify(v));
          const s = qs.toString() + raw;
          return s ? `?${s}` : '';
        });
      const body =
        method === 'get' || method === 'delete'
          ? fc.constant(undefined)
          : fc.oneof(
              {
                weight: 6,
                arbitrary: fromSchema(bodySchema ?? { type: 'object' }).map((v) => JSON.stringify(v) ?? 'null'),
              },
              { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
              { weight: 1, arbitrary: rawBodies },
            );
      out.push({
        op: name,
        arb: fc.record({ path, query, body, headers: headerSets }).map(({ path: p, query: q, body: b, headers }) => ({
          op: name,
          method: method.toUpperCase(),
          path: p + q,
          headers: { ...(b !== undefined && { 'content-type': 'application/json' }), ...headers },
          body: b,
        })),
      });
    }
  }
  return out;
}

/** A GraphQL variable value of `type`: mostly well-typed, often not, sometimes left out. */
function gqlValue(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 5) return junk;
  if (isNonNullType(type)) return gqlValue(type.ofType, depth);
  const wrong = fc.oneof(junk, fc.constant(null));
  if (isListType(type))
    return fc.oneof(
      { weight: 4, arbitrary: fc.array(gqlValue(type.ofType, depth + 1), { maxLength: 3 }) },
      { weight: 1, arbitrary: wrong },
    );
  const named = getNamedType(type);
  let typed: fc.Arbitrary<unknown>;
  if (isEnumType(named)) typed = fc.constantFrom(...named.getValues().map((v) => v.name));
  else if (isInputObjectType(named)) {
    const fields = Object.values(named.getFields());
    typed = fc.record(Object.fromEntries(fields.map((f) => [f.name, gqlValue(f.type, depth + 1)])), {
      requiredKeys: [],
    });
  } else if (isLeafType(named)) {
    switch (named.name) {
      case 'Int':
        typed = fc.oneof(fc.integer({ min: -5, max: 200 }), hostileNumbers);
        break;
      case 'Float':
        typed = fc.oneof(fc.double({ noNaN: true }), hostileNumbers);
        break;
      case 'Boolean':
        typed = fc.boolean();
        break;
      case 'ID':
        typed = fc.oneof(
          fc.constantFrom(...globalIds),
          fc.constantFrom(...ids),
          anyString,
          fc.constantFrom(...globalIds).map((g) => `${g}x`),
        );
        break;
      case 'DateTimeISO':
        typed = fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          anyString,
        );
        break;
      default:
        typed = fc.oneof(anyString, fc.jsonValue({ maxDepth: 2 }));
    }
  } else typed = junk;
  return fc.oneof({ weight: 6, arbitrary: typed }, { weight: 1, arbitrary: wrong });
}

function graphqlOperations(): { op: string; arb: fc.Arbitrary<FuzzRequest> }[] {
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const;
  const out: { op: string; arb: fc.Arbitrary<FuzzRequest> }[] = [];
  for (const [kind, root] of roots) {
    if (!root) continue;
    for (const field of Object.values<GraphQLField<unknown, unknown>>(root.getFields())) {
      const args: readonly GraphQLArgument[] = field.args;
      // A mutation's payload: its userErrors too, checked below.
      const selection = isLeafType(getNamedType(field.type))
        ? ''
        : kind === 'mutation'
          ? ' { __typename userErrors { field message code } }'
          : ' { __typename }';
      const defs = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const call = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
      const query = `${kind} Op${defs ? `(${defs})` : ''} { ${field.name}${call}${selection} }`;
      const variables = fc.record(Object.fromEntries(args.map((a) => [a.name, gqlValue(a.type)])), {
        requiredKeys: [],
      });
      const name = `graphql ${kind} ${field.name}`;
      const body = fc.oneof(
        { weight: 8, arbitrary: variables.map((v) => ({ query, variables: v, operationName: 'Op' })) },
        {
          weight: 1,
          arbitrary: fc.record({
            query: fc.constant(query),
            variables: junk,
            operationName: fc.oneof(fc.constant('Op'), anyString, junk),
          }),
        },
        {
          weight: 1,
          arbitrary: fc.record({
            query: fc.oneof(anyString, fc.constant(query.slice(0, query.length / 2)), fc.constant(`${query} ${query}`)),
            extensions: fc.oneof(
              fc.constant(undefined),
              fc.record({
                persistedQuery: fc.record({
                  version: fc.oneof(fc.constant(1), junk),
                  sha256Hash: fc.oneof(anyString, fc.stringMatching(/^[0-9a-f]{64}$/)),
                }),
              }),
            ),
          }),
        },
      );
      out.push({
        op: name,
        arb: fc.tuple(body, headerSets).map(([b, headers]) => ({
          op: name,
          method: 'POST',
          path: '/graphql',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(b),
        })),
      });
    }
  }
  const rawGraphql = fc.oneof(
    rawBodies.map((body) => ({ body, method: 'POST', path: '/graphql' })),
    fc.integer({ min: 1, max: 30_000 }).map((n) => ({
      method: 'POST',
      path: '/graphql',
      body: JSON.stringify({
        query: `{ ${Array.from({ length: Math.min(n, 25_000) }, (_, i) => `a${i}: __typename`).join(' ')} }`,
      }),
    })),
    fc.integer({ min: 10, max: 3_000 }).map((n) => ({
      method: 'POST',
      path: '/graphql',
      body: JSON.stringify({ query: `{ ${'products { nodes { '.repeat(n)}id${' } }'.repeat(n)} }` }),
    })),
    anyString.map((q) => ({
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent(q.replace(/[\ud800-\udfff]/g, ''))}`,
      body: undefined,
    })),
  );
  out.push({
    op: 'graphql raw',
    arb: rawGraphql.map((r) => ({
      op: 'graphql raw',
      ...r,
      headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true' },
    })),
  });
  return out;
}

/* ---------- the property ---------- */

const CODES = new Set<unknown>(Object.keys(ERROR_STATUS));

const timing = new Map<string, number>();

const USER_CODES = new Set<unknown>(USER_ERROR_CODES.map((c) => c.toUpperCase()));

/** A response body as the checks read it: whatever JSON came back, if any; no field is trusted before it is checked. */
type Answer =
  | {
      error?: { code?: unknown; message?: unknown };
      errors?: { message?: unknown; path?: unknown; extensions?: { code?: unknown } }[];
      data?: Record<string, { userErrors?: { field?: unknown; message?: unknown; code?: unknown }[] } | null> | null;
    }
  | undefined;

async function send(r: FuzzRequest): Promise<string | null> {
  const started = performance.now();
  const auth: Record<string, string> =
    r.as === 'console'
      ? { cookie: owner.cookie, 'x-csrf-token': owner.csrf }
      : r.as === 'anonymous'
        ? {}
        : { authorization: `Bearer ${key}` };
  const res = await fetch(`${t.url}${r.path}`, { method: r.method, headers: { ...auth, ...r.headers }, body: r.body });
  const text = await res.text();
  timing.set(r.op, (timing.get(r.op) ?? 0) + performance.now() - started);
  let body: Answer;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const problem = (() => {
    if (!res.headers.get('x-request-id')) return 'no X-Request-Id';
    if (res.status >= 500) return `status ${res.status}`;
    const graphql = r.path.startsWith('/graphql');
    if (graphql) {
      if (res.status >= 400 && !Array.isArray(body?.errors)) return 'GraphQL error without errors[]';
      for (const e of body?.errors ?? []) {
        if (typeof e.message !== 'string' || !CODES.has(e.extensions?.code))
          return `GraphQL error code ${JSON.stringify(e.extensions?.code)}`;
        if (e.extensions!.code === 'internal_error') return 'GraphQL internal_error';
        // A mutation that ran answers the caller's mistakes as userErrors: one here means its payload's enum lacks the code.
        if (
          r.op.includes('graphql mutation') &&
          e.path !== undefined &&
          USER_ERROR_CODES.some((c) => c === e.extensions!.code)
        )
          return `user error ${String(e.extensions!.code)} at the top level`;
      }
      for (const payload of Object.values(body?.data ?? {})) {
        for (const u of payload?.userErrors ?? []) {
          const field = u.field === null || (Array.isArray(u.field) && u.field.every((f) => typeof f === 'string'));
          if (typeof u.message !== 'string' || !USER_CODES.has(u.code) || !field)
            return `userError not in shape ${JSON.stringify(u)}`;
        }
      }
      return null;
    }
    if (res.status >= 400) {
      const e = body?.error;
      if (!e || typeof e.message !== 'string' || !CODES.has(e.code)) return 'error body not in the spec shape';
      if (
        Object.keys(body!).length !== 1 ||
        Object.keys(e).some((k) => !['code', 'message', 'param', 'details'].includes(k))
      )
        return 'extra fields in the error body';
    }
    return null;
  })();
  return (
    problem &&
    `${problem}: ${r.method} ${r.path.slice(0, 300)} body=${(r.body ?? '').slice(0, 300)} headers=${JSON.stringify(r.headers).slice(0, 200)} → ${res.status} ${text.slice(0, 400)}`
  );
}

/** The console's own operations: the GraphQL fields only a signed-in member reaches (sent with the owner's session), and the session routes (sent without credentials, as a stranger would). */
const CONSOLE_FIELDS = new Set([
  'apiKeys',
  'createApiKey',
  'rollApiKey',
  'revokeApiKey',
  'teamMembers',
  'inviteTeamMember',
  'changeTeamMemberRole',
  'removeTeamMember',
  'auditLog',
]);
const CONSOLE_ROUTES = [
  '/console/sign-in',
  '/console/sign-in/two-factor',
  '/console/password-setup',
  '/console/mode',
  '/console/two-factor/enroll',
  '/console/two-factor/confirm',
  '/console/session',
];
function consoleOperations(
  graphql: { op: string; arb: fc.Arbitrary<FuzzRequest> }[],
): { op: string; arb: fc.Arbitrary<FuzzRequest> }[] {
  const fields = graphql
    .filter((o) => CONSOLE_FIELDS.has(o.op.split(' ').pop()!))
    .map((o) => ({
      op: `console ${o.op}`,
      arb: o.arb.map((r) => ({ ...r, op: `console ${r.op}`, as: 'console' as const })),
    }));
  const body = fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          email: fc.oneof(anyString, fc.emailAddress()),
          password: anyString,
          code: anyString,
          token: anyString,
          livemode: junk,
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    anyString,
  );
  const routes = CONSOLE_ROUTES.map((path) => ({
    op: `console ${path}`,
    arb: body.map((b): FuzzRequest => ({
      op: `console ${path}`,
      method: path === '/console/session' ? 'GET' : 'POST',
      path,
      headers: path === '/console/session' ? {} : { 'content-type': 'application/json' },
      body: path === '/console/session' ? undefined : b,
      as: 'anonymous',
    })),
  }));
  return [...fields, ...routes];
}

test(`${BATCH * RUNS} malformed requests over every REST route and GraphQL operation: no 5xx, spec error shape, request ids (seed ${SEED})`, async () => {
  const rest = restOperations();
  const graphql = graphqlOperations();
  expect(rest.length).toBeGreaterThan(25);
  expect(graphql.length).toBeGreaterThan(20);
  const all = [...rest, ...graphql, ...consoleOperations(graphql)];
  const hits = new Map<string, number>();
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof(...all.map((o) => o.arb)), { minLength: BATCH, maxLength: BATCH }),
      async (batch) => {
        const problems = (await Promise.all(batch.map(send))).filter((p): p is string => p !== null);
        sent += batch.length;
        for (const r of batch) hits.set(r.op, (hits.get(r.op) ?? 0) + 1);
        if (problems.length) throw new Error(problems.join('\n'));
      },
    ),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  if (process.env.FUZZ_STATS)
    console.log(
      [...timing]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([op, ms]) => `${op}: ${Math.round(ms)} ms / ${hits.get(op)}`)
        .join('\n'),
    );
  expect(sent).toBeGreaterThanOrEqual(10_000);
  // Every REST operation and every GraphQL field was exercised.
  expect(all.filter((o) => (hits.get(o.op) ?? 0) < 10).map((o) => o.op)).toEqual([]);
}, 240_000);
