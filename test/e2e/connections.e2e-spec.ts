import { cards, checkoutBody } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * The shared Relay cases, run against every connection: forward and backward pages (`first`,
 * `first`+`after`, `last`, `last`+`before`, both cursors), `pageInfo` per the Relay spec, and
 * cursor round trips that must give back the same list in the same order.
 */
let t: TestApp;
let api: Client;
let orderId: string;

beforeAll(async () => {
  ({ t, api } = await startWithMerchant('Connections'));
  for (let i = 0; i < 5; i++)
    expect(
      (
        await api.post('/api/v2/products', {
          name: `Sunscreen ${i}`,
          price: 1000 + i,
          currency: 'USD',
          merchant_product_id: `SUN${i}`,
        })
      ).status,
    ).toBe(201);
  for (let i = 0; i < 5; i++)
    expect(
      (
        await api.post('/api/v2/webhook-endpoints', {
          url: `http://127.0.0.1:9/hooks/${i}`,
          events: ['order.completed'],
        })
      ).status,
    ).toBe(201);
  for (let i = 0; i < 5; i++) {
    const s = (await api.post('/api/v2/checkout', checkoutBody([['SUN0', 'Sunscreen', 3199, 1]]))).body.data;
    const paid = await api.post(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { card: cards.visa });
    expect(paid.status).toBe(200);
    orderId = paid.body.id;
  }
  for (let i = 0; i < 5; i++)
    expect((await api.post('/api/v2/refunds', { order_id: orderId, amount: 100 + i, reason: 'other' })).status).toBe(
      201,
    );
  const customer = (
    await api.post('/api/v2/customers', { email: 'pager@example.com', first_name: 'P', last_name: 'G' })
  ).body;
  for (let i = 0; i < 4; i++)
    expect(
      (await api.post('/api/v2/customers', { email: `pager${i}@example.com`, first_name: 'P', last_name: 'G' })).status,
    ).toBe(201);
  const pm = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.visa })).body;
  for (let i = 0; i < 5; i++)
    expect(
      (await api.post('/api/v2/payment-links', { amount: 100 + i, description: `link ${i}`, currency: 'USD' })).status,
    ).toBe(201);
  for (let i = 0; i < 5; i++) {
    expect(
      (
        await api.post('/api/v2/subscriptions', {
          customer_id: customer.id,
          payment_method_id: pm.id,
          amount_cents: 100 + i,
          currency: 'USD',
          interval: 'monthly',
        })
      ).status,
    ).toBe(201);
  }
});
afterAll(() => t.close());

interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}
interface Conn {
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: PageInfo;
}

/** One connection under test: a query reading it with the four Relay arguments. */
const connections: { name: string; read: (args: Record<string, unknown>) => Promise<Conn> }[] = [
  ...['products', 'orders', 'events', 'webhookEndpoints', 'refunds', 'customers', 'subscriptions', 'paymentLinks'].map(
    (field) => ({
      name: field,
      read: async (args: Record<string, unknown>) => {
        const res = await api.graphql(
          `query($first: Int, $after: String, $last: Int, $before: String) {
          c: ${field}(first: $first, after: $after, last: $last, before: $before) {
            edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
          args,
        );
        expect(res.body.errors).toBeUndefined();
        return res.body.data.c as Conn;
      },
    }),
  ),
  {
    name: 'order.refunds (loaded in memory)',
    read: async (args: Record<string, unknown>) => {
      const res = await api.graphql(
        `query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
          order(id: $id) { c: refunds(first: $first, after: $after, last: $last, before: $before) {
            edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`,
        { id: orderGlobalId, ...args },
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data.order.c as Conn;
    },
  },
];
let orderGlobalId: string;

const ids = (c: Conn) => c.edges.map((e) => e.node.id);

describe.each(connections)('$name', ({ name, read }) => {
  let all: string[];
  beforeAll(async () => {
    if (name.startsWith('order.')) orderGlobalId = Buffer.from(`Order:${orderId}`).toString('base64url');
    const everything = await read({ first: 100 });
    all = ids(everything);
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect(everything.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: everything.edges[0].cursor,
      endCursor: everything.edges.at(-1)!.cursor,
    });
  });

  test('last N without before is the last N items (the oldest), in list order', async () => {
    const page = await read({ last: 2 });
    expect(ids(page)).toEqual(all.slice(-2));
    expect(page.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const whole = await read({ last: 100 });
    expect(ids(whole)).toEqual(all);
    expect(whole.pageInfo.hasPreviousPage).toBe(false);
  });

  test('first+after walks forward and last+before walks backward over the same list', async () => {
    const forward: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: Conn = await read({ first: 2, ...(after && { after }) });
      forward.push(...ids(page));
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(forward).toEqual(all);

    const backward: string[] = [];
    let before: string | null = null;
    for (;;) {
      const page: Conn = await read({ last: 2, ...(before && { before }) });
      backward.unshift(...ids(page));
      expect(page.pageInfo.hasNextPage).toBe(before !== null);
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor;
    }
    expect(backward).toEqual(all);
  });

  test('a forward page and the backward page before it meet exactly', async () => {
    const second = await read({ first: 2, after: (await read({ first: 2 })).pageInfo.endCursor });
    expect(ids(second)).toEqual(all.slice(2, 4));
    const previous = await read({ last: 2, before: second.pageInfo.startCursor });
    expect(ids(previous)).toEqual(all.slice(0, 2));
    expect(previous.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    // Both cursors bound the range: the items strictly between them.
    const between = await read({
      last: 10,
      after: (await read({ first: 1 })).pageInfo.endCursor,
      before: second.pageInfo.endCursor,
    });
    expect(ids(between)).toEqual(all.slice(1, 3));
  });
});

test('a cursor with a non-numeric or unknown id is an invalid_request error (200: the query executed), not a 500', async () => {
  const forged = Buffer.from('cursor:abc').toString('base64url');
  for (const field of ['products', 'orders', 'events']) {
    for (const arg of ['after', 'before']) {
      const res = await api.graphql(
        `query($c: String) { ${field}(${arg}: $c, ${arg === 'after' ? 'first' : 'last'}: 2) { nodes { id } } }`,
        {
          c: field === 'products' ? forged : Buffer.from('cursor:ord_nope').toString('base64url'),
        },
      );
      expect(res.status).toBe(200); // the operation executed: GraphQL over HTTP answers 200 with data null
      expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_request', param: arg });
    }
  }
});
