import { client, type Client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  api = client(t.url, (await t.merchant()).test_api_key);
});
afterAll(() => t.close());

const PRODUCT_FIELDS = `id productId name tagline price currency merchantProductId status livemode metadata createdAt
  eligibility { hsaFsaEligible requiresLmn status source message checkedAt }
  images { id url isPrimary }`;

const CREATE = `mutation($input: CreateProductInput!) { createProduct(input: $input) { product { ${PRODUCT_FIELDS} } } }`;

async function create(input: Record<string, unknown>) {
  const res = await api.graphql(CREATE, { input });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createProduct.product;
}

test('createProduct returns the product with an opaque global id; REST sees the same object', async () => {
  const p = await create({
    name: 'Blood glucose test strips',
    price: 2599,
    currency: 'USD',
    merchantProductId: 'GLU-50',
    images: ['https://cdn.example.com/g.png'],
    metadata: { a: 1 },
  });
  expect(p).toMatchObject({
    name: 'Blood glucose test strips',
    price: 2599,
    currency: 'USD',
    merchantProductId: 'GLU-50',
    status: 'ACTIVE',
    livemode: false,
    metadata: { a: 1 },
  });
  expect(p.eligibility).toMatchObject({ hsaFsaEligible: true, source: 'NAME' });
  expect(p.images).toEqual([{ id: expect.any(Number), url: 'https://cdn.example.com/g.png', isPrimary: true }]);
  expect(p.id).not.toContain(String(p.productId));
  const rest = await api.get(`/api/v2/products/${p.productId}`);
  expect(rest.body).toMatchObject({ id: p.productId, name: p.name, merchant_product_id: 'GLU-50' });
});

test('node(id:) resolves a product; unknown or foreign ids give null', async () => {
  const p = await create({ name: 'Ibuprofen 200 mg', price: 899, currency: 'USD' });
  const res = await api.graphql(`query($id: ID!) { node(id: $id) { id __typename ... on Product { name } } }`, {
    id: p.id,
  });
  expect(res.body.data.node).toEqual({ id: p.id, __typename: 'Product', name: 'Ibuprofen 200 mg' });
  const other = client(t.url, (await t.merchant('Other')).test_api_key);
  expect((await other.graphql(`query($id: ID!) { node(id: $id) { id } }`, { id: p.id })).body.data.node).toBeNull();
  expect((await api.graphql(`{ node(id: "bm9wZQ") { id } }`)).body.data.node).toBeNull();
});

test('input mistakes are userErrors with the spec code in upper case and the camelCase field path; a query keeps its top-level error', async () => {
  const MUTATION = `mutation($input: CreateProductInput!) { createProduct(input: $input) { product { id } userErrors { field message code } } }`;
  const price = await api.graphql(MUTATION, { input: { name: 'X', price: 0, currency: 'USD' } });
  expect(price.body.errors).toBeUndefined();
  expect(price.body.data.createProduct).toEqual({
    product: null,
    userErrors: [{ field: ['input', 'price'], message: expect.stringContaining('price'), code: 'INVALID_PRICE' }],
  });
  const currency = await api.graphql(MUTATION, { input: { name: 'X', price: 10, currency: 'ABC' } });
  expect(currency.body.data.createProduct.userErrors).toEqual([
    expect.objectContaining({ field: ['input', 'currency'], code: 'INVALID_CURRENCY' }),
  ]);
  const invalid = await api.graphql(MUTATION, {
    input: { name: '', price: 10, currency: 'USD', merchantProductId: 'm'.repeat(300), images: ['ftp://x'] },
  });
  const errors = invalid.body.data.createProduct.userErrors as { field: string[]; code: string }[];
  expect(errors.map((e) => e.code)).toEqual(['VALIDATION_ERROR', 'VALIDATION_ERROR', 'VALIDATION_ERROR']);
  expect(errors.map((e) => e.field.join('.')).sort()).toEqual([
    'input.images.0',
    'input.merchantProductId',
    'input.name',
  ]);
  const notFound = await api.graphql(
    `{ product(id: "${Buffer.from('Product:99999999').toString('base64url')}") { id } }`,
  );
  expect(notFound.body.errors?.[0].extensions.code).toBe('not_found');
});

test('products connection: first/after and last/before over the same order, with filters', async () => {
  const m = client(t.url, (await t.merchant('Pager')).test_api_key);
  const names: string[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await m.graphql(CREATE, {
      input: { name: i % 2 ? `Sunscreen ${i}` : `Candy ${i}`, price: 100 + i, currency: 'USD' },
    });
    names.push(res.body.data.createProduct.product.name);
  }
  const newestFirst = [...names].reverse();
  const Q = `query($first: Int, $after: String, $last: Int, $before: String, $elig: Boolean) {
    products(first: $first, after: $after, last: $last, before: $before, hsaFsaEligible: $elig) {
      edges { cursor node { name } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
  type Products = {
    products: {
      edges: { cursor: string; node: { name: string } }[];
      pageInfo: {
        hasNextPage: boolean;
        hasPreviousPage: boolean;
        startCursor: string | null;
        endCursor: string | null;
      };
    };
  };
  const p1 = (await m.graphql<Products>(Q, { first: 3 })).body.data.products;
  expect(p1.edges.map((e) => e.node.name)).toEqual(newestFirst.slice(0, 3));
  expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  const p2 = (await m.graphql<Products>(Q, { first: 3, after: p1.pageInfo.endCursor })).body.data.products;
  expect(p2.edges.map((e) => e.node.name)).toEqual(newestFirst.slice(3, 6));
  expect(p2.pageInfo.hasPreviousPage).toBe(true);
  const back = (await m.graphql<Products>(Q, { last: 2, before: p2.pageInfo.startCursor })).body.data.products;
  expect(back.edges.map((e) => e.node.name)).toEqual(newestFirst.slice(1, 3));
  expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  const eligible = (await m.graphql<Products>(Q, { first: 10, elig: true })).body.data.products;
  expect(eligible.edges.map((e) => e.node.name)).toEqual(newestFirst.filter((n) => n.startsWith('Sunscreen')));
  const bad = await m.graphql(Q, { first: 101 });
  expect(bad.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_request', param: 'first' });
  const both = await m.graphql(Q, { first: 1, last: 1 });
  expect(both.body.errors?.[0].extensions.code).toBe('invalid_request');
});

test('updateProduct, archiveProduct and checkEligibility', async () => {
  const p = await create({ name: 'Gummy candy', price: 250, currency: 'USD' });
  const upd = await api.graphql(
    `mutation($id: ID!, $input: UpdateProductInput!) { updateProduct(id: $id, input: $input) { product { name price eligibility { hsaFsaEligible } } } }`,
    {
      id: p.id,
      input: { name: 'Tampons, regular, 36 count', price: 799 },
    },
  );
  expect(upd.body.data.updateProduct.product).toEqual({
    name: 'Tampons, regular, 36 count',
    price: 799,
    eligibility: { hsaFsaEligible: true },
  });

  const check = await api.graphql(
    `mutation($input: CheckEligibilityInput!) { checkEligibility(input: $input) { eligibility { hsaFsaEligible status message } product { productId } } }`,
    {
      input: { productId: p.id },
    },
  );
  expect(check.body.data.checkEligibility).toMatchObject({
    eligibility: { hsaFsaEligible: true, status: 'ELIGIBLE' },
    product: { productId: p.productId },
  });
  const byName = await api.graphql(
    `mutation { checkEligibility(input: { name: "Fish oil capsules" }) { eligibility { requiresLmn status } product { id } } }`,
  );
  expect(byName.body.data.checkEligibility).toEqual({
    eligibility: { requiresLmn: true, status: 'REQUIRES_LMN' },
    product: null,
  });

  const batch = await api.graphql(
    `mutation($items: [CheckEligibilityInput!]!) { checkEligibilityBatch(items: $items) { results { eligibility { status hsaFsaEligible message } product { productId } } } }`,
    {
      items: [{ productId: p.id }, { name: 'BB Cream SPF 35, Medium' }, { upcCodeOrGtin: '9520409308060' }],
    },
  );
  expect(batch.body.errors).toBeUndefined();
  expect(batch.body.data.checkEligibilityBatch.results).toMatchObject([
    { eligibility: { status: 'ELIGIBLE', hsaFsaEligible: true }, product: { productId: p.productId } },
    {
      eligibility: { status: 'REQUIRES_REVIEW', hsaFsaEligible: false, message: expect.stringContaining('Rule: ') },
      product: null,
    },
    { eligibility: { status: 'NOT_ELIGIBLE' }, product: null },
  ]);
  const tooMany = await api.graphql(
    `mutation($items: [CheckEligibilityInput!]!) { checkEligibilityBatch(items: $items) { results { eligibility { status } } userErrors { field code } } }`,
    {
      items: Array.from({ length: 101 }, () => ({ name: 'Bandages' })),
    },
  );
  expect(tooMany.body.data.checkEligibilityBatch).toEqual({
    results: null,
    userErrors: [{ field: ['items'], code: 'VALIDATION_ERROR' }],
  });

  const archived = await api.graphql(`mutation($id: ID!) { archiveProduct(id: $id) { product { status } } }`, {
    id: p.id,
  });
  expect(archived.body.data.archiveProduct.product.status).toBe('ARCHIVED');
});

test('checkEligibilityBatch under an Idempotency-Key reads its stored products in the transaction and is replayed', async () => {
  const p = await create({ name: 'Digital thermometer', price: 1999, currency: 'USD' });
  const query = `mutation($items: [CheckEligibilityInput!]!) { checkEligibilityBatch(items: $items) {
    results { eligibility { status } product { productId name } } userErrors { code } } }`;
  const headers = { 'idempotency-key': crypto.randomUUID() };
  const items = [{ productId: p.id }, { name: 'Chocolate bar' }];
  const first = await api.graphql(query, { items }, headers);
  expect(first.body.errors).toBeUndefined();
  expect(first.body.data.checkEligibilityBatch).toEqual({
    results: [
      { eligibility: { status: 'ELIGIBLE' }, product: { productId: p.productId, name: 'Digital thermometer' } },
      { eligibility: { status: 'NOT_ELIGIBLE' }, product: null },
    ],
    userErrors: [],
  });
  const again = await api.graphql(query, { items }, headers);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body.data).toEqual(first.body.data);
});

test('a mutation with an Idempotency-Key runs once and is replayed', async () => {
  const key = crypto.randomUUID();
  const input = { name: 'Heating pad', price: 3999, currency: 'USD' };
  const results = await Promise.all([1, 2, 3].map(() => api.graphql(CREATE, { input }, { 'idempotency-key': key })));
  const ids = results.map((r) => r.body.data.createProduct.product.id);
  expect(new Set(ids).size).toBe(1);
  expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
  const other = await api.graphql(CREATE, { input: { ...input, price: 1 } }, { 'idempotency-key': key });
  expect(other.body.errors?.[0].extensions.code).toBe('idempotency_key_reused');
  expect(other.status).toBe(400);
});

test('an operation costlier than the complexity limit is refused before it runs', async () => {
  const heavy = await api.graphql(
    `{ orders(first: 100) { nodes { id refunds(first: 100) { nodes { amount refunds { amount paymentId } refundBreakdown { hsaAmount regularAmount } } } } } }`,
  );
  expect(heavy.status).toBe(400);
  expect(heavy.body.errors?.[0].extensions).toMatchObject({
    code: 'query_too_complex',
    details: { maximum: 20000, complexity: expect.any(Number) },
  });
  expect(heavy.body.data).toBeUndefined();
  const viaVariables = await api.graphql(
    `query($n: Int) { orders(first: $n) { nodes { refunds(first: $n) { nodes { amount refunds { amount } } } } } }`,
    { n: 100 },
  );
  expect(viaVariables.body.errors?.[0].extensions.code).toBe('query_too_complex');
  const fine = await api.graphql(`{ orders(first: 20) { nodes { id refunds(first: 5) { nodes { amount } } } } }`);
  expect(fine.body.errors).toBeUndefined();
});

test('product(id) read from the read model is the object the mutation (through the ORM) returned; answers are Cache-Control: no-store', async () => {
  const p = await create({
    name: 'Knee brace',
    tagline: 'Support',
    price: 3499,
    currency: 'usd',
    merchantProductId: 'KNEE-1',
    images: ['https://cdn.example.com/k2.png', 'https://cdn.example.com/k1.png'],
    metadata: { b: [1, 'x'], size: 'M' },
  });
  const res = await api.graphql(`query($id: ID!) { product(id: $id) { ${PRODUCT_FIELDS} } }`, { id: p.id });
  expect(JSON.stringify(res.body.data.product)).toBe(JSON.stringify(p));
  expect(res.headers.get('cache-control')).toBe('no-store');
  const list = await api.graphql(`{ products(first: 1) { nodes { ${PRODUCT_FIELDS} } } }`);
  expect(JSON.stringify(list.body.data.products.nodes[0])).toBe(JSON.stringify(p));
});
