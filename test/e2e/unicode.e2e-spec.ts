import { cards, checkoutBody } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * Text that is valid JSON but not valid Unicode (a lone UTF-16 surrogate) or not UTF-8 at all is
 * refused at the edge with 400 `invalid_request` naming the field; astral characters (a surrogate
 * pair each) are ordinary text and are never cut in half.
 */
let t: TestApp;
let api: Client;
let key: string;
let sub: string;
beforeAll(async () => {
  let keys;
  ({ t, keys, api } = await startWithMerchant('Unicode'));
  key = keys.test_api_key;
  const customer = (
    await api.post('/api/v2/customers', { email: 'jane@example.com', first_name: 'Jane', last_name: 'Doe' })
  ).body;
  const pm = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.visa })).body;
  sub = (
    await api.post('/api/v2/subscriptions', {
      customer_id: customer.id,
      payment_method_id: pm.id,
      amount_cents: 1500,
      currency: 'USD',
      interval: 'monthly',
    })
  ).body.id;
  expect(sub).toMatch(/^sub_/);
});
afterAll(() => t.close());

const LONE = ['\ud800', 'a\udc00', 'x\ud83dy'];

test.each([
  ['POST', '/api/v2/products', (s: string) => ({ name: s, price: 500, currency: 'USD' }), 'name'],
  [
    'POST',
    '/api/v2/checkout',
    (s: string) =>
      checkoutBody([['P-1', 'Item', 500, 1]], {
        customer: { email: 'a@example.com', first_name: s, last_name: 'Doe' },
      }),
    'customer.first_name',
  ],
  ['POST', '/api/v2/payment-links', (s: string) => ({ amount: 500, currency: 'USD', description: s }), 'description'],
  ['PUT', '/api/v2/subscriptions/:sub', (s: string) => ({ metadata: { note: s } }), 'metadata.note'],
  [
    'POST',
    '/api/v2/test-helpers/subscriptions/:sub/dispute',
    (s: string) => ({ stage: 'notification', reason: s }),
    'reason',
  ],
  [
    'POST',
    '/api/v2/customers',
    (s: string) => ({ email: 'b@example.com', first_name: 'B', last_name: 'C', metadata: { [s]: 1 } }),
    'metadata.',
  ],
])('%s %s: a lone surrogate is 400 invalid_request naming the field', async (method, template, body, field) => {
  const path = template.replace(':sub', sub);
  for (const lone of LONE) {
    const res = method === 'PUT' ? await api.put(path, body(lone)) : await api.post(path, body(lone));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.param.startsWith(field)).toBe(true);
    expect(res.body.error.message).toMatch(/surrogate/);
  }
});

test('GraphQL: a lone surrogate in a string literal or a variable is refused before it runs', async () => {
  const literal = await api.graphql(
    'mutation { createProduct(input: { name: "\\ud800", price: 500, currency: "USD" }) { product { id } } }',
  );
  expect(literal.status).toBe(400);
  expect(literal.body.errors![0].extensions.code).toBe('invalid_request');
  const variable = await api.graphql(
    'mutation($n: String!) { createProduct(input: { name: $n, price: 500, currency: "USD" }) { product { id } } }',
    { n: 'a\udc00' },
  );
  expect(variable.status).toBe(400);
  expect(variable.body.errors![0].extensions.code).toBe('invalid_request');
  expect((await api.get('/api/v2/products')).body.data).toEqual([]);
});

test('astral names are whole characters: 64 x U+1D518 is stored, explained and listed, never a 500', async () => {
  for (const name of ['𝔘'.repeat(64), '𝔘'.repeat(100), `${'x'.repeat(119)}💊`]) {
    const res = await api.post('/api/v2/products', { name, price: 500, currency: 'USD' });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
    const message: string = res.body.eligibility.message;
    expect(message).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    const quoted = message.match(/'([^']*)'/)![1];
    expect(name.startsWith(quoted.replace(/…$/, ''))).toBe(true);
    expect([...quoted].length).toBeLessThanOrEqual(120);
    const events = await api.graphql('{ events(first: 1) { nodes { type data } } }');
    expect(events.body.data.events.nodes[0]).toMatchObject({ type: 'product.created', data: { name } });
  }
  const check = await api.post('/api/v2/products/check-eligibility', { name: '𝔘'.repeat(64) });
  expect(check.status).toBe(200);
});

test('a JSON body that is not UTF-8 is 400 invalid_request, never stored as U+FFFD', async () => {
  for (const bytes of [Buffer.from([0xff]), Buffer.from([0xc3, 0x28]), Buffer.from([0xed, 0xa0, 0x80])]) {
    const body = Buffer.concat([
      Buffer.from('{"name":"Bandage '),
      bytes,
      Buffer.from('","price":500,"currency":"USD"}'),
    ]);
    const res = await fetch(`${t.url}/api/v2/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/UTF-8/),
    });
  }
  const names = (await api.get('/api/v2/products?limit=100')).body.data.map((p: { name: string }) => p.name);
  expect(names.filter((n: string) => n.includes('\ufffd'))).toEqual([]);
});
