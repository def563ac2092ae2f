/**
 * The bare baseline the service is measured against (`npm run bench` starts it beside the
 * service, on the same database and rows): Fastify 5 + `pg` routes and a plain graphql-js schema
 * that run the products read model's own statements (`product.read-model.ts`) and answer the
 * same JSON, with nothing else: no API key, no rate limit, no ORM, no Apollo, no logging. The
 * graph also serves `orders(first:)` with line items, products, payments and refunds over the
 * orders read model's statements (for the 50-vs-1 orders page: the floor of that ratio). Its
 * `/graphql` parses and validates each document text once, as Apollo's document store does
 * (`/graphql/uncached` does both on every request, as `graphql()` does).
 * Env: DATABASE_URL, PORT, MERCHANT_ID (the rows are read as this merchant, test mode).
 */
import Fastify from 'fastify';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLError,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  execute,
  graphql,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
} from 'graphql';
import pg from 'pg';
import {
  orderPageQuery,
  paymentsOfOrdersQuery,
  type OrderRecord,
  type PaymentRecord,
} from '../src/modules/orders/order.read-model.js';
import { iiasCategoryOf } from '../src/modules/products/product-eligibility.js';
import {
  productByIdQuery,
  productPageQuery,
  productsByIdsQuery,
  type ProductRow,
} from '../src/modules/products/product.read-model.js';
import { refundsOfOrdersQuery, type RefundRecord } from '../src/modules/refunds/refund.read-model.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX ?? 10) });
const merchantId = process.env.MERCHANT_ID!;
// The statements are sent as the service sends them: prepared under their names (the embedded
// database's default), or unnamed with DATABASE_PREPARED_STATEMENTS=false (DATABASE_URL's default).
const named = process.env.DATABASE_PREPARED_STATEMENTS !== 'false';
let statements = 0;

async function rows<R extends pg.QueryResultRow = ProductRow>(query: pg.QueryConfig): Promise<R[]> {
  statements++;
  return (await pool.query<R>(named ? query : { text: query.text, values: query.values })).rows;
}

const iso = (ms: number) => new Date(ms).toISOString();
const eligibilityStatus = (r: ProductRow) =>
  r.requiresLmn ? 'requires_lmn' : r.hsaFsaEligible ? 'eligible' : 'not_eligible';

function resource(r: ProductRow) {
  return {
    id: r.id,
    object: 'product',
    livemode: r.livemode,
    name: r.name,
    tagline: r.tagline,
    description: r.description,
    price: r.price,
    currency: r.currency,
    merchant_product_id: r.merchantProductId,
    upc_code_or_gtin: r.upcCodeOrGtin,
    status: r.status,
    hsa_fsa_eligibility: r.eligibilityOverride && {
      status: r.eligibilityOverride.status,
      category: r.eligibilityOverride.category,
    },
    eligibility: {
      hsa_fsa_eligible: r.hsaFsaEligible,
      requires_lmn: r.requiresLmn,
      status: eligibilityStatus(r),
      category: r.eligibilityCategory,
      source: r.eligibilitySource,
      message: r.eligibilityMessage,
      checked_at: iso(r.eligibilityCheckedAt),
      iias_category: iiasCategoryOf(r),
      set_by: r.eligibilityOverride?.set_by ?? null,
      set_at: r.eligibilityOverride?.set_at ?? null,
      suggested: {
        status: r.eligibilitySuggested.status,
        category: r.eligibilitySuggested.category,
        source: r.eligibilitySuggested.source,
        message: r.eligibilitySuggested.message,
      },
    },
    images: r.images.map((i) => ({ id: i.id, url: i.url, is_primary: i.position === 0 })),
    metadata: r.metadata,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

async function page(limit: number, after?: number) {
  const found = await rows(productPageQuery(merchantId, false, {}, { limit, after }));
  return { items: found.slice(0, limit), hasMore: found.length > limit };
}

// graphql-js over the same statements, the same field names as the service's graph.
const b64 = (s: string) => Buffer.from(s).toString('base64url');
const nn = <T extends import('graphql').GraphQLType>(t: T) => new GraphQLNonNull(t);
const enumOf = (name: string, values: string[]) =>
  new GraphQLEnumType({ name, values: Object.fromEntries(values.map((v) => [v.toUpperCase(), { value: v }])) });
const DateTime = new GraphQLScalarType({ name: 'DateTimeISO', serialize: (v) => iso(v as number) });
const JSONObject = new GraphQLScalarType({ name: 'JSONObject', serialize: (v) => v });
const Eligibility = new GraphQLObjectType<ProductRow>({
  name: 'Eligibility',
  fields: {
    hsaFsaEligible: { type: nn(GraphQLBoolean) },
    requiresLmn: { type: nn(GraphQLBoolean) },
    status: {
      type: nn(enumOf('EligibilityStatus', ['eligible', 'requires_lmn', 'not_eligible'])),
      resolve: eligibilityStatus,
    },
    category: { type: GraphQLString, resolve: (r) => r.eligibilityCategory },
    source: { type: nn(enumOf('EligibilitySource', ['upc', 'name', 'none'])), resolve: (r) => r.eligibilitySource },
    message: { type: nn(GraphQLString), resolve: (r) => r.eligibilityMessage },
    checkedAt: { type: nn(DateTime), resolve: (r) => r.eligibilityCheckedAt },
  },
});
const ProductImage = new GraphQLObjectType<{ id: number; url: string; position: number }>({
  name: 'ProductImage',
  fields: {
    id: { type: nn(GraphQLInt) },
    url: { type: nn(GraphQLString) },
    isPrimary: { type: nn(GraphQLBoolean), resolve: (i) => i.position === 0 },
  },
});
const Product = new GraphQLObjectType<ProductRow>({
  name: 'Product',
  fields: {
    id: { type: nn(GraphQLID), resolve: (r) => b64(`Product:${r.id}`) },
    productId: { type: nn(GraphQLInt), resolve: (r) => r.id },
    livemode: { type: nn(GraphQLBoolean) },
    name: { type: nn(GraphQLString) },
    tagline: { type: GraphQLString },
    description: { type: GraphQLString },
    price: { type: nn(GraphQLInt) },
    currency: { type: nn(GraphQLString) },
    merchantProductId: { type: GraphQLString },
    upcCodeOrGtin: { type: GraphQLString },
    status: { type: nn(enumOf('ProductStatus', ['active', 'inactive', 'archived'])) },
    eligibility: { type: nn(Eligibility), resolve: (r) => r },
    images: { type: nn(new GraphQLList(nn(ProductImage))) },
    metadata: { type: nn(JSONObject) },
    createdAt: { type: nn(DateTime) },
    updatedAt: { type: nn(DateTime) },
  },
});
const PageInfo = new GraphQLObjectType({
  name: 'PageInfo',
  fields: {
    hasNextPage: { type: nn(GraphQLBoolean) },
    hasPreviousPage: { type: nn(GraphQLBoolean) },
    startCursor: { type: GraphQLString },
    endCursor: { type: GraphQLString },
  },
});
const Edge = new GraphQLObjectType({
  name: 'ProductEdge',
  fields: { cursor: { type: nn(GraphQLString) }, node: { type: nn(Product) } },
});
const Connection = new GraphQLObjectType({
  name: 'ProductConnection',
  fields: {
    edges: { type: nn(new GraphQLList(nn(Edge))) },
    nodes: { type: nn(new GraphQLList(nn(Product))) },
    pageInfo: { type: nn(PageInfo) },
  },
});
// Orders as the read model sends them (timestamps in epoch ms), with what the page query asks for attached.
type OrderRow = Omit<OrderRecord, 'createdAt' | 'completedAt'> & {
  payments: PaymentRecord[];
  refunds: RefundRecord[];
  products: Map<number, ProductRow>;
};
type LineItem = OrderRecord['lineItems'][number] & { order: OrderRow };
const LineItem = new GraphQLObjectType<LineItem>({
  name: 'OrderLineItem',
  fields: {
    name: { type: nn(GraphQLString) },
    quantity: { type: nn(GraphQLInt) },
    price: { type: nn(GraphQLInt) },
    product: {
      type: Product,
      resolve: (l) => (l.product_id == null ? null : (l.order.products.get(l.product_id) ?? null)),
    },
  },
});
const Payment = new GraphQLObjectType<PaymentRecord>({
  name: 'Payment',
  fields: {
    paymentMethod: { type: nn(enumOf('PaymentMethodType', ['hsa_fsa_card', 'card'])) },
    amount: { type: nn(GraphQLInt) },
  },
});
const Refund = new GraphQLObjectType<RefundRecord>({
  name: 'Refund',
  fields: {
    refundId: { type: nn(GraphQLString), resolve: (r) => r.id },
    amount: { type: nn(GraphQLInt) },
    status: { type: nn(enumOf('RefundStatus', ['pending', 'succeeded', 'failed', 'cancelled'])) },
  },
});
const RefundConnection = new GraphQLObjectType<RefundRecord[]>({
  name: 'RefundConnection',
  fields: { nodes: { type: nn(new GraphQLList(nn(Refund))), resolve: (r) => r } },
});
const newestFirst = (a: { createdAt: unknown; id: string }, b: { createdAt: unknown; id: string }) =>
  Number(b.createdAt) - Number(a.createdAt) || (a.id < b.id ? 1 : -1);
const Order = new GraphQLObjectType<OrderRow>({
  name: 'Order',
  fields: {
    id: { type: nn(GraphQLID), resolve: (o) => b64(`Order:${o.id}`) },
    orderNumber: { type: nn(GraphQLString) },
    status: {
      type: nn(
        enumOf('OrderStatus', ['pending', 'processing', 'completed', 'failed', 'cancelled', 'refunded', 'disputed']),
      ),
    },
    amount: { type: nn(GraphQLInt) },
    lineItems: {
      type: nn(new GraphQLList(nn(LineItem))),
      resolve: (o) => o.lineItems.map((l) => ({ ...l, order: o })),
    },
    payments: { type: nn(new GraphQLList(nn(Payment))) },
    refunds: {
      type: nn(RefundConnection),
      args: { first: { type: GraphQLInt } },
      resolve: (o, args: { first?: number }) => [...o.refunds].sort(newestFirst).slice(0, args.first ?? 10),
    },
  },
});
const OrderEdge = new GraphQLObjectType({
  name: 'OrderEdge',
  fields: { cursor: { type: nn(GraphQLString) }, node: { type: nn(Order) } },
});
const OrderConnection = new GraphQLObjectType({
  name: 'OrderConnection',
  fields: { edges: { type: nn(new GraphQLList(nn(OrderEdge))) }, pageInfo: { type: nn(PageInfo) } },
});

/** A page of orders and, in three statements side by side, the payments, products and refunds the page query asks for. */
async function orderPage(limit: number): Promise<{ items: OrderRow[]; hasMore: boolean }> {
  const found = await rows<OrderRow>(orderPageQuery(merchantId, false, {}, { limit }));
  const items = found.slice(0, limit);
  const ids = items.map((o) => o.id);
  const productIds = [
    ...new Set(items.flatMap((o) => o.lineItems.flatMap((l) => (l.product_id == null ? [] : [l.product_id])))),
  ];
  const [payments, products, refunds] = await Promise.all([
    rows<PaymentRecord>(paymentsOfOrdersQuery(ids, merchantId, false)),
    rows(productsByIdsQuery(productIds, merchantId, false)),
    rows<RefundRecord>(refundsOfOrdersQuery(ids, merchantId, false)),
  ]);
  const productMap = new Map(products.map((p) => [p.id, p]));
  for (const o of items) {
    o.payments = payments.filter((p) => p.orderId === o.id);
    o.refunds = refunds.filter((r) => r.orderId === o.id);
    o.products = productMap;
  }
  return { items, hasMore: found.length > limit };
}

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      product: {
        type: nn(Product),
        args: { id: { type: nn(GraphQLID) } },
        resolve: async (_root, { id }: { id: string }) => {
          const [row] = await rows(
            productByIdQuery(Number(Buffer.from(id, 'base64url').toString().slice(8)), merchantId, false),
          );
          return row;
        },
      },
      orders: {
        type: nn(OrderConnection),
        args: { first: { type: GraphQLInt } },
        resolve: async (_root, args: { first?: number }) => {
          const { items, hasMore } = await orderPage(args.first ?? 10);
          return {
            edges: items.map((node) => ({ cursor: b64(`cursor:${node.id}`), node })),
            pageInfo: { hasNextPage: hasMore },
          };
        },
      },
      products: {
        type: nn(Connection),
        args: { first: { type: GraphQLInt }, after: { type: GraphQLString } },
        resolve: async (_root, args: { first?: number; after?: string }) => {
          const after = args.after ? Number(Buffer.from(args.after, 'base64url').toString().slice(7)) : undefined;
          const { items, hasMore } = await page(args.first ?? 10, after);
          const edges = items.map((node) => ({ cursor: b64(`cursor:${node.id}`), node }));
          return {
            edges,
            nodes: items,
            pageInfo: {
              hasNextPage: hasMore,
              hasPreviousPage: after !== undefined,
              startCursor: edges[0]?.cursor ?? null,
              endCursor: edges.at(-1)?.cursor ?? null,
            },
          };
        },
      },
    },
  }),
});

const app = Fastify();
app.get('/healthz', () => ({ status: 'ok' }));
// The statement count as the service exposes it (its /metrics histogram's _count).
app.get('/metrics', (_req, reply) =>
  reply.type('text/plain; version=0.0.4').send(`commerce_db_statement_duration_seconds_count ${statements}\n`),
);
app.get('/api/v2/products/:id', async (req, reply) => {
  const [row] = await rows(productByIdQuery(Number((req.params as { id: string }).id), merchantId, false));
  return row ? resource(row) : reply.code(404).send({ error: { code: 'not_found' } });
});
app.get('/api/v2/products', async (req) => {
  const q = req.query as { limit?: string; starting_after?: string };
  const { items, hasMore } = await page(Number(q.limit ?? 10), q.starting_after ? Number(q.starting_after) : undefined);
  return {
    object: 'list',
    data: items.map(resource),
    has_more: hasMore,
    next_cursor: hasMore ? items.at(-1)!.id : null,
  };
});
// As Apollo does: each document text is parsed and validated once (its errors answered as they
// are), then only executed. `/graphql/uncached` is the old baseline, which did both per request.
const documents = new Map<string, DocumentNode | ExecutionResult>();
function documentOf(query: string): DocumentNode | ExecutionResult {
  let known = documents.get(query);
  if (!known) {
    try {
      const document = parse(query);
      const errors = validate(schema, document, specifiedRules);
      known = errors.length ? { errors } : document;
    } catch (err) {
      known = { errors: [err as GraphQLError] };
    }
    if (documents.size < 1000) documents.set(query, known);
  }
  return known;
}
type GraphBody = { query: string; variables?: Record<string, unknown> };
app.post('/graphql', async (req) => {
  const { query, variables } = req.body as GraphBody;
  const document = documentOf(query);
  return 'kind' in document ? execute({ schema, document, variableValues: variables }) : document;
});
app.post('/graphql/uncached', async (req) => {
  const { query, variables } = req.body as GraphBody;
  return graphql({ schema, source: query, variableValues: variables });
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
