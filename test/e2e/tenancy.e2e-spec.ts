import { toGlobalId } from '../../src/platform/relay/global-id.js';
import { consoleClient, teamMember } from '../helpers/console.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { client, type ApiResponse, type GraphQLErrorBody } from '../helpers/http.js';
import type { JsonSchema, OpenApiDocument } from '../helpers/openapi.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Tenancy: merchant A owns an object of every kind; every REST route with an id in its
 * path (enumerated from the OpenAPI document, so routes added later are covered) and every GraphQL
 * field taking an id (introspected) is tried on A's ids with merchant B's test key and with A's
 * live key. Zero leaks: each answer is indistinguishable from the answer for an id that does not
 * exist (same status and error code, same data), and none carries A's data. Zero changes: A's
 * rows and A's reads are the same before and after.
 */

let t: TestApp;
let a: Awaited<ReturnType<TestApp['merchant']>>;
let b: Awaited<ReturnType<TestApp['merchant']>>;
const CANARY = 'canarya7x';

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  a = await t.merchant('Merchant A');
  b = await t.merchant('Merchant B');
});
afterAll(() => t.close());

const sql = <T = Record<string, unknown>>(q: string, params: unknown[] = []) =>
  t.orm.em.fork().getConnection().execute<T[]>(q, params);

/** A's objects of every kind, made through the API as a merchant would (a kind a later module adds is found in the database). */
async function makeObjectsOfA(): Promise<void> {
  const api = client(t.url, a.test_api_key);
  const must = (res: ApiResponse, what: string) => {
    if (res.status >= 300) throw new Error(`could not create ${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  must(
    await api.post('/api/v2/products', {
      name: `${CANARY} thermometer`,
      price: 1999,
      currency: 'USD',
      merchant_product_id: 'CANARY',
    }),
    'product',
  );
  must(
    await api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['*'], description: CANARY }),
    'webhook endpoint',
  );
  const session = must(
    await api.post(
      '/api/v2/checkout',
      checkoutBody([['CANARY', `${CANARY} thermometer`, 1999, 2]], { metadata: { note: CANARY } }),
    ),
    'checkout',
  ).data;
  const order = must(
    await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, { card: cards.visa }),
    'order',
  );
  must(await api.post('/api/v2/refunds', { order_id: order.id, amount: 100, reason: 'other' }), 'refund');
  must(
    await api.post('/api/v2/checkout', checkoutBody([['CANARY', `${CANARY} thermometer`, 1999, 1]])),
    'open checkout',
  );
  const customer = must(
    await api.post('/api/v2/customers', { email: `${CANARY}@example.com`, first_name: 'Canary', last_name: CANARY }),
    'customer',
  );
  const pm = must(
    await api.post(`/api/v2/customers/${customer.id ?? customer.data?.id}/payment-methods`, { card: cards.visa }),
    'payment method',
  );
  const sub = await api.post('/api/v2/subscriptions', {
    customer_id: customer.id ?? customer.data?.id,
    merchant_product_id: 'CANARY',
    amount_cents: 999,
    currency: 'USD',
    interval: 'monthly',
    payment_method_id: pm.id ?? pm.data?.id,
  });
  if (sub.status >= 300) console.log(`tenancy: no subscription fixture (${sub.status} ${JSON.stringify(sub.body)})`);
  await t.app.http.jobs.runDue(new Date()); // events become deliveries (to a closed port: attempts fail)
}

/** Tables of merchant-scoped objects (they have id, merchant_id and livemode). */
async function scopedTables(): Promise<string[]> {
  const rows = await sql<{ table_name: string }>(
    `select table_name from information_schema.columns where table_schema = 'public' and column_name in ('id', 'merchant_id', 'livemode')
     group by table_name having count(*) = 3 order by table_name`,
  );
  return rows.map((r) => r.table_name);
}

/** Every test-mode row of A, table by table, as JSON. */
async function snapshotOfA(tables: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of tables)
    out[table] = JSON.stringify(
      await sql(`select * from "${table}" where merchant_id = ? and livemode = false order by id`, [a.id]),
    );
  return out;
}

/** The table a path segment or GraphQL name denotes (`checkout` → checkout_sessions, `invoices` → subscription_invoices). */
function tableFor(word: string, tables: string[]): string | undefined {
  const w = word
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase()
    .replace(/_id$/, '');
  const plural = w.endsWith('s') ? w : `${w}s`;
  return (
    tables.find((tb) => tb === w || tb === plural) ??
    tables.find((tb) => tb.startsWith(`${w}_`) && !tables.some((o) => o === `${w}s`)) ??
    tables.find((tb) => tb.endsWith(`_${plural}`)) ??
    tables.find((tb) => w.endsWith(`_${tb.replace(/s$/, '')}`) || w.endsWith(`_${tb}`))
  );
}

/** An id of the same shape that belongs to nobody. */
function missingLike(id: string): string {
  if (/^\d+$/.test(id)) return String(2_000_000_000 + (Number(id) % 1000));
  return id.replace(/[0-9A-Za-z]+$/, (m) => 'Z'.repeat(m.length));
}

/** What may differ between two answers without leaking: nothing but the ids echoed back. */
function shape(res: ApiResponse, ids: [string, string][]): string {
  let text = JSON.stringify({
    status: res.status,
    body: res.body?.error ? { code: res.body.error.code, param: res.body.error.param } : res.body,
  });
  for (const [id, fake] of ids) text = text.split(id).join('<id>').split(fake).join('<id>');
  return text.replace(/req_[0-9A-Za-z]+/g, '<req>');
}

// --- minimal valid request bodies from the OpenAPI schemas, so a route gets past validation to its lookup
// --- GraphQL introspection, as the query of the test selects it
/** A type reference: a LIST or NON_NULL wrapper (name null, ofType set) or a named type (ofType null). */
interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface InputValue {
  name: string;
  defaultValue: string | null;
  type: TypeRef;
}
/** A named type: fields on objects and interfaces, inputFields on input objects, enumValues on enums (null elsewhere). */
interface IntrospectedType {
  name: string;
  kind: string;
  enumValues: { name: string }[] | null;
  interfaces: { name: string }[] | null;
  fields: { name: string; args: InputValue[]; type: TypeRef }[] | null;
  inputFields: InputValue[] | null;
}
interface Introspection {
  __schema: { queryType: { name: string } | null; mutationType: { name: string } | null; types: IntrospectedType[] };
}

function example(schema: JsonSchema | undefined, doc: OpenApiDocument, name = '', depth = 0): unknown {
  if (!schema || depth > 6) return undefined;
  if (schema.$ref) return example(doc.components.schemas[schema.$ref.split('/').pop()!], doc, name, depth + 1);
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const)
    if (schema[k]) return example(schema[k].find((s) => s.type !== 'null') ?? schema[k][0], doc, name, depth + 1);
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const cardish: Record<string, unknown> = {
    number: cards.visa.number,
    cvc: '123',
    exp_month: 12,
    exp_year: 2030,
    email: 'b@example.com',
    currency: 'USD',
  };
  if (name in cardish) return cardish[name];
  switch (Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = example(schema.properties?.[key], doc, key, depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        example(schema.items, doc, name, depth + 1),
      );
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return false;
    case 'string':
      return schema.format === 'uri'
        ? 'https://example.com/x'
        : schema.format === 'email'
          ? 'b@example.com'
          : schema.format === 'date-time'
            ? new Date().toISOString()
            : 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return undefined;
  }
}

/**
 * What the probes need, found once (read-only): A's objects and their ids per table, the REST
 * operations with ids in their paths, A's reads of them, and the GraphQL fields taking ids.
 */
async function discover() {
  await makeObjectsOfA();

  const tables = await scopedTables();
  const idOf = new Map<string, string>();
  for (const table of tables) {
    const [row] = await sql<{ id: string | number }>(
      `select id from "${table}" where merchant_id = ? and livemode = false order by id limit 1`,
      [a.id],
    );
    if (row) idOf.set(table, String(row.id));
  }
  const allIdsOfA = [...idOf.values()];
  const aTest = client(t.url, a.test_api_key);
  const intruders = {
    'merchant B test key': client(t.url, b.test_api_key),
    'merchant A live key': client(t.url, a.live_api_key),
  };

  // REST: every operation with a path parameter, from the OpenAPI document.
  const doc = (await aTest.get<OpenApiDocument>('/api/v2/openapi.json')).body;
  const operations: {
    method: string;
    path: string;
    url: string;
    ids: [string, string][];
    fakeUrl: string;
    body: unknown;
  }[] = [];
  const skipped: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    if (!params.length) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m])) {
      let url = path;
      let fakeUrl = path;
      const ids: [string, string][] = [];
      let missing = '';
      for (const param of params) {
        const segment = path.split('/')[path.split('/').indexOf(`{${param}}`) - 1];
        const table = tableFor(param === 'id' ? segment : param, tables) ?? tableFor(segment, tables);
        const id = table && idOf.get(table);
        if (!id) {
          missing = `${param} (${table ?? 'no table'})`;
          break;
        }
        ids.push([id, missingLike(id)]);
        url = url.replace(`{${param}}`, encodeURIComponent(id));
        fakeUrl = fakeUrl.replace(`{${param}}`, encodeURIComponent(missingLike(id)));
      }
      if (missing) {
        skipped.push(`${method.toUpperCase()} ${path}: no fixture for ${missing}`);
        continue;
      }
      const schema = item[method].requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        url,
        ids,
        fakeUrl,
        body: schema ? example(schema, doc) : undefined,
      });
    }
  }
  const getRoutes = operations.filter((o) => o.method === 'GET');
  // (request ids and the expiry of signed receipt links differ from read to read)
  const readsOfA = async () =>
    Promise.all(
      getRoutes.map(async (o) =>
        JSON.stringify((await aTest.get(o.url)).body)
          .replace(/req_[0-9A-Za-z]+/g, '<req>')
          .replace(/expires=\d+&signature=[0-9a-f]+/g, '<signed>'),
      ),
    );

  // GraphQL: every query and mutation field with an argument (or input field) named id / *Id.
  const schema = (
    await aTest.graphql<Introspection>(`{ __schema { queryType { name } mutationType { name } types { name kind enumValues { name } interfaces { name }
      fields { name args { name defaultValue type { ...T } } type { ...T } }
      inputFields { name defaultValue type { ...T } } } } }
    fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`)
  ).body.data.__schema;
  const types = new Map<string | undefined, IntrospectedType>(schema.types.map((ty) => [ty.name, ty])); // (undefined: a root the schema lacks)
  const named = (ty: TypeRef): TypeRef => (ty.ofType ? named(ty.ofType) : ty);
  const typeString = (ty: TypeRef): string =>
    ty.kind === 'NON_NULL'
      ? `${typeString(ty.ofType!)}!`
      : ty.kind === 'LIST'
        ? `[${typeString(ty.ofType!)}]`
        : ty.name!;
  /** The input fields of an INPUT_OBJECT type reference. */
  const inputFieldsOf = (ty: TypeRef) => types.get(named(ty).name!)!.inputFields!;
  const idish = (name: string) => name === 'id' || /Id$/.test(name) || /_id$/.test(name);
  const nodeTypes = schema.types.filter((ty) => ty.interfaces?.some((i) => i.name === 'Node')).map((ty) => ty.name);
  // Which Node type each of A's ids is (asked with A's own key, one aliased query).
  const globalOf = new Map<string, string>();
  if (nodeTypes.length) {
    const pairs = allIdsOfA.flatMap((id) => nodeTypes.map((ty: string) => ({ id, gid: toGlobalId(ty, id) })));
    const q = `{ ${pairs.map((p, i) => `n${i}: node(id: ${JSON.stringify(p.gid)}) { __typename }`).join(' ')} }`;
    const found = (await aTest.graphql<Record<string, { __typename: string } | null>>(q)).body.data ?? {};
    pairs.forEach((p, i) => found[`n${i}`] && globalOf.set(p.id, p.gid));
  }
  const value = (ty: TypeRef, id: string | undefined, name: string, depth = 0): unknown => {
    if (ty.kind === 'NON_NULL') return value(ty.ofType!, id, name, depth);
    if (ty.kind === 'LIST') return [value(ty.ofType!, id, name, depth)];
    if (idish(name) && id !== undefined) return id;
    const hint: Record<string, unknown> = {
      ...{ number: cards.visa.number, cvc: '123', expMonth: 12, expYear: 2030 },
      ...{ currency: 'USD', email: 'b@example.com', price: 100, amountCents: 100, quantity: 1 },
    };
    if (name in hint && ty.kind === 'SCALAR') return hint[name];
    const full = types.get(ty.name!)!;
    if (ty.kind === 'ENUM') return full.enumValues![0].name;
    if (ty.kind === 'INPUT_OBJECT') {
      const out: Record<string, unknown> = {};
      for (const f of full.inputFields!)
        if ((f.type.kind === 'NON_NULL' && f.defaultValue == null) || idish(f.name))
          out[f.name] = value(f.type, id, f.name, depth + 1);
      return out;
    }
    return (
      {
        Int: 1,
        Float: 1,
        Boolean: false,
        String: 'x',
        ID: 'x',
        DateTime: new Date().toISOString(),
        JSONObject: {},
        JSON: {},
      }[ty.name!] ?? 'x'
    );
  };
  const fields: {
    op: 'query' | 'mutation';
    name: string;
    ids: string[];
    build: (id: string) => { query: string; variables: Record<string, unknown> };
  }[] = [];
  for (const [op, root] of [
    ['query', schema.queryType?.name],
    ['mutation', schema.mutationType?.name],
  ] as const) {
    for (const field of types.get(root)?.fields ?? []) {
      const takesId = field.args.some(
        (arg) =>
          idish(arg.name) ||
          (named(arg.type).kind === 'INPUT_OBJECT' && inputFieldsOf(arg.type).some((f) => idish(f.name))),
      );
      if (!takesId) continue;
      const used = field.args.filter(
        (arg) =>
          (arg.type.kind === 'NON_NULL' && arg.defaultValue == null) ||
          idish(arg.name) ||
          named(arg.type).kind === 'INPUT_OBJECT',
      );
      // The kind of id it takes, from the argument's name (orderId) or the field's (order, disableWebhookEndpoint); else every kind.
      const inputNames = field.args.flatMap((arg) =>
        named(arg.type).kind === 'INPUT_OBJECT' ? inputFieldsOf(arg.type).map((f) => f.name) : [],
      );
      const idArg = [...field.args.map((arg) => arg.name), ...inputNames].find((n) => idish(n) && n !== 'id');
      const table = tableFor(idArg ?? field.name, tables);
      const ids = table && idOf.has(table) ? [idOf.get(table)!] : allIdsOfA;
      // A mutation's payload: its userErrors too (an unknown id is a NOT_FOUND user error there).
      const userErrors = types.get(named(field.type).name!)?.fields?.some((f) => f.name === 'userErrors')
        ? ' userErrors { code field }'
        : '';
      const selection = ['OBJECT', 'INTERFACE', 'UNION'].includes(named(field.type).kind)
        ? ` { __typename${userErrors} }`
        : '';
      const declared = used.map((arg, i) => `$v${i}: ${typeString(arg.type)}`).join(', ');
      const passed = used.map((arg, i) => `${arg.name}: $v${i}`).join(', ');
      fields.push({
        op,
        name: field.name,
        ids,
        build: (id) => ({
          query: `${op}(${declared}) { ${field.name}(${passed})${selection} }`,
          variables: Object.fromEntries(used.map((arg, i) => [`v${i}`, value(arg.type, id, arg.name)])),
        }),
      });
    }
  }

  return { tables, idOf, allIdsOfA, intruders, operations, skipped, readsOfA, fields, globalOf };
}

let world: Awaited<ReturnType<typeof discover>>;
beforeAll(async () => {
  world = await discover();
}, 120_000);

/** Runs `probe` and checks that A's rows and A's reads are the same after it as before (zero changes). */
async function expectNoChangeToA(probe: () => Promise<void>): Promise<void> {
  const before = await snapshotOfA(world.tables);
  const readsBefore = await world.readsOfA();
  await probe();
  expect(await snapshotOfA(world.tables)).toEqual(before);
  expect(await world.readsOfA()).toEqual(readsBefore);
}

test('A owns an object of every kind, and the probes cover the routes and fields that take ids', () => {
  const { operations, fields, idOf, allIdsOfA, skipped } = world;
  console.log(
    `tenancy: ${operations.length} REST operations with ids, ${fields.length} GraphQL fields taking ids, ` +
      `${allIdsOfA.length} kinds of A's objects (${[...idOf.keys()].join(', ')}); ` +
      `skipped ${skipped.length}${skipped.length ? `: ${skipped.join('; ')}` : ''}`,
  );
  // Coverage that must not silently shrink.
  expect(operations.length).toBeGreaterThanOrEqual(15);
  expect(fields.length).toBeGreaterThanOrEqual(5);
  const kinds = [
    'products',
    'checkout_sessions',
    'orders',
    'refunds',
    'webhook_endpoints',
    'webhook_deliveries',
    'events',
  ];
  for (const kind of kinds) expect([kind, idOf.has(kind)]).toEqual([kind, true]);
});

test('no REST route with an id reveals or changes another merchant’s or the other mode’s objects', async () => {
  const leaks: string[] = [];
  let strictNotFound = 0;
  await expectNoChangeToA(async () => {
    for (const [who, api] of Object.entries(world.intruders)) {
      for (const o of world.operations) {
        const body = o.body ?? {};
        const send = (url: string) =>
          o.method === 'GET'
            ? api.get(url)
            : o.method === 'DELETE'
              ? api.delete(url)
              : o.method === 'PUT'
                ? api.put(url, body)
                : api.post(url, body);
        const real = await send(o.url);
        const fake = await send(o.fakeUrl);
        if (real.status === 404 && real.body?.error?.code === 'not_found') strictNotFound++;
        else if (real.status < 300) leaks.push(`${who} ${o.method} ${o.path}: ${real.status}`);
        const text = JSON.stringify(real.body).toLowerCase();
        if (shape(real, o.ids) !== shape(fake, o.ids) || text.includes(CANARY)) {
          leaks.push(
            `${who} ${o.method} ${o.path}: ${real.status} ${JSON.stringify(real.body)} vs missing id ${fake.status}`,
          );
        }
      }
    }
  });
  const tries = world.operations.length * Object.keys(world.intruders).length;
  console.log(
    `tenancy: REST ${tries} tries, ${strictNotFound} answered 404 not_found, the others the same 4xx as for a missing id`,
  );
  expect(leaks).toEqual([]);
}, 240_000);

test('no GraphQL field taking an id reveals or changes another merchant’s or the other mode’s objects', async () => {
  const { globalOf } = world;
  const leaks: string[] = [];
  let graphqlCalls = 0;
  const unreached = new Set<string>(); // GraphQL fields answered with something else than not_found (input refused before the lookup)
  await expectNoChangeToA(async () => {
    for (const [who, api] of Object.entries(world.intruders)) {
      // Every field with each of A's ids (raw and global), against the same call with an id of nobody.
      for (const f of world.fields) {
        for (const raw of f.ids) {
          for (const id of [raw, globalOf.get(raw)].filter((x): x is string => !!x)) {
            const fakeId =
              globalOf.get(raw) === id
                ? toGlobalId(Buffer.from(id, 'base64url').toString().split(':')[0], missingLike(raw))
                : missingLike(raw);
            const real = await api.graphql(f.build(id).query, f.build(id).variables);
            const fake = await api.graphql(f.build(fakeId).query, f.build(fakeId).variables);
            graphqlCalls += 2;
            const userErrors = (
              (real.body?.data?.[f.name] as { userErrors?: { code: string }[] } | null)?.userErrors ?? []
            ).map((e) => e.code.toLowerCase());
            const codes = [...(real.body?.errors ?? []).map((e) => String(e.extensions?.code)), ...userErrors];
            if (codes.some((c) => c !== 'not_found' && c !== 'test_mode_only'))
              unreached.add(`${f.name}: ${codes.join(',')}`);
            const view = (res: ApiResponse) =>
              shape(
                {
                  ...res,
                  body: {
                    data: res.body?.data,
                    codes: res.body?.errors?.map((e: GraphQLErrorBody) => e.extensions?.code),
                  },
                } as ApiResponse,
                [
                  [id, fakeId],
                  [raw, missingLike(raw)],
                ],
              );
            if (view(real) !== view(fake) || JSON.stringify(real.body).toLowerCase().includes(CANARY)) {
              leaks.push(
                `${who} ${f.op} ${f.name}(${id}): ${JSON.stringify(real.body)} vs missing id ${JSON.stringify(fake.body)}`,
              );
            }
          }
        }
      }
    }
  });
  console.log(
    `tenancy: GraphQL ${graphqlCalls} calls; fields answered with other errors than not_found: ${[...unreached].join('; ') || 'none'}`,
  );
  expect(leaks).toEqual([]);
}, 240_000);

test('no GraphQL list shows another merchant’s or the other mode’s objects, to a key or to a console user of B', async () => {
  const ownIds = new Set<string>(); // `table:id` of every test-mode row of A
  for (const table of world.tables) {
    for (const row of await sql<{ id: string | number }>(
      `select id from "${table}" where merchant_id = ? and livemode = false`,
      [a.id],
    ))
      ownIds.add(`${table}:${row.id}`);
  }
  /** Whether a listed node's id (a global id, else a raw one) is one of A's test-mode rows; a numeric id is compared within its type's table only. */
  const isOfA = (nodeId: string) => {
    const [type, ...rest] = Buffer.from(nodeId, 'base64url').toString().split(':');
    const raw = rest.length ? rest.join(':') : nodeId;
    const table = rest.length ? tableFor(type, world.tables) : undefined;
    if (table) return ownIds.has(`${table}:${raw}`);
    return !/^\d+$/.test(raw) && world.tables.some((tb) => ownIds.has(`${tb}:${raw}`) || ownIds.has(`${tb}:${nodeId}`));
  };
  /** Every root list of the graph that needs no argument (introspected, so lists added later are covered). */
  const root = await client(t.url, a.test_api_key).graphql<{
    __schema: { queryType: { fields: { name: string; args: { type: { kind: string } }[]; type: TypeRef }[] } };
  }>('{ __schema { queryType { fields { name args { type { kind } } type { kind name ofType { kind name } } } } } }');
  const lists = root.body.data.__schema.queryType.fields
    .filter(
      (f) =>
        (f.type.ofType?.name ?? f.type.name ?? '').endsWith('Connection') &&
        f.args.every((arg) => arg.type.kind !== 'NON_NULL'),
    )
    .map((f) => f.name);
  expect(lists).toEqual(
    expect.arrayContaining([
      'checkoutSessions',
      'orders',
      'paymentLinks',
      'subscriptions',
      'webhookEndpoints',
      'events',
    ]),
  );
  type Lister = {
    graphql: (q: string) => Promise<{ body: { data?: Record<string, { nodes: { id: string }[] } | null> | null } }>;
  };
  const listedOfA = async (api: Lister, list: string) => {
    const res = await api.graphql(`{ ${list}(first: 100) { nodes { id } } }`);
    return (res.body.data?.[list]?.nodes ?? []).map((n) => n.id).filter(isOfA);
  };
  // The check can fail: A's own key sees its checkouts (one paid, one open), and OPEN only the open one.
  const own = client(t.url, a.test_api_key);
  expect((await listedOfA(own, 'checkoutSessions')).length).toBeGreaterThanOrEqual(2);
  const open = await own.graphql<{ checkoutSessions: { nodes: { status: string }[] } }>(
    '{ checkoutSessions(first: 100, status: OPEN) { nodes { status } } }',
  );
  expect(open.body.data.checkoutSessions.nodes.map((n) => n.status)).toEqual(['OPEN']);

  await teamMember(t, b.id, 'owner-b@tenancy.test', 'owner');
  const userOfB = consoleClient(t.url);
  expect((await userOfB.signIn('owner-b@tenancy.test')).status).toBe(200);
  const leaks: string[] = [];
  for (const [who, api] of [...Object.entries(world.intruders), ['console owner of merchant B', userOfB] as const]) {
    for (const list of lists) {
      const seen = await listedOfA(api, list);
      if (seen.length) leaks.push(`${who} ${list}: ${seen.join(', ')}`);
    }
  }
  expect(leaks).toEqual([]);
}, 60_000);
