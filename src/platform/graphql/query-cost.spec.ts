import { buildSchema, execute, getOperationAST, parse } from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { actualCost, planCost, TooManySelectionsError } from './query-cost.js';

const schema = buildSchema(`
  interface Node { id: ID! }
  type Refund implements Node { id: ID! amount: Int! }
  type Product implements Node { id: ID! name: String! tags: [String!]! }
  type Order implements Node { id: ID! total: Int! refunds(first: Int, last: Int): RefundConnection! lines: [Line!]! }
  type Line { name: String! product: Product }
  type RefundConnection { nodes: [Refund!]! edges: [RefundEdge!]! pageInfo: PageInfo! }
  type RefundEdge { cursor: String! node: Refund! }
  type OrderConnection { nodes: [Order!]! pageInfo: PageInfo! totalCount: Int! }
  type PageInfo { hasNextPage: Boolean! endCursor: String }
  union Result = Order | Product
  type Query {
    orders(first: Int, last: Int, after: String): OrderConnection!
    product(id: ID!): Product
    node(id: ID!): Node
    search(text: String!): [Result!]!
  }
  type Mutation { createProduct(name: String!): Product! }
`);

// The rule the service used before it priced results too (graphql-query-complexity, same estimators).
const connectionEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const size = Number(args.first ?? args.last ?? ('first' in args || 'last' in args ? 10 : NaN));
  return Number.isFinite(size) ? 1 + childComplexity * Math.max(1, size) : undefined;
};
const reference = (query: string, variables: Record<string, unknown> = {}) =>
  getComplexity({
    schema,
    query: parse(query),
    variables,
    estimators: [connectionEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });

const plan = (query: string, variables: Record<string, unknown> = {}) => {
  const document = parse(query);
  return planCost(schema, document, getOperationAST(document)!, variables);
};

const QUERIES: [string, Record<string, unknown>][] = [
  ['{ product(id: 1) { id name tags } }', {}],
  ['{ orders(first: 20) { nodes { id total } pageInfo { hasNextPage endCursor } } }', {}],
  ['{ orders(last: 5) { totalCount nodes { refunds(first: 10) { edges { cursor node { id amount } } } } } }', {}],
  ['{ orders { nodes { id } } }', {}],
  ['{ orders(first: 0) { nodes { id } } }', {}],
  ['query($n: Int) { orders(first: $n) { nodes { id } } }', { n: 7 }],
  [
    'query($skip: Boolean!) { orders(first: 3) { nodes { id total @skip(if: $skip) lines @include(if: $skip) { name } } } }',
    { skip: true },
  ],
  ['{ node(id: 1) { id ... on Order { total refunds(first: 4) { nodes { id } } } ... on Product { name } } }', {}],
  ['{ search(text: "x") { ... on Order { id total } ... P } } fragment P on Product { id name tags }', {}],
  ['{ a: product(id: 1) { name } b: product(id: 2) { name id } __typename }', {}],
  ['mutation { createProduct(name: "x") { id name } }', {}],
];

test.each(QUERIES)('the estimate is the rule it replaces: %s', (query, variables) => {
  expect(plan(query, variables).requested).toBe(reference(query, variables));
});

test('a connection that fills its page costs its estimate; fewer items cost less, in proportion', () => {
  const query = '{ orders(first: 3) { nodes { id total } pageInfo { hasNextPage } } }';
  const p = plan(query);
  expect(p.requested).toBe(1 + 3 * (1 + 2 + 1 + 1)); // the connection, then per item asked for: nodes + its two fields, pageInfo + its field
  const order = (id: number) => ({ id, total: 100 });
  const data = (n: number) => ({
    orders: { nodes: Array.from({ length: n }, (_, i) => order(i)), pageInfo: { hasNextPage: false } },
  });
  expect(actualCost(p, data(3))).toBe(p.requested);
  expect(actualCost(p, data(1))).toBe(1 + 1 * (1 + 1 + 1) + 2); // per item returned: nodes, pageInfo + its field; then the item's two fields
  expect(actualCost(p, data(0))).toBe(1 + 1 * (1 + 1 + 1)); // an empty page still answered its pageInfo
});

test('nested connections count what each parent item returned; a null object counts 1', () => {
  const p = plan('{ orders(first: 2) { nodes { refunds(first: 10) { nodes { id } } } } product(id: 9) { id name } }');
  const data = {
    orders: { nodes: [{ refunds: { nodes: [{ id: 'r1' }, { id: 'r2' }] } }, { refunds: { nodes: [] } }] },
    product: null,
  };
  // orders: 1 + 2 × nodes(1) + per order (refunds: 1 + max(1, n) × nodes(1) + n × id)
  expect(actualCost(p, data)).toBe(1 + 2 + (1 + 2 + 2) + (1 + 1) + 1);
  expect(actualCost(p, data)).toBeLessThan(p.requested);
});

test('an abstract field counts only the fragment of the type that came back', async () => {
  const p = plan(
    '{ node(id: 1) { id ... on Order { total refunds(first: 4) { nodes { id } } } ... on Product { name } } }',
  );
  const rootValue = { node: { __typename: 'Product', id: 1, name: 'Gauze' } };
  const result = await execute({
    schema,
    document: parse(
      '{ node(id: 1) { id ... on Order { total refunds(first: 4) { nodes { id } } } ... on Product { name } } }',
    ),
    rootValue,
  });
  expect(result.data).toEqual({ node: { id: '1', name: 'Gauze' } });
  expect(actualCost(p, result.data as Record<string, unknown>)).toBe(1 + 2);
});

test('data null (a non-null root field failed) counts each root field once; bad variables throw', () => {
  const p = plan('mutation { createProduct(name: "x") { id name } }');
  expect(actualCost(p, null)).toBe(1);
  expect(() => plan('query($n: Int!) { orders(first: $n) { nodes { id } } }', {})).toThrow(/\$n/);
  expect(() => plan('query($n: Int!) { orders(first: $n) { nodes { id } } }', { n: 'ten' })).toThrow(/\$n/);
});

test('fragments that expand past 10,000 selections are refused', () => {
  const levels = Array.from(
    { length: 16 },
    (_, i) => `fragment F${i} on Product { a: name b: name ...F${i + 1} c: id ...F${i + 1} }`,
  );
  levels.push('fragment F16 on Product { id }');
  expect(() => plan(`{ product(id: 1) { ...F0 } } ${levels.join(' ')}`)).toThrow(TooManySelectionsError);
});
