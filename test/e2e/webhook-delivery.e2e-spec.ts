import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../src/modules/webhooks/webhook-signature.js';
import { recordAndRollBack, recordTestEvent } from '../helpers/events.js';
import { client, type Client, type ErrorBody, type Page } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await receiver?.close();
});

const sql = (query: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute(query, params);
const runSweeps = () => t.app.http.jobs.runDue(new Date());

/** An independent receiver-side check (plain createHmac, not the service's signer): the `v1` values that match `secret`. */
function matchingSignatures(rawBody: string, header: string, secret: string): number {
  const parts = header.split(',').map((p) => p.split('='));
  const t = parts.find(([k]) => k === 't')![1];
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return parts.filter(
    ([k, v]) =>
      k === 'v1' &&
      Buffer.from(v, 'hex').length === expected.length &&
      timingSafeEqual(Buffer.from(v, 'hex'), expected),
  ).length;
}

/** What the `standardwebhooks` package (Standard Webhooks' reference verifier) makes of a delivery: its payload, or the error it throws. */
function standardVerify(hit: { rawBody: string; headers: Record<string, unknown> }, secret: string): unknown {
  const headers = Object.fromEntries(Object.entries(hit.headers).map(([k, v]) => [k, String(v)]));
  try {
    return new Webhook(secret).verify(hit.rawBody, headers);
  } catch (err) {
    return err;
  }
}

/** A webhook endpoint as its creation answers it (the only time the secret is shown). */
interface Endpoint {
  id: string;
  secret: string;
}

/** A receiver answering as `respond` says, a new merchant (with its own test clock at zero) and an endpoint of it pointing at the receiver. */
async function setup(respond?: Parameters<typeof startReceiver>[0], events: string[] = ['*']) {
  receiver = await startReceiver(respond);
  const m = await t.merchant();
  const api = client(t.url, m.test_api_key);
  const created = await api.post<Endpoint>('/api/v2/webhook-endpoints', { url: `${receiver.url}/hooks`, events });
  expect(created.status).toBe(201);
  return { m, api, endpoint: created.body };
}

/** A delivery as the endpoint's list gives it (the fields these tests read). */
interface Delivery {
  id: string;
  status: string;
  event_id: string;
  event_type: string;
  attempt_count: number;
  last_response_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  attempts: {
    id: string;
    attempt: number;
    status: string;
    response_status: number | null;
    response_body: string | null;
  }[];
}

async function deliveries(api: Client, endpointId: string, query = 'limit=100') {
  const res = await api.get<Page<Delivery>>(`/api/v2/webhook-endpoints/${endpointId}/deliveries?${query}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Moves the merchant's test clock (its due deliveries are sent on the way). */
async function advance(api: Client, seconds: number) {
  expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds })).status).toBe(200);
}

/** The retry schedule after the first attempt, in seconds: 1 min, 5 min, 30 min, 2 h, 6 h. */
const schedule = [60, 300, 1800, 7200, 21600];

/** A product.created delivered once to a receiver answering 200, as the receiver got it. */
async function deliveredProduct() {
  const { m, api, endpoint } = await setup();
  const product = await api.post<{ id: number }>('/api/v2/products', {
    name: 'Digital thermometer',
    price: 1999,
    currency: 'USD',
  });
  expect(receiver.received).toHaveLength(0); // nothing is sent from inside the request
  await runSweeps();
  const [hit] = await receiver.waitFor(1);
  return { m, api, endpoint, product: product.body, hit, header: String(hit.headers['x-service-signature']) };
}

/** An event whose every attempt the receiver answers 500, taken through the whole schedule: its delivery has failed (a dead letter). */
async function failedDelivery() {
  const { api, endpoint, m } = await setup(() => 500);
  const eventId = await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_retry' });
  await runSweeps();
  for (const seconds of schedule) await advance(api, seconds);
  const [delivery] = await deliveries(api, endpoint.id);
  expect(delivery).toMatchObject({ status: 'failed', attempt_count: 6 });
  return { api, endpoint, eventId, delivery };
}

test('a committed event is POSTed with the envelope and the spec headers', async () => {
  const { endpoint, product, hit, header } = await deliveredProduct();
  expect(hit.path).toBe('/hooks');
  expect(hit.body).toEqual({
    id: expect.stringMatching(/^evt_/),
    type: 'product.created',
    created_at: expect.any(String),
    data: expect.objectContaining({ id: product.id, name: 'Digital thermometer' }),
  });
  expect(Object.keys(hit.body)).toEqual(['id', 'type', 'created_at', 'data']);
  expect(hit.headers['content-type']).toBe('application/json');
  expect(hit.headers['x-service-event']).toBe('product.created');
  expect(hit.headers['x-service-delivery']).toMatch(/^wd_[0-9A-Za-z]{24}$/);
  expect(hit.headers.authorization).toBe(`Bearer ${endpoint.secret}`);
  expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(Math.abs(Number(/t=(\d+)/.exec(header)![1]) - Date.now() / 1000)).toBeLessThan(30);
});

test("the signature is the endpoint's: an independent HMAC and verifyWebhook accept it, and not for a changed body", async () => {
  const { m, endpoint, hit, header } = await deliveredProduct();
  expect(matchingSignatures(hit.rawBody, header, endpoint.secret)).toBe(1);
  expect(matchingSignatures(hit.rawBody, header, m.webhook_secret)).toBe(0);
  expect(verifyWebhook(hit.rawBody, header, endpoint.secret)).toBe(true);
  expect(verifyWebhook(hit.rawBody.replace('thermometer', 'thermometre'), header, endpoint.secret)).toBe(false);
});

test('every delivery carries the Standard Webhooks headers; the standardwebhooks package verifies them with the endpoint secret', async () => {
  const { m, endpoint, hit, header } = await deliveredProduct();
  expect(hit.headers['webhook-id']).toBe(hit.body.id);
  expect(hit.headers['webhook-timestamp']).toBe(/t=(\d+)/.exec(header)![1]);
  expect(hit.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  expect(standardVerify(hit, endpoint.secret)).toEqual(hit.body);
  expect(
    standardVerify({ ...hit, rawBody: hit.rawBody.replace('thermometer', 'thermometre') }, endpoint.secret),
  ).toBeInstanceOf(Error);
  expect(standardVerify(hit, m.webhook_secret)).toBeInstanceOf(Error);
  // The spec's header is unchanged beside them.
  expect(verifyWebhook(hit.rawBody, header, endpoint.secret)).toBe(true);
});

test('webhook-id stays the same on every attempt of a delivery, so a receiver can deduplicate on it', async () => {
  const { api, endpoint, m } = await setup((n) => (n === 0 ? 500 : 200));
  const eventId = await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_dedupe' });
  await runSweeps();
  await advance(api, 60);
  const [first, second] = await receiver.waitFor(2);
  expect([first.headers['webhook-id'], second.headers['webhook-id']]).toEqual([eventId, eventId]);
  expect(first.headers['x-service-delivery']).not.toBe(second.headers['x-service-delivery']);
  expect(standardVerify(second, endpoint.secret)).toEqual(second.body);
});

test('a delivered event is listed as succeeded with its one attempt, and is not sent again', async () => {
  const { api, endpoint, hit } = await deliveredProduct();
  const [delivery] = await deliveries(api, endpoint.id);
  expect(delivery).toMatchObject({
    status: 'succeeded',
    attempt_count: 1,
    event_type: 'product.created',
    event_id: hit.body.id,
    last_response_status: 200,
    next_attempt_at: null,
  });
  const attempt = { id: hit.headers['x-service-delivery'], attempt: 1, status: 'succeeded', response_status: 200 };
  expect(delivery.attempts).toEqual([expect.objectContaining(attempt)]);
  await runSweeps();
  expect(receiver.received).toHaveLength(1);
});

test("each attempt keeps the receiver's answer, on REST and GraphQL", async () => {
  const { api, endpoint, m } = await setup((n) =>
    n === 0 ? { status: 503, body: '{"error":"down for maintenance"}' } : { status: 200, body: 'thanks, got it' },
  );
  await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_answers' });
  await runSweeps();
  await advance(api, 60);
  const [delivery] = await deliveries(api, endpoint.id);
  expect(delivery.attempts.map((a) => [a.status, a.response_status, a.response_body])).toEqual([
    ['failed', 503, '{"error":"down for maintenance"}'],
    ['succeeded', 200, 'thanks, got it'],
  ]);
  const res = await api.graphql<{
    webhookEndpoints: {
      nodes: {
        webhookDeliveries: { nodes: { attempts: { responseStatus: number; responseBody: string | null }[] }[] };
      }[];
    };
  }>(
    '{ webhookEndpoints(first: 1) { nodes { webhookDeliveries(first: 1) { nodes { attempts { responseStatus responseBody } } } } } }',
  );
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data.webhookEndpoints.nodes[0].webhookDeliveries.nodes[0].attempts).toEqual([
    { responseStatus: 503, responseBody: '{"error":"down for maintenance"}' },
    { responseStatus: 200, responseBody: 'thanks, got it' },
  ]);
});

test('only the first 4 KiB of an answer is kept, as text (NUL replaced, no cut character); an endless body does not hold the attempt', async () => {
  // 1 + 6,000 bytes, and the body never ends: the attempt is recorded once 4,096 bytes have come.
  const { api, endpoint, m } = await setup((_n, _req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.write(`\u0000${'é'.repeat(3000)}`);
    return 'hang';
  });
  await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_long_answer' });
  await runSweeps();
  // Recorded as answered once 4 KiB came, not failed by the 10 s timeout the endless body would reach.
  const [delivery] = await deliveries(api, endpoint.id);
  expect(delivery).toMatchObject({ status: 'succeeded', last_response_status: 200 });
  // 4,096 bytes: the NUL (1) and 2,047 whole é (2 each); the half of the 2,048th is dropped.
  expect(delivery.attempts[0].response_body).toBe(`\uFFFD${'é'.repeat(2047)}`);
});

test('only subscribed types, only this merchant and mode; "*" gets everything', async () => {
  const { m, api, endpoint } = await setup(undefined, ['order.completed']);
  const all = await api.post<Endpoint>('/api/v2/webhook-endpoints', { url: `${receiver.url}/all`, events: ['*'] });
  const other = await t.merchant('Other');
  await client(t.url, other.test_api_key).post('/api/v2/webhook-endpoints', {
    url: `${receiver.url}/other`,
    events: ['*'],
  });
  await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_1' });
  await recordTestEvent(t, m.id, 'product.created', { id: 1 });
  await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_live' }, { livemode: true });
  await runSweeps();
  await receiver.waitFor(3);
  await new Promise((r) => setTimeout(r, 100));
  const got = receiver.received.map((r) => `${r.path} ${r.body.type} ${String(r.body.data.id)}`).sort();
  expect(got).toEqual(['/all order.completed ord_1', '/all product.created 1', '/hooks order.completed ord_1']);
  expect(await deliveries(api, endpoint.id)).toHaveLength(1);
  expect(await deliveries(api, all.body.id)).toHaveLength(2);
});

test('a failing delivery is retried at 1 min, 5 min, 30 min, 2 h and 6 h on the test clock, then fails (dead letter)', async () => {
  const { api, endpoint, m } = await setup(() => 500);
  const eventId = await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_retry' });
  await runSweeps();
  expect(receiver.received).toHaveLength(1);
  let [d] = await deliveries(api, endpoint.id);
  expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_response_status: 500, last_error: 'HTTP 500' });
  expect(new Date(d.next_attempt_at!).getTime() - new Date(d.last_attempt_at!).getTime()).toBe(60_000);

  for (const [i, seconds] of schedule.entries()) {
    await advance(api, seconds - 15);
    expect(receiver.received).toHaveLength(i + 1); // not yet due
    await advance(api, 15);
    expect(receiver.received).toHaveLength(i + 2);
  }
  [d] = await deliveries(api, endpoint.id);
  expect(d).toMatchObject({ status: 'failed', attempt_count: 6, next_attempt_at: null });
  expect(d.attempts.map((a) => a.status)).toEqual(Array(6).fill('failed'));
  const ids = receiver.received.map((r) => r.headers['x-service-delivery']);
  expect(new Set(ids).size).toBe(6); // a new X-Service-Delivery per attempt
  expect(d.attempts.map((a) => a.id)).toEqual(ids);
  expect(new Set(receiver.received.map((r) => r.body.id))).toEqual(new Set([eventId]));
  await advance(api, 86_400);
  expect(receiver.received).toHaveLength(6);
}, 30_000);

test('failed deliveries are listed by ?status=failed', async () => {
  const { api, endpoint, delivery } = await failedDelivery();
  expect((await deliveries(api, endpoint.id, 'status=failed')).map((x) => x.id)).toEqual([delivery.id]);
});

test('the retry route queues a failed delivery again; the next sweep sends it', async () => {
  const { api, endpoint, delivery } = await failedDelivery();
  receiver.respondWith(() => 204);
  const retried = await api.post<Delivery>(`/api/v2/webhook-deliveries/${delivery.id}/retry`);
  expect(retried.status).toBe(200);
  expect(retried.body).toMatchObject({ id: delivery.id, status: 'pending' });
  expect(receiver.received).toHaveLength(6); // the route only queues it
  await runSweeps();
  expect(receiver.received).toHaveLength(7);
  const [d] = await deliveries(api, endpoint.id);
  expect(d).toMatchObject({ status: 'succeeded', attempt_count: 7, last_response_status: 204 });
}, 30_000);

test('a succeeded delivery cannot be retried (400 invalid_state); an unknown one is 404', async () => {
  const { api, endpoint } = await deliveredProduct();
  const [d] = await deliveries(api, endpoint.id);
  expect(d.status).toBe('succeeded');
  const again = await api.post<ErrorBody>(`/api/v2/webhook-deliveries/${d.id}/retry`);
  expect(again.status).toBe(400);
  expect(again.body.error.code).toBe('invalid_state');
  expect((await api.post('/api/v2/webhook-deliveries/wd_nope/retry')).status).toBe(404);
});

test('a redirect is a failure (never followed) and is retried', async () => {
  const { api, endpoint, m } = await setup((n, _req, res) => {
    if (n > 0) return 200;
    res.writeHead(302, { location: `${receiver.url}/elsewhere` });
    return 302;
  });
  await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_redirect' });
  await runSweeps();
  let [d] = await deliveries(api, endpoint.id);
  expect(d).toMatchObject({ status: 'pending', last_response_status: 302 });
  expect(d.last_error).toMatch(/redirect/);
  await advance(api, 60);
  [d] = await deliveries(api, endpoint.id);
  expect(d).toMatchObject({ status: 'succeeded', attempt_count: 2 });
  expect(receiver.received.map((r) => r.path)).toEqual(['/hooks', '/hooks']);
});

test('a receiver that hangs past the 10 s timeout fails that attempt; the retry delivers it', async () => {
  const { api, endpoint, m } = await setup((n) => (n === 0 ? 'hang' : 200));
  await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_hang' });
  const started = Date.now();
  await runSweeps();
  // A floor only: the attempt waited out the timeout (how much longer a busy machine takes is no failure).
  expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
  let [d] = await deliveries(api, endpoint.id);
  expect(d).toMatchObject({ status: 'pending', last_response_status: null, last_error: 'timed out after 10000 ms' });
  await advance(api, 60);
  [d] = await deliveries(api, endpoint.id);
  expect(d).toMatchObject({ status: 'succeeded', attempt_count: 2 });
  expect(receiver.received[0].body.id).toBe(receiver.received[1].body.id);
}, 30_000);

test('an unreachable receiver is a network error and is retried', async () => {
  receiver = await startReceiver();
  const m = await t.merchant();
  const api = client(t.url, m.test_api_key);
  await receiver.close();
  const endpoint = (
    await api.post<Endpoint>('/api/v2/webhook-endpoints', { url: `${receiver.url}/gone`, events: ['*'] })
  ).body;
  await recordTestEvent(t, m.id, 'order.completed', {});
  await runSweeps();
  const [d] = await deliveries(api, endpoint.id);
  expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_response_status: null });
  expect(d.last_error).toMatch(/^network error/);
  expect(d.attempts[0]).toMatchObject({ response_status: null, response_body: null });
});

/** An endpoint (receiver answering 200) whose secret was just rotated; `newSecret` is the one the rotation answered. */
async function rotated() {
  const { api, endpoint, m } = await setup();
  const res = await api.post<Endpoint & { previous_secret_expires_at: string }>(
    `/api/v2/webhook-endpoints/${endpoint.id}/rotate-secret`,
  );
  expect(res.status).toBe(200);
  return { api, endpoint, m, res, newSecret: res.body.secret };
}

test('rotate-secret answers a new secret, the old one expiring in 24 hours; reads never show a secret', async () => {
  const { api, endpoint, res, newSecret } = await rotated();
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(endpoint.secret);
  const expires = new Date(res.body.previous_secret_expires_at).getTime();
  expect(Math.abs(expires - Date.now() - 86_400_000)).toBeLessThan(60_000);
  expect((await api.get<Partial<Endpoint>>(`/api/v2/webhook-endpoints/${endpoint.id}`)).body.secret).toBeUndefined();
});

test('for 24 hours after a rotation both secrets sign; the new one is the bearer token', async () => {
  const { endpoint, m, newSecret } = await rotated();
  await recordTestEvent(t, m.id, 'order.completed', { n: 1 });
  await runSweeps();
  const [during] = await receiver.waitFor(1);
  const header = String(during.headers['x-service-signature']);
  expect(header.match(/v1=/g)).toHaveLength(2);
  expect(matchingSignatures(during.rawBody, header, newSecret)).toBe(1);
  expect(matchingSignatures(during.rawBody, header, endpoint.secret)).toBe(1);
  expect(during.headers.authorization).toBe(`Bearer ${newSecret}`);
  // Standard Webhooks: two space-separated signatures, each secret verifies with the package.
  expect(String(during.headers['webhook-signature']).split(' ')).toEqual([
    expect.stringMatching(/^v1,/),
    expect.stringMatching(/^v1,/),
  ]);
  expect(standardVerify(during, newSecret)).toEqual(during.body);
  expect(standardVerify(during, endpoint.secret)).toEqual(during.body);
});

test('24 hours after a rotation only the new secret signs', async () => {
  const { api, endpoint, m, newSecret } = await rotated();
  await advance(api, 86_400 + 1);
  await recordTestEvent(t, m.id, 'order.completed', { n: 2 });
  await runSweeps();
  const [after] = await receiver.waitFor(1);
  const header = String(after.headers['x-service-signature']);
  expect(header.match(/v1=/g)).toHaveLength(1);
  expect(matchingSignatures(after.rawBody, header, newSecret)).toBe(1);
  expect(matchingSignatures(after.rawBody, header, endpoint.secret)).toBe(0);
  expect(verifyWebhook(after.rawBody, header, [endpoint.secret, newSecret])).toBe(true);
  expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
  expect(standardVerify(after, newSecret)).toEqual(after.body);
  expect(standardVerify(after, endpoint.secret)).toBeInstanceOf(Error);
});

test('disabling an endpoint dead-letters its queued deliveries; they are neither sent nor retryable', async () => {
  const { api, endpoint, m } = await setup(() => 503);
  await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_a' });
  await runSweeps(); // first attempt fails: queued for a retry
  await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_b' });
  const disabled = await api.post(`/api/v2/webhook-endpoints/${endpoint.id}/disable`);
  expect(disabled.body).toMatchObject({ id: endpoint.id, status: 'disabled', disabled_at: expect.any(String) });
  await advance(api, 3600);
  expect(receiver.received).toHaveLength(1);
  const list = await deliveries(api, endpoint.id);
  expect(list.map((d) => d.status)).toEqual(['dead_letter']); // ord_b got no delivery: the endpoint was disabled first
  expect(list[0].last_error).toMatch(/endpoint disabled/);
  const retry = await api.post<ErrorBody>(`/api/v2/webhook-deliveries/${list[0].id}/retry`);
  expect(retry.status).toBe(400);
  expect(retry.body.error.code).toBe('invalid_state');
});

test("an event's webhook_url (a checkout's metadata.webhook_url) gets it, signed with the merchant's webhook secret", async () => {
  const { m, api, endpoint } = await setup(undefined, ['order.completed']);
  const eventId = await recordTestEvent(
    t,
    m.id,
    'order.completed',
    { id: 'ord_url' },
    { webhookUrl: `${receiver.url}/checkout-hook` },
  );
  await runSweeps();
  await receiver.waitFor(2);
  const byPath = Object.fromEntries(receiver.received.map((r) => [r.path, r]));
  const hook = byPath['/checkout-hook'];
  expect(hook.body.id).toBe(eventId);
  expect(matchingSignatures(hook.rawBody, String(hook.headers['x-service-signature']), m.webhook_secret)).toBe(1);
  expect(hook.headers.authorization).toBe(`Bearer ${m.webhook_secret}`);
  expect(standardVerify(hook, m.webhook_secret)).toEqual(hook.body);
  const viaEndpoint = byPath['/hooks'];
  expect(
    matchingSignatures(viaEndpoint.rawBody, String(viaEndpoint.headers['x-service-signature']), endpoint.secret),
  ).toBe(1);
  const [row] = await sql(
    `select status, endpoint_id from webhook_deliveries where event_id = ? and endpoint_id is null`,
    [eventId],
  );
  expect(row).toEqual({ status: 'succeeded', endpoint_id: null });
  // The delivery can be found (and replayed) by the X-Service-Delivery id the receiver saw.
  const retried = await api.post<ErrorBody>(
    `/api/v2/webhook-deliveries/${String(hook.headers['x-service-delivery'])}/retry`,
  );
  expect(retried.status).toBe(400);
  expect(retried.body.error.code).toBe('invalid_state');
});

test("a live event's webhook_url must be public https: a local one is refused, not called", async () => {
  const { m } = await setup(undefined, ['order.completed']);
  const live = await recordTestEvent(
    t,
    m.id,
    'order.completed',
    {},
    { livemode: true, webhookUrl: `${receiver.url}/live-hook` },
  );
  await runSweeps();
  expect(await sql(`select id from webhook_deliveries where event_id = ?`, [live])).toEqual([]);
  expect(receiver.received.map((r) => r.path)).not.toContain('/live-hook');
});

test('a rolled-back change has no event and so no delivery', async () => {
  const { m, api, endpoint } = await setup();
  const id = await recordAndRollBack(
    t,
    m.id,
    'order.completed',
    { id: 'ord_rollback' },
    { webhookUrl: `${receiver.url}/url` },
  );
  await runSweeps();
  expect(await sql('select id from events where id = ?', [id])).toEqual([]);
  expect(await deliveries(api, endpoint.id)).toEqual([]);
  expect(receiver.received).toEqual([]);
});

test('two workers sweeping together send every delivery exactly once', async () => {
  const other = await startTestApp();
  try {
    const { m } = await setup();
    const ids = new Set<string>();
    for (let i = 0; i < 120; i++) ids.add(await recordTestEvent(t, m.id, 'order.completed', { i }));
    const now = new Date();
    const workers = [t, other, t, other];
    await Promise.all(workers.map((w) => w.app.http.jobs.runDue(now)));
    await receiver.waitFor(120);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(120);
    expect(new Set(receiver.received.map((r) => r.body.id))).toEqual(ids);
    const [counts] = await sql(
      `select count(*)::int as deliveries, sum(attempt_count)::int as attempts
         from webhook_deliveries d join events e on e.id = d.event_id where e.merchant_id = ?`,
      [m.id],
    );
    expect(counts).toEqual({ deliveries: 120, attempts: 120 });
  } finally {
    await other.close();
  }
});
