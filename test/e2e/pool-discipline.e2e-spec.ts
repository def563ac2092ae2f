import { randomUUID } from 'node:crypto';
import { toGlobalId } from '../../src/platform/relay/global-id.js';
import { signedInConsole, type ConsoleClient } from '../helpers/console.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { client, type ApiResponse, type Client, type GraphQLErrorBody } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Pool discipline: a unit of work never holds two pooled connections (two per request deadlock
 * the pool under load: each holds a transaction and waits for another). With a pool of 2 and the
 * platform's guard throwing (test/setup-file.js sets DB_POOL_GUARD=throw, so a path that asks for
 * a second connection inside a transaction fails at once), every write route and mutation is
 * driven 20 at a time, with and without Idempotency-Key: no answer is a 5xx, and an unrelated
 * merchant's reads meanwhile are all answered 200, none refused by a starved pool (a 503 after its
 * 10 s acquire timeout); how fast is not a test's bound (speed is bench/'s). The
 * REST table must name every write operation of the OpenAPI document, and the GraphQL table every
 * mutation, so routes added later are covered.
 */

const CONCURRENCY = 20;
/** A barcode (valid check digit) the eligibility-list rounds flag back and forth. */
const LISTED_UPC = '012345000010';
let t: TestApp;
let api: Client;
let other: Client;
/** Settings → API keys is the console's: a signed-in owner of the same merchant. */
let owner: ConsoleClient;

beforeAll(async () => {
  t = await startTestApp({ DB_POOL_MAX: '2' });
  await t.reset();
  const busy = await t.merchant('Busy');
  api = client(t.url, busy.test_api_key);
  owner = await signedInConsole(t, busy.id);
  other = client(t.url, (await t.merchant('Unrelated')).test_api_key);
  expect((await other.post('/api/v2/products', { name: 'Bandages', price: 500, currency: 'USD' })).status).toBe(201);
});
afterAll(() => t.close());

const must = (res: ApiResponse, what: string) => {
  if (res.status >= 300) throw new Error(`could not create ${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body?.data ?? res.body;
};

/** Fresh objects for one round of a route (each call makes its own, so concurrent rounds do not share). */
const make = {
  product: async () => {
    const body = {
      name: 'Thermometer',
      price: 2000,
      currency: 'USD',
      merchant_product_id: `T${randomUUID().slice(0, 8)}`,
    };
    return must(await api.post('/api/v2/products', body), 'product');
  },
  checkout: async () =>
    must(await api.post('/api/v2/checkout', checkoutBody([['THERM', 'Thermometer', 2000, 1]])), 'checkout'),
  order: async () =>
    must(
      await api.post(`/api/v2/test-helpers/checkout/${(await make.checkout()).checkout_id}/pay`, { card: cards.visa }),
      'order',
    ),
  customer: async () =>
    must(
      await api.post('/api/v2/customers', {
        email: `c${randomUUID().slice(0, 8)}@example.com`,
        first_name: 'Pat',
        last_name: 'Doe',
      }),
      'customer',
    ),
  paymentMethod: async (customerId: string) =>
    must(await api.post(`/api/v2/customers/${customerId}/payment-methods`, { card: cards.visa }), 'payment method'),
  subscription: async () => {
    const customer = await make.customer();
    const pm = await make.paymentMethod(customer.id);
    const body = {
      customer_id: customer.id,
      amount_cents: 999,
      currency: 'USD',
      interval: 'monthly',
      payment_method_id: pm.id,
    };
    const sub = must(await api.post('/api/v2/subscriptions', body), 'subscription');
    return { sub, customer, pm };
  },
  /** A paid order with a confirmed chargeback (through the test helper that stores and applies the notification). */
  disputedOrder: async () => {
    const order = await make.order();
    must(await api.post(`/api/v2/test-helpers/orders/${order.id}/dispute`, { stage: 'confirmed' }), 'dispute');
    return order;
  },
  link: async () =>
    must(
      await api.post('/api/v2/payment-links', { amount: 1500, description: 'Consultation', currency: 'USD' }),
      'payment link',
    ),
  endpoint: async () =>
    must(
      await api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['*'] }),
      'webhook endpoint',
    ),
  delivery: async () => {
    const endpoint = await make.endpoint();
    await make.product();
    await t.app.http.jobs.runDue(new Date());
    const list = must(await api.get(`/api/v2/webhook-endpoints/${endpoint.id}/deliveries?limit=1`), 'deliveries');
    return (Array.isArray(list) ? list : list.data)[0];
  },
};

type Call = () => Promise<ApiResponse>;
/** CONCURRENCY calls at once, the i-th made by `call(i)`. */
const round = (call: (i: number) => Call): Call[] => Array.from({ length: CONCURRENCY }, (_, i) => call(i));
/** Builds what the 20 concurrent calls act on (one shared object: contention is the point), then the calls; at once when there is nothing to build. */
type Round = () => Call[] | Promise<Call[]>;
/** Per write operation, its round. */
const rest: Record<string, Round> = {
  createProduct: () =>
    round((i) => () => api.post('/api/v2/products', { name: `P${i}`, price: 100 + i, currency: 'USD' }, key())),
  checkEligibility: async () => {
    const p = await make.product();
    return round(
      () => () =>
        api.post(
          '/api/v2/products/check-eligibility',
          { items: [{ name: 'Digital thermometer' }, { product_id: p.id }] },
          key(),
        ),
    );
  },
  importEligibilityList: async () => {
    await api.post('/api/v2/products', {
      name: 'Listed gauze',
      price: 300,
      currency: 'USD',
      upc_code_or_gtin: LISTED_UPC,
    });
    return round(
      (i) => () =>
        api.post('/api/v2/products/eligibility-list', `upc,hsa_fsa_eligibility\n${LISTED_UPC},${i % 2 ? 'Y' : 'N'}\n`, {
          'content-type': 'text/csv',
          ...key(),
        }),
    );
  },
  updateProduct: async () => {
    const p = await make.product();
    return round((i) => () => api.put(`/api/v2/products/${p.id}`, { price: 1000 + i }, key()));
  },
  archiveProduct: async () => {
    const p = await make.product();
    return round(() => () => api.delete(`/api/v2/products/${p.id}`, key()));
  },
  createCheckout: () =>
    round(() => () => api.post('/api/v2/checkout', checkoutBody([['THERM', 'Thermometer', 2000, 1]]), key())),
  testPayCheckout: async () => {
    const c = await make.checkout();
    return round(
      () => () => api.post(`/api/v2/test-helpers/checkout/${c.checkout_id}/pay`, { card: cards.visa }, key()),
    );
  },
  payCheckout: async () => {
    const c = await make.checkout();
    return round(() => () => api.post(`/api/v2/checkout/${c.checkout_id}/payments`, { card: cards.visa }, key()));
  },
  payCheckoutDetails: async () => {
    const c = await make.checkout();
    return round(
      () => () =>
        api.post(`/api/v2/checkout/${c.checkout_id}/payments/details`, { details: { redirectResult: 'x' } }, key()),
    );
  },
  createRefund: async () => {
    const o = await make.order();
    return round(() => () => api.post('/api/v2/refunds', { order_id: o.id, amount: 100, reason: 'other' }, key()));
  },
  acceptOrderDispute: async () => {
    const o = await make.disputedOrder();
    return round(() => () => api.post(`/api/v2/orders/${o.id}/dispute/accept`, {}, key()));
  },
  defendOrderDispute: async () => {
    const o = await make.disputedOrder();
    return round(
      () => () =>
        api.post(`/api/v2/orders/${o.id}/dispute/defend`, { defense_reason_code: 'SupplyDefenseMaterial' }, key()),
    );
  },
  testDisputeOrder: async () => {
    const o = await make.order();
    return round(
      (i) => () =>
        api.post(`/api/v2/test-helpers/orders/${o.id}/dispute`, { stage: i % 2 ? 'confirmed' : 'notification' }, key()),
    );
  },
  refundCheckoutV1: async () => {
    const o = await make.order();
    const line = o.line_items[0];
    const body = {
      line_items: [{ line_item_id: String(line.id ?? line.line_item_id), quantity: 1, amount_cents: 100 }],
    };
    return round(() => () => api.post(`/v1/checkout/${o.checkout_id}/refund`, body, key()));
  },
  createCustomer: () =>
    round(
      (i) => () =>
        api.post(
          '/api/v2/customers',
          { email: `n${i}-${randomUUID().slice(0, 6)}@example.com`, first_name: 'N', last_name: 'N' },
          key(),
        ),
    ),
  updateCustomer: async () => {
    const c = await make.customer();
    return round((i) => () => api.put(`/api/v2/customers/${c.id}`, { first_name: `Pat${i}` }, key()));
  },
  attachPaymentMethod: async () => {
    const c = await make.customer();
    return round(() => () => api.post(`/api/v2/customers/${c.id}/payment-methods`, { card: cards.visa }, key()));
  },
  detachPaymentMethod: async () => {
    const c = await make.customer();
    const pm = await make.paymentMethod(c.id);
    return round(() => () => api.delete(`/api/v2/customers/${c.id}/payment-methods/${pm.id}`, key()));
  },
  createPaymentMethodSetupLink: async () => {
    const c = await make.customer();
    return round(() => () => api.post(`/api/v2/customers/${c.id}/payment-method-setup-links`, undefined, key()));
  },
  createSubscription: async () => {
    const c = await make.customer();
    const pm = await make.paymentMethod(c.id);
    return round(
      () => () =>
        api.post(
          '/api/v2/subscriptions',
          { customer_id: c.id, amount_cents: 999, currency: 'USD', interval: 'monthly', payment_method_id: pm.id },
          key(),
        ),
    );
  },
  updateSubscription: async () => {
    const { sub } = await make.subscription();
    return round(
      (i) => () =>
        api.put(
          `/api/v2/subscriptions/${sub.id}`,
          { cancel_at_period_end: i % 2 === 0, metadata: { i: String(i) } },
          key(),
        ),
    );
  },
  cancelSubscription: async () => {
    const { sub } = await make.subscription();
    return round(() => () => api.post(`/api/v2/subscriptions/${sub.id}/cancel`, {}, key()));
  },
  resumeSubscription: async () => {
    const { sub } = await make.subscription();
    must(await api.put(`/api/v2/subscriptions/${sub.id}`, { cancel_at_period_end: true }), 'scheduled cancellation');
    return round(() => () => api.post(`/api/v2/subscriptions/${sub.id}/resume`, {}, key()));
  },
  replaceSubscriptionPaymentMethod: async () => {
    const { sub, customer } = await make.subscription();
    const pm = await make.paymentMethod(customer.id);
    return round(
      () => () => api.post(`/api/v2/subscriptions/${sub.id}/payment-method`, { payment_method_id: pm.id }, key()),
    );
  },
  createSubscriptionCardUpdateLink: async () => {
    const { sub } = await make.subscription();
    return round(() => () => api.post(`/api/v2/subscriptions/${sub.id}/card-update-link`, undefined, key()));
  },
  testDisputeSubscription: async () => {
    const { sub } = await make.subscription();
    return round(
      (i) => () =>
        api.post(
          `/api/v2/test-helpers/subscriptions/${sub.id}/dispute`,
          { stage: i % 2 ? 'notification' : 'confirmed' },
          key(),
        ),
    );
  },
  // An unknown review takes the route's whole path to its 404 (a pending one needs a held LMN purchase).
  testApproveLmnReview: () =>
    round(() => () => api.post('/api/v2/test-helpers/lmn-reviews/lmnr_unknown/approve', {}, key())),
  testDeclineLmnReview: () =>
    round(() => () => api.post('/api/v2/test-helpers/lmn-reviews/lmnr_unknown/decline', {}, key())),
  testAdvanceClock: async () => {
    await make.subscription();
    return round(() => () => api.post('/api/v2/test-helpers/advance-clock', { seconds: 3600 }));
  },
  createPaymentLink: () =>
    round(
      () => () =>
        api.post('/api/v2/payment-links', { amount: 1500, description: 'Consultation', currency: 'USD' }, key()),
    ),
  cancelPaymentLink: async () => {
    const l = await make.link();
    return round(() => () => api.post(`/api/v2/payment-links/${l.id}/cancel`, {}, key()));
  },
  testPayPaymentLink: async () => {
    const l = await make.link();
    const body = { card: cards.visa, customer: { email: 'payer@example.com', first_name: 'Pay', last_name: 'Er' } };
    return round(() => () => api.post(`/api/v2/test-helpers/payment-links/${l.id}/pay`, body, key()));
  },
  createWebhookEndpoint: () =>
    round(
      () => () =>
        api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['order.completed'] }, key()),
    ),
  rotateWebhookEndpointSecret: async () => {
    const e = await make.endpoint();
    return round(() => () => api.post(`/api/v2/webhook-endpoints/${e.id}/rotate-secret`, {}, key()));
  },
  disableWebhookEndpoint: async () => {
    const e = await make.endpoint();
    return round(() => () => api.post(`/api/v2/webhook-endpoints/${e.id}/disable`, {}, key()));
  },
  retryWebhookDelivery: async () => {
    const d = await make.delivery();
    return round(() => () => api.post(`/api/v2/webhook-deliveries/${d.id}/retry`, {}, key()));
  },
  updateWebhookEndpoint: async () => {
    const e = await make.endpoint();
    return round(
      (i) => () =>
        api.post(
          `/api/v2/webhook-endpoints/${e.id}`,
          { events: ['order.completed'], metadata: { i: String(i) } },
          key(),
        ),
    );
  },
  patchWebhookEndpoint: async () => {
    const e = await make.endpoint();
    return round(
      (i) => () => api.patch(`/api/v2/webhook-endpoints/${e.id}`, { url: `http://127.0.0.1:9/hook${i}` }, key()),
    );
  },
  deleteWebhookEndpoint: async () => {
    const e = await make.endpoint();
    return round(() => () => api.delete(`/api/v2/webhook-endpoints/${e.id}`, key()));
  },
  enableWebhookEndpoint: async () => {
    const e = await make.endpoint();
    must(await api.post(`/api/v2/webhook-endpoints/${e.id}/disable`), 'disabled endpoint');
    return round(() => () => api.post(`/api/v2/webhook-endpoints/${e.id}/enable`, {}, key()));
  },
  testWebhookEndpoint: async () => {
    const e = await make.endpoint();
    return round(() => () => api.post(`/api/v2/webhook-endpoints/${e.id}/test`, {}, key()));
  },
  recoverWebhookEndpoint: async () => {
    const d = await make.delivery();
    return round(
      () => () =>
        api.post(`/api/v2/webhook-endpoints/${d.endpoint_id}/recover`, { since: '2020-01-01T00:00:00Z' }, key()),
    );
  },
};

const key = () => (Math.random() < 0.5 ? { 'Idempotency-Key': randomUUID() } : undefined);

const gql = (query: string, variables: Record<string, unknown>) => () => api.graphql(query, variables);
const graphql: Record<string, Round> = {
  createProduct: () => {
    const mutation = `mutation($i: CreateProductInput!) { createProduct(input: $i) { product { id } } }`;
    return round((i) => gql(mutation, { i: { name: `G${i}`, price: 100, currency: 'USD' } }));
  },
  updateProduct: async () => {
    const id = toGlobalId('Product', (await make.product()).id);
    return round((i) =>
      gql(`mutation($id: ID!, $i: UpdateProductInput!) { updateProduct(id: $id, input: $i) { product { id } } }`, {
        id,
        i: { price: 200 + i },
      }),
    );
  },
  archiveProduct: async () => {
    const id = toGlobalId('Product', (await make.product()).id);
    return round(() => gql(`mutation($id: ID!) { archiveProduct(id: $id) { product { id } } }`, { id }));
  },
  checkEligibility: () =>
    round(() => gql(`mutation { checkEligibility(input: { name: "Digital thermometer" }) { __typename } }`, {})),
  checkEligibilityBatch: () =>
    round(() =>
      gql(
        `mutation { checkEligibilityBatch(items: [{ name: "Digital thermometer" }, { upcCodeOrGtin: "9520301200141" }]) { __typename } }`,
        {},
      ),
    ),
  importEligibilityList: () =>
    round((i) =>
      gql(`mutation($csv: String!) { importEligibilityList(csv: $csv) { matched } }`, {
        csv: `upc,hsa_fsa_eligibility\n${LISTED_UPC},${i % 2 ? 'eligible' : 'not_eligible'}\n`,
      }),
    ),
  createCheckoutSession: () => {
    const body = checkoutBody([['THERM', 'Thermometer', 2000, 1]]);
    const input = {
      referenceId: body.reference_id,
      customer: { email: 'a@example.com', firstName: 'A', lastName: 'B' },
      lineItems: [{ productId: 'THERM', name: 'Thermometer', price: 2000, quantity: 1, currency: 'USD' }],
      successUrl: body.success_url,
      failureUrl: body.failure_url,
    };
    return round(() =>
      gql(`mutation($i: CreateCheckoutSessionInput!) { createCheckoutSession(input: $i) { __typename } }`, {
        i: input,
      }),
    );
  },
  acceptDispute: async () => {
    const orderId = toGlobalId('Order', (await make.disputedOrder()).id);
    return round(() =>
      gql(`mutation($id: ID!) { acceptDispute(orderId: $id) { dispute { stage } } }`, { id: orderId }),
    );
  },
  defendDispute: async () => {
    const orderId = toGlobalId('Order', (await make.disputedOrder()).id);
    return round(() =>
      gql(
        `mutation($id: ID!) { defendDispute(orderId: $id, defenseReasonCode: "SupplyDefenseMaterial") { dispute { stage } } }`,
        { id: orderId },
      ),
    );
  },
  createRefund: async () => {
    const orderId = toGlobalId('Order', (await make.order()).id);
    return round(() =>
      gql(`mutation($i: CreateRefundInput!) { createRefund(input: $i) { refund { id } } }`, {
        i: { orderId, amount: 100, reason: 'OTHER' },
      }),
    );
  },
  createCustomer: () => {
    const mutation = `mutation($i: CreateCustomerInput!) { createCustomer(input: $i) { customer { id } } }`;
    return round((i) =>
      gql(mutation, { i: { email: `g${i}-${randomUUID().slice(0, 6)}@example.com`, firstName: 'G', lastName: 'G' } }),
    );
  },
  updateCustomer: async () => {
    const id = toGlobalId('Customer', (await make.customer()).id);
    return round((i) =>
      gql(`mutation($i: UpdateCustomerInput!) { updateCustomer(input: $i) { customer { id } } }`, {
        i: { id, firstName: `G${i}` },
      }),
    );
  },
  attachPaymentMethod: async () => {
    const customerId = toGlobalId('Customer', (await make.customer()).id);
    const card = { number: cards.visa.number, expMonth: 12, expYear: 2030, cvc: '123' };
    return round(() =>
      gql(`mutation($i: AttachPaymentMethodInput!) { attachPaymentMethod(input: $i) { paymentMethod { id } } }`, {
        i: { customerId, card },
      }),
    );
  },
  detachPaymentMethod: async () => {
    const c = await make.customer();
    const id = toGlobalId('PaymentMethod', (await make.paymentMethod(c.id)).id);
    return round(() =>
      gql(`mutation($i: DetachPaymentMethodInput!) { detachPaymentMethod(input: $i) { __typename } }`, { i: { id } }),
    );
  },
  createSubscription: async () => {
    const c = await make.customer();
    const pm = await make.paymentMethod(c.id);
    const i = {
      customerId: toGlobalId('Customer', c.id),
      paymentMethodId: toGlobalId('PaymentMethod', pm.id),
      amountCents: 999,
      currency: 'USD',
      interval: 'MONTHLY',
    };
    return round(() =>
      gql(`mutation($i: CreateSubscriptionInput!) { createSubscription(input: $i) { subscription { id } } }`, { i }),
    );
  },
  updateSubscription: async () => {
    const id = toGlobalId('SubscriptionContract', (await make.subscription()).sub.id);
    return Array.from({ length: CONCURRENCY }, (_, n) =>
      gql(`mutation($i: UpdateSubscriptionInput!) { updateSubscription(input: $i) { subscription { id } } }`, {
        i: { id, cancelAtPeriodEnd: n % 2 === 0 },
      }),
    );
  },
  cancelSubscription: async () => {
    const id = toGlobalId('SubscriptionContract', (await make.subscription()).sub.id);
    return round(() =>
      gql(`mutation($i: CancelSubscriptionInput!) { cancelSubscription(input: $i) { subscription { id } } }`, {
        i: { id },
      }),
    );
  },
  resumeSubscription: async () => {
    const { sub } = await make.subscription();
    must(await api.put(`/api/v2/subscriptions/${sub.id}`, { cancel_at_period_end: true }), 'scheduled cancellation');
    const id = toGlobalId('SubscriptionContract', sub.id);
    return round(() =>
      gql(`mutation($i: ResumeSubscriptionInput!) { resumeSubscription(input: $i) { subscription { id } } }`, {
        i: { id },
      }),
    );
  },
  replaceSubscriptionPaymentMethod: async () => {
    const { sub, customer } = await make.subscription();
    const pm = await make.paymentMethod(customer.id);
    const i = { id: toGlobalId('SubscriptionContract', sub.id), paymentMethodId: toGlobalId('PaymentMethod', pm.id) };
    return round(() =>
      gql(
        `mutation($i: ReplaceSubscriptionPaymentMethodInput!) { replaceSubscriptionPaymentMethod(input: $i) { subscription { id } } }`,
        { i },
      ),
    );
  },
  createCardUpdateLink: async () => {
    const i = { subscriptionId: toGlobalId('SubscriptionContract', (await make.subscription()).sub.id) };
    return round(() =>
      gql(`mutation($i: CreateCardUpdateLinkInput!) { createCardUpdateLink(input: $i) { setupLink { id } } }`, { i }),
    );
  },
  createPaymentMethodSetupLink: async () => {
    const i = { customerId: toGlobalId('Customer', (await make.customer()).id) };
    return round(() =>
      gql(
        `mutation($i: CreatePaymentMethodSetupLinkInput!) { createPaymentMethodSetupLink(input: $i) { setupLink { id } } }`,
        { i },
      ),
    );
  },
  createPaymentLink: () => {
    const mutation = `mutation($i: CreatePaymentLinkInput!) { createPaymentLink(input: $i) { __typename } }`;
    return round(() => gql(mutation, { i: { amount: 1500, description: 'Visit', currency: 'USD' } }));
  },
  cancelPaymentLink: async () => {
    const id = toGlobalId('PaymentLink', (await make.link()).id);
    return round(() =>
      gql(`mutation($i: CancelPaymentLinkInput!) { cancelPaymentLink(input: $i) { paymentLink { id } } }`, {
        i: { id },
      }),
    );
  },
  createWebhookEndpoint: () => {
    const mutation = `mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { __typename } }`;
    return round(() => gql(mutation, { i: { url: 'http://127.0.0.1:9/hook', events: ['order.completed'] } }));
  },
  rotateWebhookEndpointSecret: async () => {
    const id = toGlobalId('WebhookEndpoint', (await make.endpoint()).id);
    return round(() =>
      gql(`mutation($i: RotateWebhookEndpointSecretInput!) { rotateWebhookEndpointSecret(input: $i) { __typename } }`, {
        i: { id },
      }),
    );
  },
  disableWebhookEndpoint: async () => {
    const id = toGlobalId('WebhookEndpoint', (await make.endpoint()).id);
    return round(() =>
      gql(`mutation($i: DisableWebhookEndpointInput!) { disableWebhookEndpoint(input: $i) { __typename } }`, {
        i: { id },
      }),
    );
  },
  retryWebhookDelivery: async () => {
    const id = toGlobalId('WebhookDelivery', (await make.delivery()).id);
    return round(() =>
      gql(`mutation($i: RetryWebhookDeliveryInput!) { retryWebhookDelivery(input: $i) { __typename } }`, { i: { id } }),
    );
  },
  updateWebhookEndpoint: async () => {
    const id = toGlobalId('WebhookEndpoint', (await make.endpoint()).id);
    return round((n) =>
      gql(`mutation($i: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $i) { __typename } }`, {
        i: { id, metadata: { n: String(n) } },
      }),
    );
  },
  deleteWebhookEndpoint: async () => {
    const id = toGlobalId('WebhookEndpoint', (await make.endpoint()).id);
    return round(() =>
      gql(`mutation($i: DeleteWebhookEndpointInput!) { deleteWebhookEndpoint(input: $i) { __typename } }`, {
        i: { id },
      }),
    );
  },
  enableWebhookEndpoint: async () => {
    const e = await make.endpoint();
    must(await api.post(`/api/v2/webhook-endpoints/${e.id}/disable`), 'disabled endpoint');
    const id = toGlobalId('WebhookEndpoint', e.id);
    return round(() =>
      gql(`mutation($i: EnableWebhookEndpointInput!) { enableWebhookEndpoint(input: $i) { __typename } }`, {
        i: { id },
      }),
    );
  },
  testWebhookEndpoint: async () => {
    const id = toGlobalId('WebhookEndpoint', (await make.endpoint()).id);
    return round(() =>
      gql(`mutation($i: TestWebhookEndpointInput!) { testWebhookEndpoint(input: $i) { ok } }`, { i: { id } }),
    );
  },
  recoverWebhookEndpoint: async () => {
    const id = toGlobalId('WebhookEndpoint', (await make.delivery()).endpoint_id);
    return round(() =>
      gql(`mutation($i: RecoverWebhookEndpointInput!) { recoverWebhookEndpoint(input: $i) { recovered } }`, {
        i: { id, since: '2020-01-01T00:00:00Z' },
      }),
    );
  },
  createApiKey: () =>
    round(
      (i) => () =>
        owner.graphql(`mutation { createApiKey(input: { name: "K${i}", permissions: ["orders:read"] }) { secret } }`),
    ),
  rollApiKey: async () => {
    const id = (await owner.graphql(`mutation { createApiKey(input: { name: "Rolled" }) { apiKey { id } } }`)).body.data
      .createApiKey.apiKey.id as string;
    return round(() => () => owner.graphql(`mutation($id: ID!) { rollApiKey(id: $id) { secret } }`, { id }));
  },
  inviteTeamMember: () =>
    round(
      (i) => () =>
        owner.graphql(
          `mutation { inviteTeamMember(input: { email: "m${i}-${randomUUID().slice(0, 6)}@team.test", role: VIEWER }) { setupUrl } }`,
        ),
    ),
  changeTeamMemberRole: async () => {
    const id = (
      await owner.graphql(
        `mutation { inviteTeamMember(input: { email: "r-${randomUUID().slice(0, 6)}@team.test", role: VIEWER }) { member { id } } }`,
      )
    ).body.data.inviteTeamMember.member.id as string;
    return round(
      (n) => () =>
        owner.graphql(
          `mutation($id: ID!) { changeTeamMemberRole(id: $id, role: ${n % 2 ? 'SUPPORT' : 'DEVELOPER'}) { member { role } } }`,
          { id },
        ),
    );
  },
  removeTeamMember: async () => {
    const id = (
      await owner.graphql(
        `mutation { inviteTeamMember(input: { email: "x-${randomUUID().slice(0, 6)}@team.test", role: VIEWER }) { member { id } } }`,
      )
    ).body.data.inviteTeamMember.member.id as string;
    return round(() => () => owner.graphql(`mutation($id: ID!) { removeTeamMember(id: $id) { removedId } }`, { id }));
  },
  // The owner is no clinician: refused before any work, on every call (the decisions are tested in lmn-reviews).
  approveLmnReview: () =>
    round(
      () => () =>
        owner.graphql(
          `mutation { approveLmnReview(id: "lmnr_unknown", condition: "Vitamin D deficiency") { __typename } }`,
        ),
    ),
  declineLmnReview: () =>
    round(
      () => () =>
        owner.graphql(`mutation { declineLmnReview(id: "lmnr_unknown", reason: "not indicated") { __typename } }`),
    ),
  updateEmailSettings: () =>
    round(
      (i) => () =>
        owner.graphql(
          `mutation { updateEmailSettings(input: { brandName: "Brand ${i}" }) { settings { brandName } } }`,
        ),
    ),
  revokeApiKey: async () => {
    const id = (await owner.graphql(`mutation { createApiKey(input: { name: "Revoked" }) { apiKey { id } } }`)).body
      .data.createApiKey.apiKey.id as string;
    return round(
      () => () => owner.graphql(`mutation($id: ID!) { revokeApiKey(id: $id) { apiKey { status } } }`, { id }),
    );
  },
};

/** Runs `calls` at once while an unrelated merchant reads, one read after another, each answered 200 (not starved). */
async function drive(calls: Call[]): Promise<ApiResponse[]> {
  let running = true;
  const reads = (async () => {
    do {
      const res = await other.get('/api/v2/products?limit=5');
      expect(res.status).toBe(200);
    } while (running);
  })();
  const answers = await Promise.all(calls.map((call) => call()));
  running = false;
  await reads;
  return answers;
}

/** 5xx answers, and GraphQL errors that are not the spec's 4xx codes (internal_error is the guard's masked throw). */
function serverErrors(answers: ApiResponse[]): unknown[] {
  return answers.flatMap((a) => {
    const failed = (e: GraphQLErrorBody) =>
      e.extensions?.code === 'internal_error' || e.extensions?.code === 'service_unavailable';
    const gqlInternal = ((a.body?.errors ?? []) as GraphQLErrorBody[]).filter(failed);
    return a.status >= 500 || gqlInternal.length ? [{ status: a.status, body: a.body }] : [];
  });
}

test('the REST table names every write operation of the OpenAPI document, the GraphQL table every mutation', async () => {
  const doc = (await api.get('/api/v2/openapi.json')).body;
  const writes = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) =>
    Object.entries(ops)
      .filter(([m]) => m !== 'get')
      .map(([, op]) => op.operationId),
  );
  expect(writes.filter((id) => !(id in rest)).sort()).toEqual([]);
  const types = (await api.graphql(`{ __type(name: "Mutation") { fields { name } } }`)).body.data.__type.fields.map(
    (f: { name: string }) => f.name,
  );
  expect(types.filter((name: string) => !(name in graphql)).sort()).toEqual([]);
});

describe('REST, 20 at a time on a pool of 2', () => {
  test.each(Object.keys(rest))('%s: no 5xx, an unrelated read not starved', async (operation) => {
    const answers = await drive(await rest[operation]());
    expect(serverErrors(answers)).toEqual([]);
  });
});

describe('GraphQL mutations, 20 at a time on a pool of 2', () => {
  test.each(Object.keys(graphql))('%s: no internal errors, an unrelated read not starved', async (mutation) => {
    const answers = await drive(await graphql[mutation]());
    expect(serverErrors(answers)).toEqual([]);
  });
});
