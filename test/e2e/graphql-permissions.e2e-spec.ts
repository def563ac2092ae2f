import { createApiKey } from '../../src/modules/merchants/api-key.service.js';
import { ROLE_PERMISSIONS } from '../../src/modules/merchants/permissions.js';
import { createContext, type ServiceContext } from '../../src/platform/context.js';
import { cards, createProducts, openCheckout, paidOrder } from '../helpers/fixtures.js';
import { collect, wsClient } from '../helpers/graphql-ws.js';
import { client, type Client } from '../helpers/http.js';
import { statementsOf } from '../helpers/sql.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * `@Authorized` on the graph, below the root: a field that another resource's resolver class
 * adds to a type (an order's refunds, payment link, checkout session) needs that resource's read
 * permission wherever it is selected, row by row; a field's own `@Authorized` wins over its
 * class's (a mutation that only reads, a subscription of one prefix). Refusals are the same
 * top-level errors as at the root: 403 `insufficient_permissions`, the permission named, the
 * field's path, null where the field is nullable and bubbling up where it is not.
 */

let t: TestApp;
let api: Client;
let restricted: Client;
let secret: string;
let developer: ServiceContext;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;

beforeAll(async () => {
  const started = await startWithMerchant('Guarded');
  t = started.t;
  api = started.api;
  await createProducts(api, [['SKU-T', 'Digital thermometer', 1999]]);
  for (let i = 0; i < 2; i++) {
    const session = await openCheckout(api, [['SKU-T', 'Digital thermometer', 1999, 1]]);
    const order = await paidOrder(api, session.checkout_id, { hsa_fsa_card: cards.hsa });
    expect(
      (await api.post('/api/v2/refunds', { order_id: order.id, amount: 100, reason: 'customer_request' })).status,
    ).toBe(201);
  }
  developer = createContext(
    t.orm.em,
    {
      merchantId: started.keys.id,
      livemode: false,
      clockOffsetMs: 0,
      keyId: 'usr_dev',
      actor: { kind: 'user', id: 'usr_dev' },
      permissions: ROLE_PERMISSIONS.developer,
    },
    'req_test',
    quiet,
  );
  ({ secret } = await createApiKey(developer, { name: 'Order reader', permissions: ['orders:read', 'webhooks:read'] }));
  restricted = client(t.url, secret);
});

afterAll(() => t.close());

/** The error of a field refused for lacking `permission`, as the graph answered before its check moved out of type-graphql. */
const refused = (permission: string, path: (string | number)[], column: number) => ({
  message: `This API key lacks the ${permission} permission.`,
  locations: [{ line: 1, column }],
  path,
  extensions: { code: 'insufficient_permissions', details: { required_permission: permission } },
});

test("an order's refunds (a non-null field of the refunds resource) are refused, and the refusal fails the page as a non-null field's error does", async () => {
  const res = await restricted.graphql(
    '{ orders(first: 2) { nodes { orderNumber amount refunds(first: 5) { nodes { refundId amount } } } } }',
  );
  expect(res.status).toBe(200);
  expect(res.body.data).toBeNull();
  // The first refusal fails the page (orders is non-null): one error, as graphql-js answers a non-null field's error.
  expect(res.body.errors).toEqual([refused('refunds:read', ['orders', 'nodes', 0, 'refunds'], 49)]);

  // The secret key reads the same page whole.
  const whole = await api.graphql<{ orders: { nodes: { refunds: { nodes: unknown[] } }[] } }>(
    '{ orders(first: 2) { nodes { orderNumber refunds(first: 5) { nodes { refundId amount } } } } }',
  );
  expect(whole.body.errors).toBeUndefined();
  expect(whole.body.data.orders.nodes.map((o) => o.refunds.nodes.length)).toEqual([1, 1]);
});

test("nullable fields of other resources answer null with the refusal; the order's own field resolvers answer", async () => {
  const res = await restricted.graphql<{ orders: { nodes: Record<string, unknown>[] } }>(
    '{ orders(first: 2) { nodes { orderNumber paymentLink { id } checkoutSession { id } payments { amount } lineItems { name product { name } } } } }',
  );
  expect(res.body.data.orders.nodes).toEqual([
    expect.objectContaining({
      paymentLink: null,
      checkoutSession: null,
      payments: [{ amount: 1999 }],
      lineItems: [{ name: 'Digital thermometer', product: { name: 'Digital thermometer' } }],
    }),
    expect.objectContaining({ paymentLink: null, checkoutSession: null, payments: [{ amount: 1999 }] }),
  ]);
  expect(res.body.errors).toEqual([
    refused('payment_links:read', ['orders', 'nodes', 0, 'paymentLink'], 42),
    refused('checkout:read', ['orders', 'nodes', 0, 'checkoutSession'], 61),
    refused('payment_links:read', ['orders', 'nodes', 1, 'paymentLink'], 42),
    refused('checkout:read', ['orders', 'nodes', 1, 'checkoutSession'], 61),
  ]);
});

test("a field's own @Authorized wins over its class's: a mutation that only reads, a subscription of one prefix", async () => {
  // checkEligibility is a products mutation (products:write) that asks only products:read.
  const check = await restricted.graphql(
    'mutation { checkEligibility(input: { name: "Digital thermometer" }) { eligibility { hsaFsaEligible } } }',
  );
  expect(check.body.errors).toEqual([refused('products:read', ['checkEligibility'], 12)]);
  expect(check.body.data).toBeNull();
  const reader = client(
    t.url,
    (await createApiKey(developer, { name: 'Catalog', permissions: ['products:read'] })).secret,
  );
  expect(
    (
      await reader.graphql(
        'mutation { checkEligibility(input: { name: "Digital thermometer" }) { eligibility { hsaFsaEligible } } }',
      )
    ).body,
  ).toEqual({
    data: { checkEligibility: { eligibility: { hsaFsaEligible: true } } },
    extensions: expect.anything(),
  });

  // subscriptionEvents needs subscriptions:read, whatever the events resolver's webhooks:read.
  const ws = wsClient(t.url, secret);
  try {
    const subscriptions = collect(ws, 'subscription { subscriptionEvents { eventId } }');
    await subscriptions.done;
    // graphql-ws sends the refusal without extensions (an error of the subscribe step).
    expect(subscriptions.errors).toEqual([
      [
        {
          message: 'This API key lacks the subscriptions:read permission.',
          locations: [{ line: 1, column: 16 }],
          path: ['subscriptionEvents'],
        },
      ],
    ]);
  } finally {
    await ws.dispose();
  }
});

test('a page reads nothing for the fields the caller may not see', async () => {
  const refusedToo =
    '{ orders(first: 2) { nodes { orderNumber payments { amount } refunds(first: 5) { nodes { refundId } } paymentLink { id } checkoutSession { id } } } }';
  const allowed = '{ orders(first: 2) { nodes { orderNumber payments { amount } } } }';
  expect(await statementsOf(() => restricted.graphql(refusedToo))).toBe(
    await statementsOf(() => restricted.graphql(allowed)),
  );
  // The secret key's page reads the refunds, payment links and checkout sessions too.
  expect(await statementsOf(() => api.graphql(refusedToo))).toBeGreaterThan(
    await statementsOf(() => api.graphql(allowed)),
  );
});
