import { setWebhookResolver } from '../../src/modules/webhooks/webhook-url.js';
import { HOSTILE_URLS, PUBLIC_URLS, stubDns } from '../fixtures/hostile-urls.js';
import { checkoutBody } from '../helpers/fixtures.js';
import { recordTestEvent } from '../helpers/events.js';
import { client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

// Server-side request forgery: in live mode no hostile URL is accepted at registration, and none is ever
// fetched at delivery (checked against the addresses the name resolves to, the connection pinned
// to them). DNS is stubbed (test/fixtures/hostile-urls.ts); the hostile URLs point at a local
// receiver, which must see no connection at all.

let t: TestApp;
let receiver: Receiver;
let hostile: string[];

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  receiver = await startReceiver();
  const port = new URL(receiver.url).port;
  hostile = HOSTILE_URLS.map((u) => u.replace('{port}', port));
  setWebhookResolver(stubDns());
});
afterAll(async () => {
  setWebhookResolver();
  await receiver.close();
  await t.close();
});

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
  t.orm.em.fork().getConnection().execute<T[]>(query, params);
const runSweeps = () => t.app.http.jobs.runDue(new Date());

test(`registration in live mode: ${HOSTILE_URLS.length} hostile URLs are refused as endpoints and as a checkout's metadata.webhook_url`, async () => {
  expect(hostile.length).toBeGreaterThanOrEqual(60);
  const m = await t.merchant();
  const live = client(t.url, m.live_api_key);
  const accepted: string[] = [];
  for (const url of hostile) {
    const endpoint = await live.post('/api/v2/webhook-endpoints', { url, events: ['*'] });
    if (endpoint.status !== 422) accepted.push(`endpoint ${url}: ${endpoint.status}`);
    else expect(endpoint.body.error).toMatchObject({ code: 'validation_error', param: 'url' });
    const checkout = await live.post(
      '/api/v2/checkout',
      checkoutBody([['sku_1', 'Thermometer', 1999, 1]], { metadata: { webhook_url: url } }),
    );
    if (checkout.status !== 422) accepted.push(`checkout ${url}: ${checkout.status}`);
    else expect(checkout.body.error).toMatchObject({ code: 'validation_error', param: 'metadata.webhook_url' });
  }
  expect(accepted).toEqual([]);
  expect(await sql(`select id from webhook_endpoints where merchant_id = ?`, [m.id])).toHaveLength(0);
  expect(await sql(`select id from checkout_sessions where merchant_id = ?`, [m.id])).toHaveLength(0);
  expect(receiver.connections).toBe(0);
});

test('registration in live mode: public addresses and names that resolve only to public addresses are accepted', async () => {
  const m = await t.merchant();
  const live = client(t.url, m.live_api_key);
  for (const url of PUBLIC_URLS) {
    const res = await live.post('/api/v2/webhook-endpoints', { url, events: ['*'] });
    expect([url, res.status]).toEqual([url, 201]);
  }
  const checkout = await live.post(
    '/api/v2/checkout',
    checkoutBody([['sku_1', 'Thermometer', 1999, 1]], { metadata: { webhook_url: 'https://8.8.8.8/hook' } }),
  );
  expect(checkout.status).toBe(201);
  // Disabled before any event: these are real public addresses, and this test sends nothing out.
  await sql(`update webhook_endpoints set status = 'disabled' where merchant_id = ?`, [m.id]);
});

test('delivery in live mode: URLs stored before the rule, rebinding names and event webhook_urls are never fetched; errors reveal no address', async () => {
  const m = await t.merchant();
  const live = client(t.url, m.live_api_key);
  // Endpoints registered under a public name, then pointed at the hostile URL behind the service's back.
  const endpointIds: string[] = [];
  for (const url of hostile) {
    const res = await live.post('/api/v2/webhook-endpoints', { url: 'https://hooks.example.com/hook', events: ['*'] });
    expect(res.status).toBe(201);
    await sql(`update webhook_endpoints set url = ? where id = ?`, [url, res.body.id]);
    endpointIds.push(res.body.id);
  }
  // DNS rebinding: public when registered, loopback when delivered.
  const rebind = await live.post('/api/v2/webhook-endpoints', {
    url: `https://rebind.attacker.example:${new URL(receiver.url).port}/hook`,
    events: ['*'],
  });
  expect(rebind.status).toBe(201);
  endpointIds.push(rebind.body.id);
  await recordTestEvent(t, m.id, 'product.created', { id: 'prod_x' }, { livemode: true });
  // Another merchant (no endpoints): a live event with each hostile URL as its checkout's webhook_url.
  const other = await t.merchant();
  for (const url of hostile)
    await recordTestEvent(t, other.id, 'checkout.created', { id: 'cs_x' }, { webhookUrl: url, livemode: true });
  await runSweeps();

  expect(receiver.connections).toBe(0);
  expect(receiver.received).toHaveLength(0);
  const attempts = await sql<{ status: string; error: string }>(
    `select a.status, a.error from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.merchant_id = ?`,
    [m.id],
  );
  expect(attempts).toHaveLength(endpointIds.length);
  const eventHooks = await sql<{ status: string }>(
    `select a.status from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.merchant_id = ?`,
    [other.id],
  );
  expect(eventHooks.filter((a) => a.status !== 'failed')).toEqual([]);
  expect(attempts.filter((a) => a.status !== 'failed')).toEqual([]);
  // The errors the API shows name no address and no port.
  const port = new URL(receiver.url).port;
  for (const id of endpointIds) {
    const res = await live.get(`/api/v2/webhook-endpoints/${id}/deliveries`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [delivery] = res.body.data;
    const text = JSON.stringify([delivery.last_error, delivery.attempts.map((a: { error: string }) => a.error)]);
    expect(text).not.toContain(port);
    expect(text).not.toMatch(/127\.0\.0\.1|::1|10\.0\.0\.1|169\.254|ECONN/);
  }
  expect(attempts.map((a) => a.error).join('\n')).not.toContain(port);
  const rebound = await live.get(`/api/v2/webhook-endpoints/${rebind.body.id}/deliveries`);
  expect(rebound.body.data[0].attempts[0].error).toMatch(/private or reserved address/);
});

test('redirects are never followed (any mode): a 302 to another receiver reaches nothing there', async () => {
  const target = await startReceiver();
  const redirector = await startReceiver((_n, _req, res) => {
    res.writeHead(302, { location: `${target.url}/stolen` });
    return 302;
  });
  try {
    const m = await t.merchant();
    const api = client(t.url, m.test_api_key);
    const endpoint = await api.post('/api/v2/webhook-endpoints', { url: `${redirector.url}/hook`, events: ['*'] });
    expect(endpoint.status).toBe(201);
    await recordTestEvent(t, m.id, 'product.created', { id: 'prod_x' });
    await runSweeps();
    expect(redirector.received).toHaveLength(1);
    expect(target.connections).toBe(0);
    const deliveries = await api.get(`/api/v2/webhook-endpoints/${endpoint.body.id}/deliveries`);
    expect(deliveries.body.data[0].attempts[0]).toMatchObject({
      response_status: 302,
      error: expect.stringMatching(/redirects are not followed/),
    });
  } finally {
    await target.close();
    await redirector.close();
  }
});

test('test mode keeps local receivers (CONTRACT), and a refused connection says so without its port', async () => {
  const local = await startReceiver();
  const closed = await startReceiver();
  const closedPort = new URL(closed.url).port;
  await closed.close();
  try {
    const m = await t.merchant();
    const api = client(t.url, m.test_api_key);
    const ok = await api.post('/api/v2/webhook-endpoints', { url: `${local.url}/hook`, events: ['*'] });
    const down = await api.post('/api/v2/webhook-endpoints', {
      url: `http://localhost:${closedPort}/hook`,
      events: ['*'],
    });
    expect([ok.status, down.status]).toEqual([201, 201]);
    await recordTestEvent(t, m.id, 'product.created', { id: 'prod_x' });
    await runSweeps();
    await local.waitFor(1);
    const deliveries = await api.get(`/api/v2/webhook-endpoints/${down.body.id}/deliveries`);
    const error = deliveries.body.data[0].attempts[0].error as string;
    expect(error).toBe('network error: connection refused');
    expect(error).not.toContain(closedPort);
  } finally {
    await local.close();
  }
});
