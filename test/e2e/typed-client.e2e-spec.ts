import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import createClient, { type Middleware } from 'openapi-fetch';
import { OPENAPI_TYPES_FILE, openApiDocument, openApiTypes } from '../../src/cli/openapi-commands.js';
import type { components, paths } from '../generated/api-v2.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * A REST integrator's view: the client is openapi-fetch over the types openapi-typescript
 * generates from the OpenAPI document (`npm run openapi:types`), and nothing else. Every response
 * is also checked against the document at runtime, strictly: each field a response carries is
 * documented, and each documented field is required (a resource always writes every key, null
 * when it has no value), so what the types promise is what arrives.
 */
type Schemas = components['schemas'];
type Card = Schemas['Card'];

const card = (number: string): Card => ({ number, exp_month: 12, exp_year: 2030, cvc: '123' });
const visa = card('4242424242424242');
const hsaVisa = card('4111110000000013');

let t: TestApp;
/** The document the service serves (`GET /api/v2/openapi.json`: not an operation of itself). */
let served: JsonValue;
let problems: ReturnType<typeof documentChecker>;
let api: ReturnType<typeof createClient<paths>>;
/** Every mismatch between a response and the document seen so far: `METHOD /path STATUS: problem`. */
const mismatches: string[] = [];
/** How many responses were checked against the document. */
let checked = 0;

type JsonValue = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** `schema` with every object closed (no undocumented field) and every documented field required. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonValue = {};
  for (const [k, v] of Object.entries(schema))
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as JsonValue).map(([p, s]) => [p, strict(s)]))
        : strict(v);
  if (out.properties) {
    out.additionalProperties = false;
    out.required = Object.keys(out.properties);
  }
  return out;
}

/** What is wrong with `body` as the answer of `method path` with `status`, by the strict document. */
function documentChecker(doc: JsonValue) {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  // Error bodies keep their optional fields (param, details); success bodies are checked strictly.
  const strictDoc = strict(doc) as JsonValue;
  (strictDoc.components as { schemas: JsonValue }).schemas.Error = (
    doc.components as { schemas: JsonValue }
  ).schemas.Error;
  ajv.addSchema({ ...strictDoc, $id: 'openapi' });
  return (method: string, path: string, status: number, body: unknown): string[] => {
    const pointer = (s: string) =>
      `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${s}/content/application~1json/schema`;
    const validate =
      ajv.getSchema(`openapi#${encodeURI(pointer(String(status)))}`) ??
      ajv.getSchema(`openapi#${encodeURI(pointer(`${String(status)[0]}XX`))}`);
    const where = `${method} ${path} ${status}`;
    if (!validate) return [`${where}: status not documented`];
    return validate(body)
      ? []
      : (validate.errors ?? []).map(
          (e: ErrorObject) => `${where}: ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
        );
  };
}

/** Checks each response the client receives against the document, collecting the mismatches. */
function documentedResponses(problems: ReturnType<typeof documentChecker>): Middleware {
  return {
    async onResponse({ request, response, schemaPath }) {
      checked += 1;
      mismatches.push(...problems(request.method, schemaPath, response.status, await response.clone().json()));
      return undefined;
    },
  };
}

beforeAll(async () => {
  let keys;
  ({ t, keys } = await startWithMerchant('Typed client'));
  api = createClient<paths>({ baseUrl: t.url, headers: { authorization: `Bearer ${keys.test_api_key}` } });
  served = (await (await fetch(`${t.url}/api/v2/openapi.json`)).json()) as JsonValue;
  problems = documentChecker(served);
  api.use(documentedResponses(problems));
});
afterAll(() => t.close());

test('the committed client types are what the served OpenAPI document generates (npm run openapi:types)', async () => {
  const generated = await openApiTypes(served);
  expect(generated).toBe(readFileSync(OPENAPI_TYPES_FILE, 'utf8'));
  // …and the CLI builds the same document without a database.
  expect(await openApiTypes(await openApiDocument())).toBe(generated);
});

test('catalog → checkout → pay (split) → refund → subscription → payment link, typed end to end', async () => {
  // Catalog
  const thermometer = await api.POST('/api/v2/products', {
    body: { name: 'Digital thermometer', price: 2000, currency: 'USD', merchant_product_id: 'THERM' },
  });
  expect(thermometer.response.status).toBe(201);
  const product: Schemas['Product'] = thermometer.data!;
  expect(product.eligibility.hsa_fsa_eligible).toBe(true);
  const candy = await api.POST('/api/v2/products', {
    body: { name: 'Chocolate candy', price: 1500, currency: 'USD', merchant_product_id: 'CANDY' },
  });
  expect(candy.data!.eligibility.hsa_fsa_eligible).toBe(false);
  const fetched = await api.GET('/api/v2/products/{id}', { params: { path: { id: product.id } } });
  expect(fetched.data!.id).toBe(product.id);

  // Checkout: one eligible and one regular item is a split
  const checkout = await api.POST('/api/v2/checkout', {
    body: {
      reference_id: 'cart_typed_1',
      customer: { email: 'jane@example.com', first_name: 'Jane', last_name: 'Doe' },
      line_items: [
        { product_id: 'THERM', name: 'Thermometer', price: 2000, quantity: 1, currency: 'USD' },
        { product_id: 'CANDY', name: 'Candy', price: 1500, quantity: 1, currency: 'USD' },
      ],
      shipping_info: { address_line_1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
      success_url: 'https://shop.example.com/thanks',
      failure_url: 'https://shop.example.com/cart',
    },
  });
  expect(checkout.response.status).toBe(201);
  const session: Schemas['CheckoutSession'] = checkout.data!.data;
  expect(session).toMatchObject({
    status: 'open',
    type: 'split',
    amounts: { hsa_amount: 2000, regular_amount: 1500, total: 3500 },
  });

  // Pay with both cards (the hosted page's test helper)
  const paid = await api.POST('/api/v2/test-helpers/checkout/{checkout_id}/pay', {
    params: { path: { checkout_id: session.checkout_id } },
    body: { hsa_fsa_card: hsaVisa, card: visa },
  });
  expect(paid.response.status).toBe(200);
  const order: Schemas['Order'] = paid.data!;
  expect(order).toMatchObject({ status: 'completed', payment_status: 'captured', amount: 3500 });
  expect(order.payments.map((p) => [p.payment_method, p.amount])).toEqual([
    ['hsa_fsa_card', 2000],
    ['card', 1500],
  ]);
  const status = await api.GET('/api/v2/checkout/{checkout_id}', {
    params: { path: { checkout_id: session.checkout_id } },
  });
  expect(status.data!.data.order?.id).toBe(order.id);
  // The strict check can fail: an undocumented field, or a documented one left out
  expect(problems('GET', '/api/v2/orders/{id}', 200, { ...order, extra: 1 })).not.toEqual([]);
  expect(
    problems('GET', '/api/v2/orders/{id}', 200, { ...order, customer: { ...order.customer, phone: undefined } }),
  ).not.toEqual([]);
  expect(problems('GET', '/api/v2/orders/{id}', 200, order)).toEqual([]);

  // Refund part of the order: split between the two cards, then processed by the test clock
  const refund = await api.POST('/api/v2/refunds', {
    body: { order_id: order.id, amount: 3000, reason: 'customer_request' },
  });
  expect(refund.response.status).toBe(201);
  const pending: Schemas['Refund'] = refund.data!.data;
  expect(pending.status).toBe('pending');
  expect(pending.refund_breakdown.hsa_amount + pending.refund_breakdown.regular_amount).toBe(3000);
  expect(pending.refunds.map((p) => p.payment_method).sort()).toEqual(['card', 'hsa_fsa_card']);
  const clock = await api.POST('/api/v2/test-helpers/advance-clock', { body: { seconds: 1 } });
  expect(typeof clock.data!.now).toBe('string');
  const processed = await api.GET('/api/v2/refunds/{id}', { params: { path: { id: pending.id } } });
  expect(processed.data!.data).toMatchObject({ status: 'succeeded', amount: 3000 });
  expect(processed.data!.data.refunds.every((p) => p.success === true && p.processor_refund_id !== null)).toBe(true);
  const refunded = await api.GET('/api/v2/orders/{id}', { params: { path: { id: order.id } } });
  expect(refunded.data!.payment_status).toBe('partially_refunded');
  const list = await api.GET('/api/v2/refunds', { params: { query: { order_id: order.id } } });
  expect(list.data!.data.map((r) => r.id)).toEqual([pending.id]);
  const tooMuch = await api.POST('/api/v2/refunds', { body: { order_id: order.id, amount: 1000, reason: 'other' } });
  expect(tooMuch.response.status).toBe(400);
  expect(tooMuch.error!.error.code).toBe('invalid_amount');

  // Customer, stored card, subscription
  const customer = await api.POST('/api/v2/customers', {
    body: { email: 'sam@example.com', first_name: 'Sam', last_name: 'Lee' },
  });
  expect(customer.response.status).toBe(201);
  const customerId = customer.data!.id;
  const method = await api.POST('/api/v2/customers/{id}/payment-methods', {
    params: { path: { id: customerId } },
    body: { card: hsaVisa },
  });
  expect(method.response.status).toBe(201);
  const pm: Schemas['PaymentMethod'] = method.data!;
  expect(pm).toMatchObject({ type: 'hsa_fsa_card', last4: '0013' });
  const created = await api.POST('/api/v2/subscriptions', {
    body: {
      customer_id: customerId,
      payment_method_id: pm.id,
      merchant_product_id: 'THERM',
      amount_cents: 2000,
      currency: 'USD',
      interval: 'monthly',
    },
  });
  expect(created.response.status).toBe(201);
  const subscription: Schemas['Subscription'] = created.data!;
  expect(subscription).toMatchObject({
    status: 'active',
    product_id: product.id,
    payment_method: { type: 'hsa_fsa_card' },
  });
  const invoice = await api.GET('/v2/subscriptions/{id}/invoices/{invoiceId}', {
    params: { path: { id: subscription.id, invoiceId: subscription.latest_invoice_id! } },
  });
  expect(invoice.response.status).toBe(200);
  const cancelled = await api.POST('/api/v2/subscriptions/{id}/cancel', {
    params: { path: { id: subscription.id } },
    body: { cancel_at_period_end: true },
  });
  expect(cancelled.data!.cancel_at_period_end).toBe(true);
  const subscriptions = await api.GET('/api/v2/subscriptions', { params: { query: { customer_id: customerId } } });
  expect(subscriptions.data!.data.map((s) => s.id)).toEqual([subscription.id]);

  // Payment link for the catalog product, paid with the HSA/FSA card
  const link = await api.POST('/api/v2/payment-links', {
    body: { products: [{ merchant_product_id: 'THERM', quantity: 2 }], currency: 'USD', customer_id: customerId },
  });
  expect(link.response.status).toBe(201);
  const plink: Schemas['PaymentLink'] = link.data!;
  expect(plink).toMatchObject({ status: 'active', amount: 4000, order: null });
  const linkPaid = await api.POST('/api/v2/test-helpers/payment-links/{id}/pay', {
    params: { path: { id: plink.id } },
    body: {
      hsa_fsa_card: hsaVisa,
      client_reference_id: 'typed-1',
      shipping_address: {
        address_line_1: '1 Main St',
        city: 'Austin',
        state: 'TX',
        postal_code: '78701',
        country: 'US',
      },
    },
  });
  expect([linkPaid.response.status, linkPaid.error]).toEqual([200, undefined]);
  const after = await api.GET('/api/v2/payment-links/{id}', { params: { path: { id: plink.id } } });
  expect(after.data).toMatchObject({ status: 'paid', order: { status: 'completed' } });
  // A subscription sold through a payment link: its checkout session carries the plan
  const monthly = await api.POST('/api/v2/payment-links', {
    body: {
      products: [{ merchant_product_id: 'THERM', quantity: 1 }],
      currency: 'USD',
      payment_type: 'subscription',
      subscription: { interval: 'monthly' },
    },
  });
  expect(monthly.data!.subscription).toEqual({ interval: 'monthly', interval_count: 1, trial_period_days: 0 });
  const monthlySession = await api.GET('/api/v2/checkout/{checkout_id}', {
    params: { path: { checkout_id: monthly.data!.checkout_id } },
  });
  const plan: Schemas['CheckoutSession']['subscription'] = monthlySession.data!.data.subscription;
  expect(plan).toEqual({ interval: 'monthly', interval_count: 1, trial_period_days: 0 });
  const links = await api.GET('/api/v2/payment-links', { params: { query: { status: 'paid' } } });
  expect(links.data!.data.map((l) => l.id)).toEqual([plink.id]);

  expect(mismatches).toEqual([]);
  expect(checked).toBe(24);
});
