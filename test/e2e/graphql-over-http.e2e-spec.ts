import type { Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * GraphQL over HTTP as clients see it (Apollo Client, Relay; graphql-http's audit is
 * graphql-http-audit.e2e-spec.ts): a request
 * that executed answers 200 even when `data` is null, root lookups by id are nullable, and
 * Relay's `first: 0` is an empty page.
 */
let t: TestApp;
let api: Client;
beforeAll(async () => {
  ({ t, api } = await startWithMerchant('Over HTTP'));
});
afterAll(() => t.close());

const gid = (type: string, id: string | number) => Buffer.from(`${type}:${id}`).toString('base64url');

test('an unknown id is 200 with data.order null, its not_found error reachable, siblings kept', async () => {
  for (const accept of ['application/json', 'application/graphql-response+json']) {
    const res = await api.graphql(
      `{ __typename order(id: "${gid('Order', 'ord_nope')}") { id } products(first: 1) { nodes { id } } }`,
      undefined,
      { accept },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(accept);
    expect(res.body.data).toEqual({ __typename: 'Query', order: null, products: { nodes: [] } });
    expect(res.body.errors).toEqual([
      expect.objectContaining({ path: ['order'], extensions: expect.objectContaining({ code: 'not_found' }) }),
    ]);
  }
  // Every root lookup by id is nullable: one unknown id never discards the others' data.
  const lookups = [
    'order',
    'product',
    'paymentLink',
    'customer',
    'refund',
    'checkoutSession',
    'webhookEndpoint',
    'event',
    'subscriptionContract',
  ];
  const res = await api.graphql(`{ __typename ${lookups.map((f) => `${f}(id: "bm9wZQ") { id }`).join(' ')} }`);
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ __typename: 'Query', ...Object.fromEntries(lookups.map((f) => [f, null])) });
  expect(res.body.errors!.map((e) => e.extensions.code)).toEqual(lookups.map(() => 'not_found'));
});

test("a mutation refused by the service executed: 200, its input mistake in the payload's userErrors", async () => {
  const res = await api.graphql(
    'mutation { createProduct(input: { name: "", price: -5, currency: "USD" }) { product { id } userErrors { field code } } }',
  );
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data).toEqual({
    createProduct: { product: null, userErrors: [{ field: ['input', 'price'], code: 'INVALID_PRICE' }] },
  });
  // A forged cursor also executed: 200 with the error, not a 400.
  const forged = await api.graphql(
    `{ orders(first: 2, after: "${Buffer.from('cursor:ord_nope').toString('base64url')}") { nodes { id } } }`,
  );
  expect(forged.status).toBe(200);
  expect(forged.body.errors![0].extensions).toMatchObject({ code: 'invalid_request', param: 'after' });
});

test('requests that never executed keep 4xx: syntax, validation, variables, cost', async () => {
  const cases: [string, Record<string, unknown> | undefined, number][] = [
    ['{ order(id: ', undefined, 400],
    ['{ nothing }', undefined, 400],
    ['query($id: ID!) { order(id: $id) { id } }', {}, 400],
    [
      '{ orders(first: 100) { nodes { refunds(first: 100) { nodes { id amount status createdAt } } } } }',
      undefined,
      400,
    ],
  ];
  for (const [query, variables, status] of cases) {
    const res = await api.graphql(query, variables, { accept: 'application/graphql-response+json' });
    expect(res.status).toBe(status);
    expect(res.body.data).toBeUndefined();
  }
});

test('Relay first: 0 and last: 0 are empty pages with correct pageInfo', async () => {
  for (let i = 0; i < 3; i++) {
    expect((await api.post('/api/v2/products', { name: `Bandage ${i}`, price: 500, currency: 'USD' })).status).toBe(
      201,
    );
  }
  const all = (await api.graphql('{ products(first: 3) { edges { cursor } } }')).body.data.products.edges.map(
    (e: { cursor: string }) => e.cursor,
  );
  const page = async (args: string) => {
    const res = await api.graphql(
      `{ products(${args}) { edges { cursor } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.products;
  };
  expect(await page('first: 0')).toEqual({
    edges: [],
    nodes: [],
    pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null },
  });
  expect((await page(`first: 0, after: "${all[2]}"`)).pageInfo).toEqual({
    hasNextPage: false,
    hasPreviousPage: true,
    startCursor: null,
    endCursor: null,
  });
  expect((await page('last: 0')).pageInfo).toEqual({
    hasNextPage: false,
    hasPreviousPage: true,
    startCursor: null,
    endCursor: null,
  });
  expect((await page('first: 0')).edges).toEqual([]);
  expect(
    (await api.graphql('{ orders(first: 0) { nodes { id } pageInfo { hasNextPage } } }')).body.data.orders,
  ).toEqual({ nodes: [], pageInfo: { hasNextPage: false } });
  expect((await api.graphql('{ events(first: 0) { edges { cursor } } }')).body.data.events).toEqual({ edges: [] });
  const negative = await api.graphql('{ products(first: -1) { nodes { id } } }');
  expect(negative.body.errors![0].extensions).toMatchObject({ code: 'invalid_request', param: 'first' });
});

test('a coercion error never repeats the value of a card field (variables, nested objects or literals)', async () => {
  const customer = (
    await api.post('/api/v2/customers', { email: 'coerce@example.com', first_name: 'Co', last_name: 'Erce' })
  ).body;
  const customerId = gid('Customer', customer.id);
  const MUTATION =
    'mutation($input: AttachPaymentMethodInput!) { attachPaymentMethod(input: $input) { paymentMethod { last4 } } }';
  const attempts = [
    await api.graphql(MUTATION, {
      input: { customerId, card: { number: 4111110000000047, expMonth: 12, expYear: 2030, cvc: '123' } },
    }),
    await api.graphql(MUTATION, {
      input: { customerId, card: { number: '4111110000000047', expMonth: 12, expYear: 2030, cvc: 9876 } },
    }),
    await api.graphql(MUTATION, {
      input: { customerId, card: { number: '4111110000000047', expMonth: 12, cvc: '9876' } },
    }),
    await api.graphql(
      `mutation { attachPaymentMethod(input: { customerId: "${customerId}", card: { number: 4111110000000047, expMonth: 12, expYear: 2030, cvc: 9876 } }) { paymentMethod { last4 } } }`,
    ),
  ];
  for (const res of attempts) {
    expect(res.status).toBe(400);
    expect(res.body.errors![0].extensions.code).toBe('invalid_request');
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('4111110000000047');
    expect(text).not.toMatch(/\b9876\b/);
    expect(res.body.errors![0].message).toMatch(/card|number|cvc|expYear|String/); // still says what is wrong
  }
});
