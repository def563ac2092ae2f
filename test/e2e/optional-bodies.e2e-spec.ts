import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { cards } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import type { OpenApiDocument } from '../helpers/openapi.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * Where every field of a body is optional the body is too: the service accepts none (no body, or
 * an empty one with a JSON content type) and the OpenAPI document says so; request schemas carry
 * no `default` keyword, so generated request types require only what the server requires.
 */
let t: TestApp;
let api: Client;
let key: string;
/** The document, as these tests read it and as openapi-typescript takes it. */
let doc: OpenApiDocument & OpenAPI3;
beforeAll(async () => {
  let keys;
  ({ t, keys, api } = await startWithMerchant('Optional bodies'));
  key = keys.test_api_key;
  doc = (await api.get<OpenApiDocument & OpenAPI3>('/api/v2/openapi.json')).body;
});
afterAll(() => t.close());

const bodiless = [
  (path: string) => fetch(`${t.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}` } }),
  (path: string) =>
    fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    }),
  (path: string) =>
    fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json; charset=utf-8' },
      body: '',
    }),
];

test('rotate-secret, payment-link cancel and subscription cancel answer 200 without a body', async () => {
  const paths: string[] = [];
  for (let i = 0; i < bodiless.length; i++) {
    const endpoint = (await api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['*'] }))
      .body;
    const link = (
      await api.post('/api/v2/payment-links', { amount: 500, currency: 'USD', description: 'Consultation' })
    ).body;
    const customer = (
      await api.post('/api/v2/customers', { email: `c${i}@example.com`, first_name: 'C', last_name: 'D' })
    ).body;
    const pm = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.visa })).body;
    const sub = (
      await api.post('/api/v2/subscriptions', {
        customer_id: customer.id,
        payment_method_id: pm.id,
        amount_cents: 900,
        currency: 'USD',
        interval: 'monthly',
      })
    ).body;
    paths.push(
      `/api/v2/webhook-endpoints/${endpoint.id}/rotate-secret`,
      `/api/v2/payment-links/${link.id}/cancel`,
      `/api/v2/subscriptions/${sub.id}/cancel`,
    );
    for (const path of paths.slice(-3)) {
      const res = await bodiless[i](path);
      const text = await res.text();
      expect([i, path, res.status, res.status === 200 ? '' : text]).toEqual([i, path, 200, '']);
    }
  }
  // A body that is not an object is still refused.
  const res = await api.post(paths[2], '[]');
  expect(res.status).toBe(400);
});

test('the OpenAPI document marks those bodies optional and states no request-side defaults', () => {
  for (const [path, method] of [
    ['/api/v2/webhook-endpoints/{id}/rotate-secret', 'post'],
    ['/api/v2/payment-links/{id}/cancel', 'post'],
    ['/api/v2/subscriptions/{id}/cancel', 'post'],
  ]) {
    expect([path, doc.paths[path][method].requestBody?.required ?? false]).toEqual([path, false]);
  }
  // Every request body and query parameter: no `default` (openapi-typescript would make the field required).
  const defaults: string[] = [];
  const walk = (v: unknown, at: string) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}/${i}`));
    else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (k === 'default') defaults.push(at);
        else if (k === '$ref' && typeof child === 'string')
          walk(doc.components.schemas[child.split('/').pop()!], `${at} -> ${child}`);
        else walk(child, `${at}/${k}`);
      }
    }
  };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      walk(op.requestBody, `${method} ${path} body`);
      walk(op.parameters, `${method} ${path} parameters`);
    }
  }
  expect(defaults).toEqual([]);
});

test('openapi-typescript (default options) makes those bodies and every defaulted field optional', async () => {
  const types = astToString(await openapiTS(doc));
  const operation = (id: string) =>
    types.slice(types.indexOf(`    ${id}: {`), types.indexOf('\n    };', types.indexOf(`    ${id}: {`)));
  for (const id of ['rotateWebhookEndpointSecret', 'cancelPaymentLink', 'cancelSubscription'])
    expect([id, operation(id)]).toEqual([id, expect.stringContaining('requestBody?: {')]);
  expect(operation('createProduct')).toContain('requestBody: {'); // a body with required fields stays required
  const component = (name: string) =>
    types.slice(
      types.indexOf(`        ${name}: {`),
      types.indexOf('\n        };', types.indexOf(`        ${name}: {`)),
    );
  expect(component('CancelSubscriptionRequest')).toMatch(/cancel_at_period_end\?: boolean/);
  expect(operation('listOrders')).toMatch(/limit\?: /);
});
