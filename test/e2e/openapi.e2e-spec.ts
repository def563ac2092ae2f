import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import type { ApiResponse, Client } from '../helpers/http.js';
import type { OpenApiDocument } from '../helpers/openapi.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * The OpenAPI document is valid OpenAPI 3.1, covers every REST route the server registers with
 * a documented success body, and real responses match what it documents.
 */
let t: TestApp;
let api: Client;
let doc: OpenApiDocument;

beforeAll(async () => {
  ({ t, api } = await startWithMerchant('OpenAPI'));
  doc = (await api.get<OpenApiDocument>('/api/v2/openapi.json')).body;
});
afterAll(() => t.close());

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** `/api/v2/orders/:id` → `/api/v2/orders/{id}` */
const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

test('the document is valid OpenAPI 3.1 (a real validator)', async () => {
  expect(doc.openapi).toBe('3.1.0');
  const result = await new Validator().validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test('every REST route the server registers is documented, with a 2xx response body schema', () => {
  const routes = t.app.http
    .registeredRoutes()
    .filter((r) => /^\/(api\/v2|v1|v2)\//.test(r.url) && r.url !== '/api/v2/openapi.json');
  expect(routes.length).toBeGreaterThan(25);
  const missing: string[] = [];
  for (const { method, url } of routes) {
    const op = doc.paths[openapiPath(url)]?.[method.toLowerCase()];
    if (!op) missing.push(`${method} ${url} (not in the document)`);
    const success = op && Object.entries(op.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
    const schema = success && success[1].content?.['application/json']?.schema;
    if (!schema || Object.keys(schema).length === 0) missing.push(`${method} ${url}`);
  }
  expect(missing).toEqual([]);
});

test('request types: fields with defaults are optional; components are not duplicated per direction', () => {
  const schemas = doc.components.schemas;
  expect(Object.keys(schemas).filter((n) => n.endsWith('Input'))).toEqual([]);
  const create = schemas.CreateProductRequest;
  expect(create.required!.sort()).toEqual(['currency', 'name', 'price']);
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const ref: string | undefined = op.requestBody?.content?.['application/json']?.schema?.$ref;
      if (!ref) continue;
      const schema = schemas[ref.split('/').pop()!];
      const defaulted = Object.entries(schema.properties ?? {})
        .filter(([, p]) => 'default' in p)
        .map(([k]) => k);
      for (const field of defaulted)
        expect([`${method} ${path}`, (schema.required ?? []).includes(field)]).toEqual([`${method} ${path}`, false]);
    }
  }
});

test('parameters are typed as the API reads them: product ids are integers, hsa_fsa_eligible a boolean', () => {
  for (const method of ['get', 'put', 'delete']) {
    const id = doc.paths['/api/v2/products/{id}'][method].parameters!.find((p) => p.name === 'id');
    expect(id!.schema.type).toBe('integer');
  }
  const eligible = doc.paths['/api/v2/products'].get.parameters!.find((p) => p.name === 'hsa_fsa_eligible');
  expect(eligible!.schema).toEqual({ type: 'boolean' });
});

describe('real responses match their documented schemas', () => {
  let ajv: Ajv2020;
  beforeAll(() => {
    ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema({ ...doc, $id: 'openapi' });
  });

  /** Validates `res` against the documented schema of `method path` for its status. */
  function expectDocumented(method: string, path: string, res: ApiResponse) {
    const responses = doc.paths[path][method].responses;
    const status = String(res.status) in responses ? String(res.status) : `${String(res.status)[0]}XX`;
    const pointer = `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/responses/${status}/content/application~1json/schema`;
    const validate = ajv.getSchema(`openapi#${encodeURI(pointer)}`);
    expect(validate).toBeDefined();
    const ok = validate!(res.body);
    expect([`${method} ${path} ${res.status}`, ok ? [] : validate!.errors]).toEqual([
      `${method} ${path} ${res.status}`,
      [],
    ]);
  }

  test('products, checkout, test pay, orders, refunds, v1 refund, test clock, errors', async () => {
    const product = await api.post('/api/v2/products', {
      name: 'Digital thermometer',
      price: 3199,
      currency: 'USD',
      merchant_product_id: 'THERM',
    });
    expectDocumented('post', '/api/v2/products', product);
    expectDocumented('get', '/api/v2/products/{id}', await api.get(`/api/v2/products/${product.body.id}`));
    expectDocumented('get', '/api/v2/products', await api.get('/api/v2/products?hsa_fsa_eligible=true'));

    const session = await api.post('/api/v2/checkout', checkoutBody([['THERM', 'Digital thermometer', 3199, 1]]));
    expectDocumented('post', '/api/v2/checkout', session);
    const id = session.body.data.checkout_id;
    expectDocumented('get', '/api/v2/checkout/{checkout_id}', await api.get(`/api/v2/checkout/${id}`));
    const order = await api.post(`/api/v2/test-helpers/checkout/${id}/pay`, { hsa_fsa_card: cards.hsa });
    expectDocumented('post', '/api/v2/test-helpers/checkout/{checkout_id}/pay', order);
    expectDocumented('get', '/api/v2/checkout/{checkout_id}', await api.get(`/api/v2/checkout/${id}`));
    expectDocumented('get', '/api/v2/orders/{id}', await api.get(`/api/v2/orders/${order.body.id}`));
    expectDocumented('get', '/api/v2/orders', await api.get('/api/v2/orders'));

    const refund = await api.post('/api/v2/refunds', { order_id: order.body.id, amount: 1000, reason: 'other' });
    expectDocumented('post', '/api/v2/refunds', refund);
    expectDocumented('get', '/api/v2/refunds/{id}', await api.get(`/api/v2/refunds/${refund.body.data.id}`));
    expectDocumented('get', '/api/v2/refunds', await api.get('/api/v2/refunds'));
    const lineId = order.body.line_items[0].id;
    expectDocumented(
      'post',
      '/v1/checkout/{checkout_id}/refund',
      await api.post(`/v1/checkout/${id}/refund`, {
        line_items: [{ line_item_id: lineId, quantity: 1, amount_cents: 100 }],
      }),
    );
    expectDocumented(
      'post',
      '/api/v2/test-helpers/advance-clock',
      await api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 }),
    );

    expectDocumented('get', '/api/v2/orders/{id}', await api.get('/api/v2/orders/ord_missing'));
  });

  test('subscriptions: create, get, list, update, cancel, invoice, dispute helper', async () => {
    const customer = (
      await api.post('/api/v2/customers', { email: 'sub.doc@example.com', first_name: 'Doc', last_name: 'Umented' })
    ).body;
    const pm = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.visa })).body;
    const created = await api.post('/api/v2/subscriptions', {
      customer_id: customer.id,
      payment_method_id: pm.id,
      amount_cents: 1200,
      currency: 'USD',
      interval: 'monthly',
    });
    expectDocumented('post', '/api/v2/subscriptions', created);
    const id = created.body.id;
    expectDocumented('get', '/api/v2/subscriptions/{id}', await api.get(`/api/v2/subscriptions/${id}`));
    expectDocumented('get', '/api/v2/subscriptions', await api.get('/api/v2/subscriptions'));
    expectDocumented(
      'put',
      '/api/v2/subscriptions/{id}',
      await api.put(`/api/v2/subscriptions/${id}`, { metadata: { a: 1 } }),
    );
    expectDocumented(
      'get',
      '/v2/subscriptions/{id}/invoices/{invoiceId}',
      await api.get(`/v2/subscriptions/${id}/invoices/${created.body.latest_invoice_id}`),
    );
    expectDocumented(
      'post',
      '/api/v2/test-helpers/subscriptions/{id}/dispute',
      await api.post(`/api/v2/test-helpers/subscriptions/${id}/dispute`, { stage: 'notification' }),
    );
    expectDocumented(
      'post',
      '/api/v2/subscriptions/{id}/cancel',
      await api.post(`/api/v2/subscriptions/${id}/cancel`, {}),
    );
    expectDocumented(
      'post',
      '/api/v2/subscriptions',
      await api.post('/api/v2/subscriptions', {
        customer_id: 'cus_nope',
        payment_method_id: pm.id,
        amount_cents: 1,
        currency: 'USD',
        interval: 'daily',
      }),
    );
  });

  test('customers, payment methods and payment links (paid, cancelled)', async () => {
    const customer = await api.post('/api/v2/customers', {
      email: 'doc@example.com',
      first_name: 'Doc',
      last_name: 'Umented',
    });
    expectDocumented('post', '/api/v2/customers', customer);
    const id = customer.body.id;
    expectDocumented('get', '/api/v2/customers/{id}', await api.get(`/api/v2/customers/${id}`));
    expectDocumented('put', '/api/v2/customers/{id}', await api.put(`/api/v2/customers/${id}`, { phone: '+1555' }));
    expectDocumented('get', '/api/v2/customers', await api.get('/api/v2/customers'));
    const pm = await api.post(`/api/v2/customers/${id}/payment-methods`, { card: cards.hsa });
    expectDocumented('post', '/api/v2/customers/{id}/payment-methods', pm);
    expectDocumented(
      'post',
      '/api/v2/customers/{id}/payment-methods',
      await api.post(`/api/v2/customers/${id}/payment-methods`, { card: cards.declined }),
    );
    expectDocumented(
      'get',
      '/api/v2/customers/{id}/payment-methods',
      await api.get(`/api/v2/customers/${id}/payment-methods`),
    );
    expectDocumented(
      'get',
      '/api/v2/customers/{id}/payment-methods/{payment_method_id}',
      await api.get(`/api/v2/customers/${id}/payment-methods/${pm.body.id}`),
    );
    expectDocumented(
      'delete',
      '/api/v2/customers/{id}/payment-methods/{payment_method_id}',
      await api.delete(`/api/v2/customers/${id}/payment-methods/${pm.body.id}`),
    );

    await api.post('/api/v2/products', { name: 'Bandages', price: 500, currency: 'USD', merchant_product_id: 'BAND' });
    const link = await api.post('/api/v2/payment-links', {
      products: [{ merchant_product_id: 'BAND', quantity: 2 }],
      currency: 'USD',
      customer_id: id,
    });
    expectDocumented('post', '/api/v2/payment-links', link);
    const paid = await api.post(`/api/v2/test-helpers/payment-links/${link.body.id}/pay`, {
      hsa_fsa_card: cards.hsa,
      client_reference_id: 'doc-1',
    });
    expectDocumented('post', '/api/v2/test-helpers/payment-links/{id}/pay', paid);
    expectDocumented('get', '/api/v2/payment-links/{id}', await api.get(`/api/v2/payment-links/${link.body.id}`));
    const other = await api.post('/api/v2/payment-links', { amount: 100, description: 'x', currency: 'usd' });
    expectDocumented(
      'post',
      '/api/v2/payment-links/{id}/cancel',
      await api.post(`/api/v2/payment-links/${other.body.id}/cancel`, { reason: 'no' }),
    );
    expectDocumented(
      'post',
      '/api/v2/payment-links/{id}/cancel',
      await api.post(`/api/v2/payment-links/${other.body.id}/cancel`),
    );
    expectDocumented('get', '/api/v2/payment-links', await api.get('/api/v2/payment-links'));
  });

  test('the check can fail: a product is not a documented order, nor an error a product', () => {
    const order = ajv.getSchema(
      `openapi#${encodeURI('/paths/~1api~1v2~1orders~1{id}/get/responses/200/content/application~1json/schema')}`,
    )!;
    expect(order({ id: 1, object: 'product' })).toBe(false);
    const product = ajv.getSchema(
      `openapi#${encodeURI('/paths/~1api~1v2~1products/post/responses/201/content/application~1json/schema')}`,
    )!;
    expect(product({ error: { code: 'not_found', message: 'x' } })).toBe(false);
  });
});

test("the checkout page's example (docs/checkout.md) is a request the API accepts, with the amounts it shows", async () => {
  const readme = await import('node:fs').then((fs) =>
    fs.readFileSync(new URL('../../docs/checkout.md', import.meta.url), 'utf8'),
  );
  const example = /localhost:4000\/api\/v2\/checkout [^\n]*\n[^\n]*-d '(\{[\s\S]*?\})'/.exec(readme);
  expect(example).not.toBeNull();
  await api.post('/api/v2/products', {
    name: 'Digital Thermometer',
    price: 1999,
    currency: 'USD',
    merchant_product_id: 'THERM-1',
  });
  await api.post('/api/v2/products', {
    name: 'Chocolate bar',
    price: 1200,
    currency: 'USD',
    merchant_product_id: 'CANDY-1',
  });
  const res = await api.post('/api/v2/checkout', JSON.parse(example![1]));
  expect(res.status).toBe(201);
  expect(res.body.data).toMatchObject({
    type: 'split',
    amounts: { subtotal: 3199, hsa_amount: 1999, regular_amount: 1700, shipping: 500, total: 3699 },
  });
});
