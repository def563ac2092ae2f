import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../src/modules/webhooks/webhook-signature.js';
import { toGlobalId } from '../../src/platform/relay/global-id.js';
import { recordTestEvent } from '../helpers/events.js';
import { client, type Client, type ErrorBody, type Page } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** The events API (`GET /api/v2/events…`) and an endpoint's lifecycle: update, delete, enable, test, recover; REST and GraphQL. */

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

const runSweeps = () => t.app.http.jobs.runDue(new Date());

interface Endpoint {
  id: string;
  secret: string;
  url: string;
  events: string[];
  status: string;
}
interface Envelope {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}
interface Delivery {
  id: string;
  status: string;
  event_id: string;
  attempt_count: number;
}

/** A receiver, a new merchant and an endpoint of it pointing at the receiver. */
async function setup(respond?: Parameters<typeof startReceiver>[0], events: string[] = ['*']) {
  receiver = await startReceiver(respond);
  const m = await t.merchant();
  const api = client(t.url, m.test_api_key);
  const created = await api.post<Endpoint>('/api/v2/webhook-endpoints', { url: `${receiver.url}/hooks`, events });
  expect(created.status).toBe(201);
  return { m, api, endpoint: created.body };
}

async function deliveries(api: Client, endpointId: string) {
  const res = await api.get<Page<Delivery>>(`/api/v2/webhook-endpoints/${endpointId}/deliveries?limit=100`);
  expect(res.status).toBe(200);
  return res.body.data;
}

const headersOf = (hit: { headers: Record<string, unknown> }) =>
  Object.fromEntries(Object.entries(hit.headers).map(([k, v]) => [k, String(v)]));

describe('events API', () => {
  test('GET /api/v2/events lists newest first in the webhook envelope, pages by event id, filters by type and created_at', async () => {
    const { m, api } = await setup();
    const ids: string[] = [];
    for (const [i, type] of ['order.completed', 'product.created', 'order.completed', 'refund.succeeded'].entries()) {
      ids.push(await recordTestEvent(t, m.id, type, { n: i }));
      await new Promise((r) => setTimeout(r, 15));
    }
    const all = await api.get<Page<Envelope>>('/api/v2/events?limit=100');
    expect(all.status).toBe(200);
    expect(all.body.data.map((e) => e.id)).toEqual([...ids].reverse());
    expect(Object.keys(all.body.data[0])).toEqual(['id', 'type', 'created_at', 'data']);
    expect(all.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });

    const first = await api.get<Page<Envelope>>('/api/v2/events?limit=3');
    expect(first.body.data.map((e) => e.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: ids[1] });
    const second = await api.get<Page<Envelope>>(`/api/v2/events?limit=3&starting_after=${first.body.next_cursor}`);
    expect(second.body.data.map((e) => e.id)).toEqual([ids[0]]);
    expect(second.body.has_more).toBe(false);

    const orders = await api.get<Page<Envelope>>('/api/v2/events?type=order.completed');
    expect(orders.body.data.map((e) => e.id)).toEqual([ids[2], ids[0]]);

    const one = (await api.get<Envelope>(`/api/v2/events/${ids[1]}`)).body;
    expect(one).toEqual(all.body.data[2]);
    const after = encodeURIComponent(one.created_at);
    const newer = await api.get<Page<Envelope>>(`/api/v2/events?created_after=${after}`);
    expect(newer.body.data.map((e) => e.id)).toEqual([ids[3], ids[2], ids[1]]);
    const older = await api.get<Page<Envelope>>(`/api/v2/events?created_before=${after}`);
    expect(older.body.data.map((e) => e.id)).toEqual([ids[1], ids[0]]);

    // GraphQL's events connection takes the same bounds, by the same rule.
    const window = await api.graphql<{ events: { edges: { node: { eventId: string } }[] } }>(
      `query($a: DateTimeISO, $b: DateTimeISO) { events(first: 10, createdAfter: $a, createdBefore: $b) { edges { node { eventId } } } }`,
      { a: one.created_at, b: all.body.data[1].created_at },
    );
    expect(window.body.errors).toBeUndefined();
    expect(window.body.data?.events.edges.map((e) => e.node.eventId)).toEqual([ids[2], ids[1]]);
    const reversed = await api.graphql(
      `query($a: DateTimeISO, $b: DateTimeISO) { events(first: 10, createdAfter: $a, createdBefore: $b) { edges { cursor } } }`,
      {
        a: all.body.data[1].created_at,
        b: one.created_at,
      },
    );
    expect(reversed.body.errors?.[0].extensions?.code).toBe('invalid_request');
  });

  test('the envelope is the one the webhook carried', async () => {
    const { api } = await setup();
    await api.post('/api/v2/products', { name: 'Digital thermometer', price: 1999, currency: 'USD' });
    await runSweeps();
    const [hit] = await receiver.waitFor(1);
    expect((await api.get<Envelope>(`/api/v2/events/${hit.body.id}`)).body).toEqual(hit.body);
  });

  test('bad queries are 400 invalid_request; unknown or foreign events are 404; another merchant sees none of them', async () => {
    const { m, api } = await setup();
    const id = await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_secret' });
    for (const query of [
      'limit=0',
      'created_after=yesterday',
      'starting_after=evt_nope',
      'colour=red',
      'created_after=2030-01-01T00:00:00Z&created_before=2020-01-01T00:00:00Z',
    ]) {
      const res = await api.get<ErrorBody>(`/api/v2/events?${query}`);
      expect([query, res.status, res.body.error.code]).toEqual([query, 400, 'invalid_request']);
    }
    const other = client(t.url, (await t.merchant('Other')).test_api_key);
    expect((await other.get<Page<Envelope>>('/api/v2/events')).body.data).toEqual([]);
    expect((await other.get(`/api/v2/events/${id}`)).status).toBe(404);
    expect((await other.get<ErrorBody>(`/api/v2/events?starting_after=${id}`)).status).toBe(400);
    expect((await api.get(`/api/v2/events/evt_unknown`)).status).toBe(404);
    // Live mode is another account of events.
    expect((await client(t.url, m.live_api_key).get(`/api/v2/events/${id}`)).status).toBe(404);
  });
});

describe('endpoint lifecycle (REST)', () => {
  test('POST and PATCH update url and events; the new url is vetted as on create; later events go to the new url and types only', async () => {
    const { m, api, endpoint } = await setup();
    const updated = await api.post<Endpoint>(`/api/v2/webhook-endpoints/${endpoint.id}`, {
      url: `${receiver.url}/moved`,
      events: ['order.completed'],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: endpoint.id, url: `${receiver.url}/moved`, events: ['order.completed'] });
    expect(updated.body).not.toHaveProperty('secret');
    const patched = await api.patch<Endpoint>(`/api/v2/webhook-endpoints/${endpoint.id}`, {
      description: 'fulfilment',
    });
    expect(patched.body).toMatchObject({
      url: `${receiver.url}/moved`,
      events: ['order.completed'],
      description: 'fulfilment',
    });
    const refused = await api.patch<ErrorBody>(`/api/v2/webhook-endpoints/${endpoint.id}`, {
      url: 'http://10.0.0.1/hooks',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.param).toBe('url');
    expect((await api.patch<ErrorBody>(`/api/v2/webhook-endpoints/${endpoint.id}`, { events: [] })).status).toBe(422);
    expect((await api.patch<ErrorBody>(`/api/v2/webhook-endpoints/${endpoint.id}`, { secret: 'whsec_x' })).status).toBe(
      422,
    );
    await recordTestEvent(t, m.id, 'product.created', { id: 1 });
    await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_1' });
    await runSweeps();
    await receiver.waitFor(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received.map((r) => `${r.path} ${r.body.type}`)).toEqual(['/moved order.completed']);
  });

  test('DELETE dead-letters queued deliveries, then the endpoint is 404 and out of the list; nothing more is sent', async () => {
    const { m, api, endpoint } = await setup(() => 503);
    await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_a' });
    await runSweeps();
    const [queued] = await deliveries(api, endpoint.id);
    expect(queued.status).toBe('pending');
    const deleted = await api.delete<{ id: string; deleted: boolean }>(`/api/v2/webhook-endpoints/${endpoint.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    const delivery = await api.post<ErrorBody>(`/api/v2/webhook-deliveries/${queued.id}/retry`);
    expect(delivery.body.error.code).toBe('invalid_state');
    expect((await api.get(`/api/v2/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v2/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await api.get<Page<Endpoint>>('/api/v2/webhook-endpoints')).body.data).toEqual([]);
    const [row] = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select status, last_error from webhook_deliveries where id = ?`, [queued.id]);
    expect(row).toEqual({ status: 'dead_letter', last_error: 'HTTP 503; endpoint deleted' });
    await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_b' });
    await api.post('/api/v2/test-helpers/advance-clock', { seconds: 3600 });
    expect(receiver.received).toHaveLength(1);
  });

  test('enable sends to a disabled endpoint again', async () => {
    const { m, api, endpoint } = await setup();
    expect((await api.post(`/api/v2/webhook-endpoints/${endpoint.id}/disable`)).status).toBe(200);
    await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_off' });
    await runSweeps(); // dispatched while disabled: no delivery
    const enabled = await api.post<Endpoint>(`/api/v2/webhook-endpoints/${endpoint.id}/enable`);
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_at: null });
    const id = await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_on' });
    await runSweeps();
    await receiver.waitFor(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received.map((r) => r.body.id)).toEqual([id]);
  });

  test('test sends a signed webhook_endpoint.test at once (both signatures during a rotation) and answers the outcome; it is not recorded', async () => {
    const { api, endpoint } = await setup();
    const sent = await api.post<{ ok: boolean; response_status: number; event: Envelope; delivery_id: string }>(
      `/api/v2/webhook-endpoints/${endpoint.id}/test`,
    );
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ object: 'webhook_endpoint_test', ok: true, response_status: 200, error: null });
    expect(receiver.received).toHaveLength(1); // already there: no sweep ran
    const [hit] = receiver.received;
    expect(hit.body).toEqual(sent.body.event);
    expect(hit.body).toMatchObject({ type: 'webhook_endpoint.test', data: { id: endpoint.id } });
    expect(hit.headers['x-service-delivery']).toBe(sent.body.delivery_id);
    expect(verifyWebhook(hit.rawBody, String(hit.headers['x-service-signature']), endpoint.secret)).toBe(true);
    expect(new Webhook(endpoint.secret).verify(hit.rawBody, headersOf(hit))).toEqual(hit.body);
    expect((await api.get(`/api/v2/events/${hit.body.id}`)).status).toBe(404);

    const rotated = await api.post<Endpoint>(`/api/v2/webhook-endpoints/${endpoint.id}/rotate-secret`);
    const typed = await api.post<{ event: Envelope }>(`/api/v2/webhook-endpoints/${endpoint.id}/test`, {
      type: 'order.completed',
    });
    expect(typed.body.event.type).toBe('order.completed');
    const during = receiver.received[1];
    for (const secret of [endpoint.secret, rotated.body.secret])
      expect(new Webhook(secret).verify(during.rawBody, headersOf(during))).toEqual(during.body);
    expect(
      (await api.post<ErrorBody>(`/api/v2/webhook-endpoints/${endpoint.id}/test`, { type: 'Not A Type' })).status,
    ).toBe(422);

    receiver.respondWith(() => 500);
    const failing = await api.post(`/api/v2/webhook-endpoints/${endpoint.id}/test`);
    expect(failing.body).toMatchObject({ ok: false, response_status: 500, error: 'HTTP 500' });
    await api.post(`/api/v2/webhook-endpoints/${endpoint.id}/disable`);
    expect((await api.post<ErrorBody>(`/api/v2/webhook-endpoints/${endpoint.id}/test`)).body.error.code).toBe(
      'invalid_state',
    );
  });

  test('a test event of a real type carries a sample object of that type, not the endpoint', async () => {
    const { api, endpoint } = await setup();
    const order = await api.post<{ event: Envelope }>(`/api/v2/webhook-endpoints/${endpoint.id}/test`, {
      type: 'order.completed',
    });
    expect(order.body.event).toMatchObject({
      type: 'order.completed',
      data: { id: expect.stringMatching(/^ord_/), status: 'completed', line_items: expect.any(Array) },
    });
    const refund = await api.post<{ event: Envelope }>(`/api/v2/webhook-endpoints/${endpoint.id}/test`, {
      type: 'refund.succeeded',
    });
    expect(refund.body.event.data).toMatchObject({
      id: expect.stringMatching(/^re_/),
      order_id: expect.stringMatching(/^ord_/),
      payment_status: expect.any(String),
    });
    expect(receiver.received.map((r) => r.body.data.id)).not.toContain(endpoint.id);
  });

  test('unknown event types are refused, naming the valid ones: endpoint create, update and test', async () => {
    const { api, endpoint } = await setup();
    const refusals = [
      await api.post<ErrorBody>('/api/v2/webhook-endpoints', {
        url: `${receiver.url}/hooks`,
        events: ['order.complete'],
      }),
      await api.patch<ErrorBody>(`/api/v2/webhook-endpoints/${endpoint.id}`, {
        events: ['order.completed', 'order.complete'],
      }),
      await api.post<ErrorBody>(`/api/v2/webhook-endpoints/${endpoint.id}/test`, { type: 'nope.nope' }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toMatch(
        /(order\.complete|nope\.nope) is not an event type; the event types are .*order\.completed.*refund\.succeeded/,
      );
    }
    expect((await api.get<Endpoint>(`/api/v2/webhook-endpoints/${endpoint.id}`)).body.events).toEqual(['*']);
    expect(receiver.received).toHaveLength(0);
  });

  test('recover re-queues every failed delivery since the given time (not older ones, not succeeded ones); the next sweep sends them', async () => {
    const { m, api, endpoint } = await setup(() => 500);
    const old = await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_old' });
    await new Promise((r) => setTimeout(r, 20));
    const since = new Date().toISOString();
    const recent = [
      await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_1' }),
      await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_2' }),
    ];
    await runSweeps();
    for (const seconds of [60, 300, 1800, 7200, 21600])
      await api.post('/api/v2/test-helpers/advance-clock', { seconds });
    expect((await deliveries(api, endpoint.id)).map((d) => d.status)).toEqual(['failed', 'failed', 'failed']);
    const before = receiver.received.length;
    receiver.respondWith(() => 200);
    const res = await api.post(`/api/v2/webhook-endpoints/${endpoint.id}/recover`, { since });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'webhook_endpoint_recovery', endpoint_id: endpoint.id, since, recovered: 2 });
    await runSweeps();
    await receiver.waitFor(before + 2);
    expect(
      receiver.received
        .slice(before)
        .map((r) => r.body.id)
        .sort(),
    ).toEqual([...recent].sort());
    const byEvent = Object.fromEntries((await deliveries(api, endpoint.id)).map((d) => [d.event_id, d.status]));
    expect(byEvent).toEqual({ [old]: 'failed', [recent[0]]: 'succeeded', [recent[1]]: 'succeeded' });
    expect((await api.post(`/api/v2/webhook-endpoints/${endpoint.id}/recover`, { since })).body.recovered).toBe(0);
    expect((await api.post<ErrorBody>(`/api/v2/webhook-endpoints/${endpoint.id}/recover`, {})).status).toBe(422);
  });

  test("merchant B can neither read, change, test, recover nor delete A's endpoint", async () => {
    const { endpoint } = await setup();
    const b = client(t.url, (await t.merchant('B')).test_api_key);
    for (const [method, path, body] of [
      ['post', '', { events: ['order.completed'] }],
      ['patch', '', { events: ['order.completed'] }],
      ['post', '/enable', {}],
      ['post', '/test', {}],
      ['post', '/recover', { since: '2020-01-01T00:00:00Z' }],
    ] as const) {
      const res = await b[method](`/api/v2/webhook-endpoints/${endpoint.id}${path}`, body);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect((await b.delete(`/api/v2/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('auto-disable', () => {
  const advance = async (api: Client, seconds: number) =>
    expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds })).status).toBe(200);
  const status = async (api: Client, id: string) =>
    (await api.get<Endpoint>(`/api/v2/webhook-endpoints/${id}`)).body.status;

  test('an endpoint that failed every attempt for 3 days is disabled, its queued deliveries dead-lettered, webhook_endpoint.disabled recorded', async () => {
    const { m, api, endpoint } = await setup(() => 500);
    const first = await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_1' });
    await runSweeps();
    await advance(api, 2 * 86_400); // the second attempt fails: 2 days of failures
    expect(await status(api, endpoint.id)).toBe('enabled');
    await advance(api, 86_400 + 60); // the third fails 3 days after the first
    expect(await status(api, endpoint.id)).toBe('disabled');
    const events = (await api.get<Page<Envelope>>('/api/v2/events?type=webhook_endpoint.disabled')).body.data;
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ id: endpoint.id, reason: 'failing', failing_since: expect.any(String) });
    const [delivery] = await deliveries(api, endpoint.id);
    expect(delivery).toMatchObject({ event_id: first, status: 'dead_letter', attempt_count: 3 });
    // A later event gets no delivery; enabled again, the endpoint starts a new streak.
    await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_2' });
    await runSweeps();
    expect(await deliveries(api, endpoint.id)).toHaveLength(1);
    await api.post(`/api/v2/webhook-endpoints/${endpoint.id}/enable`);
    await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_3' });
    await runSweeps();
    expect(await status(api, endpoint.id)).toBe('enabled');
    expect(receiver.received).toHaveLength(4);
  });

  test('a success within the 3 days starts the count again', async () => {
    const { m, api, endpoint } = await setup(() => 500);
    await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_1' });
    await runSweeps();
    await advance(api, 2 * 86_400);
    receiver.respondWith(() => 200);
    await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_2' });
    await runSweeps();
    receiver.respondWith(() => 500);
    await advance(api, 36 * 3600);
    await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_3' });
    await runSweeps();
    expect(await status(api, endpoint.id)).toBe('enabled');
    expect((await api.get<Page<Envelope>>('/api/v2/events?type=webhook_endpoint.disabled')).body.data).toEqual([]);
  });

  test('six concurrent advance-clock calls past the 3 days all answer 200, and each failing endpoint is disabled once', async () => {
    receiver = await startReceiver(() => 500);
    // A few merchants in a row: the sweeps of six calls race each time, over several endpoints and their deliveries.
    for (let round = 0; round < 3; round++) {
      const m = await t.merchant();
      const api = client(t.url, m.test_api_key);
      const endpoints: Endpoint[] = [];
      for (let i = 0; i < 4; i++)
        endpoints.push(
          (await api.post<Endpoint>('/api/v2/webhook-endpoints', { url: `${receiver.url}/hooks/${i}`, events: ['*'] }))
            .body,
        );
      for (let i = 0; i < 10; i++) await recordTestEvent(t, m.id, 'order.completed', { id: `ord_${i}` });
      await runSweeps();
      await advance(api, 2 * 86_400);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => api.post('/api/v2/test-helpers/advance-clock', { seconds: 12 * 3600 })),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const disabled = (await api.get<Page<Envelope>>('/api/v2/events?type=webhook_endpoint.disabled&limit=100')).body
        .data;
      expect(disabled.map((e) => e.data.id).sort()).toEqual(endpoints.map((e) => e.id).sort());
    }
  });
});

describe('endpoint lifecycle (GraphQL)', () => {
  test('updateWebhookEndpoint, testWebhookEndpoint, recoverWebhookEndpoint, enableWebhookEndpoint, deleteWebhookEndpoint', async () => {
    const { api, endpoint } = await setup();
    const id = toGlobalId('WebhookEndpoint', endpoint.id);
    const update = await api.graphql<{ updateWebhookEndpoint: { webhookEndpoint: { url: string; events: string[] } } }>(
      `mutation($i: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $i) { webhookEndpoint { url events } } }`,
      { i: { id, url: `${receiver.url}/gql`, events: ['order.completed'] } },
    );
    expect(update.body.data.updateWebhookEndpoint.webhookEndpoint).toEqual({
      url: `${receiver.url}/gql`,
      events: ['order.completed'],
    });
    const test = await api.graphql<{ testWebhookEndpoint: { ok: boolean; eventType: string; responseStatus: number } }>(
      `mutation($i: TestWebhookEndpointInput!) { testWebhookEndpoint(input: $i) { ok eventType responseStatus } }`,
      { i: { id } },
    );
    expect(test.body.data.testWebhookEndpoint).toEqual({
      ok: true,
      eventType: 'webhook_endpoint.test',
      responseStatus: 200,
    });
    const unknown = await api.graphql<{
      updateWebhookEndpoint: { userErrors: { field: string[]; message: string }[] };
    }>(
      `mutation($i: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $i) { userErrors { field message } } }`,
      { i: { id, events: ['order.complete'] } },
    );
    expect(unknown.body.data.updateWebhookEndpoint.userErrors).toEqual([
      {
        field: expect.arrayContaining(['events']),
        message: expect.stringMatching(/order\.complete is not an event type; the event types are/),
      },
    ]);
    expect(receiver.received.map((r) => r.path)).toEqual(['/gql']);
    const recover = await api.graphql<{ recoverWebhookEndpoint: { recovered: number } }>(
      `mutation($i: RecoverWebhookEndpointInput!) { recoverWebhookEndpoint(input: $i) { recovered } }`,
      {
        i: { id, since: '2020-01-01T00:00:00Z' },
      },
    );
    expect(recover.body.data.recoverWebhookEndpoint).toEqual({ recovered: 0 });
    await api.post(`/api/v2/webhook-endpoints/${endpoint.id}/disable`);
    const enable = await api.graphql<{ enableWebhookEndpoint: { webhookEndpoint: { status: string } } }>(
      `mutation($i: EnableWebhookEndpointInput!) { enableWebhookEndpoint(input: $i) { webhookEndpoint { status } } }`,
      { i: { id } },
    );
    expect(enable.body.data.enableWebhookEndpoint.webhookEndpoint.status).toBe('ENABLED');
    const del = await api.graphql<{ deleteWebhookEndpoint: { deletedWebhookEndpointId: string } }>(
      `mutation($i: DeleteWebhookEndpointInput!) { deleteWebhookEndpoint(input: $i) { deletedWebhookEndpointId } }`,
      { i: { id } },
    );
    expect(del.body.data.deleteWebhookEndpoint.deletedWebhookEndpointId).toBe(id);
    const gone = await api.graphql<{ webhookEndpoint: null }>(`query($id: ID!) { webhookEndpoint(id: $id) { id } }`, {
      id,
    });
    expect(gone.body.data.webhookEndpoint).toBeNull();
    expect(gone.body.errors?.[0].extensions?.code).toBe('not_found');
  });
});
