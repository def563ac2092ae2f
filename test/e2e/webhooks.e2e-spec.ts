import { statementsOf } from '../helpers/sql.js';
import { setWebhookResolver } from '../../src/modules/webhooks/webhook-url.js';
import { stubDns } from '../fixtures/hostile-urls.js';
import { recordTestEvent } from '../helpers/events.js';
import { client, type Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;
let keys: Awaited<ReturnType<TestApp['merchant']>>;

beforeAll(async () => {
  ({ t, keys, api } = await startWithMerchant());
  setWebhookResolver(stubDns()); // live mode resolves names: no real DNS in tests
});
afterAll(async () => {
  setWebhookResolver();
  await t.close();
});

const endpointBody = (n: number | string = 1) => ({ url: `http://127.0.0.1:9/hooks/${n}`, events: ['order.completed', 'refund.succeeded'], description: `endpoint ${n}`, metadata: { team: 'ops' } });

describe('REST /api/v2/webhook-endpoints', () => {
  test('create returns the endpoint with its secret once; reads never show it', async () => {
    const res = await api.post('/api/v2/webhook-endpoints', endpointBody());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^we_[0-9A-Za-z]{24}$/),
      object: 'webhook_endpoint',
      livemode: false,
      url: 'http://127.0.0.1:9/hooks/1',
      events: ['order.completed', 'refund.succeeded'],
      description: 'endpoint 1',
      metadata: { team: 'ops' },
      status: 'enabled',
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
      previous_secret_expires_at: null,
      disabled_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await api.get(`/api/v2/webhook-endpoints/${res.body.id}`);
    expect(got.status).toBe(200);
    const { secret, ...withoutSecret } = res.body;
    expect(got.body).toEqual(withoutSecret);
    expect(JSON.stringify((await api.get('/api/v2/webhook-endpoints')).body)).not.toContain(secret);
  });

  test('"*" subscribes to every type and absorbs the rest; duplicates are dropped', async () => {
    expect((await api.post('/api/v2/webhook-endpoints', { url: 'https://hooks.example.com/a', events: ['order.completed', '*'] })).body.events).toEqual(['*']);
    expect((await api.post('/api/v2/webhook-endpoints', { url: 'https://hooks.example.com/b', events: ['order.failed', 'order.failed'] })).body.events).toEqual(['order.failed']);
  });

  test.each([
    [{ url: 'http://hooks.example.com/x', events: ['*'] }, 'url', /https/],
    [{ url: 'not a url', events: ['*'] }, 'url', /absolute/],
    [{ url: 'https://hooks.example.com', events: [] }, 'events', /at least one/],
    [{ url: 'https://hooks.example.com', events: ['Order Completed'] }, 'events.0', /event type/],
    [{ events: ['*'] }, 'url', /required/],
    [{ url: 'https://hooks.example.com', events: ['*'], secret: 'mine' }, 'secret', /not a recognised field/],
  ])('invalid input %j is 422 validation_error on %s', async (body, field, message) => {
    const res = await api.post('/api/v2/webhook-endpoints', body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual(expect.arrayContaining([{ field, message: expect.stringMatching(message) }]));
  });

  test('live mode requires https to a public host; test mode also takes local http receivers', async () => {
    const live = client(t.url, keys.live_api_key);
    for (const url of ['http://127.0.0.1:4000/h', 'https://127.0.0.1/h', 'https://10.0.0.8/h', 'https://localhost/h', 'https://169.254.169.254/h']) {
      const res = await live.post('/api/v2/webhook-endpoints', { url, events: ['*'] });
      expect([url, res.status, res.body.error?.param]).toEqual([url, 422, 'url']);
    }
    const ok = await live.post('/api/v2/webhook-endpoints', { url: 'https://hooks.example.com/live', events: ['*'] });
    expect(ok.status).toBe(201);
    expect(ok.body.livemode).toBe(true);
    expect((await api.get(`/api/v2/webhook-endpoints/${ok.body.id}`)).status).toBe(404);
    expect((await api.post('/api/v2/webhook-endpoints', { url: 'http://localhost:3000/h', events: ['*'] })).status).toBe(201);
  });

  test('the list pages newest first with a cursor; unknown ids are 404', async () => {
    const m = await t.merchant('Pager');
    const pager = client(t.url, m.test_api_key);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await pager.post('/api/v2/webhook-endpoints', endpointBody(i))).body.id);
    const first = await pager.get('/api/v2/webhook-endpoints?limit=3');
    expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: ids[2] });
    expect(first.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3], ids[2]]);
    const second = await pager.get(`/api/v2/webhook-endpoints?limit=3&starting_after=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.body.data.map((e: { id: string }) => e.id)).toEqual([ids[1], ids[0]]);
    expect((await pager.get('/api/v2/webhook-endpoints?limit=0')).status).toBe(400);
    expect((await pager.get('/api/v2/webhook-endpoints/we_unknown')).status).toBe(404);
    expect((await pager.get('/api/v2/webhook-endpoints/we_unknown/deliveries')).status).toBe(404);
    expect((await pager.post('/api/v2/webhook-endpoints/we_unknown/disable')).status).toBe(404);
    expect((await api.get(`/api/v2/webhook-endpoints/${ids[0]}`)).status).toBe(404); // another merchant's
  });

  test('rotate-secret answers a new secret and keeps the old one signing for 24 hours; disable is idempotent', async () => {
    const created = (await api.post('/api/v2/webhook-endpoints', endpointBody('rot'))).body;
    const rotated = await api.post(`/api/v2/webhook-endpoints/${created.id}/rotate-secret`, {}, { 'idempotency-key': crypto.randomUUID() });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(rotated.body.previous_secret_expires_at).not.toBeNull();
    expect((await api.post(`/api/v2/webhook-endpoints/${created.id}/rotate-secret`, { grace: 1 })).status).toBe(422);
    const disabled = await api.post(`/api/v2/webhook-endpoints/${created.id}/disable`);
    expect(disabled.body.status).toBe('disabled');
    const again = await api.post(`/api/v2/webhook-endpoints/${created.id}/disable`);
    expect(again.body).toEqual(disabled.body);
  });

  test('deliveries list pages with a cursor and filters by status', async () => {
    const m = await t.merchant('Deliveries');
    const a = client(t.url, m.test_api_key);
    const endpoint = (await a.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/closed', events: ['*'] })).body;
    for (let i = 0; i < 3; i++) await recordTestEvent(t, m.id, 'order.completed', { i });
    await t.app.http.jobs.runDue(new Date()); // port 9 refuses: every first attempt fails
    const page1 = await a.get(`/api/v2/webhook-endpoints/${endpoint.id}/deliveries?limit=2`);
    expect(page1.body).toMatchObject({ object: 'list', has_more: true });
    expect(page1.body.data[0]).toMatchObject({ object: 'webhook_delivery', endpoint_id: endpoint.id, status: 'pending', attempt_count: 1, event_type: 'order.completed' });
    const page2 = await a.get(`/api/v2/webhook-endpoints/${endpoint.id}/deliveries?limit=2&starting_after=${page1.body.next_cursor}`);
    expect(page2.body.data).toHaveLength(1);
    expect((await a.get(`/api/v2/webhook-endpoints/${endpoint.id}/deliveries?status=succeeded`)).body.data).toEqual([]);
    expect((await a.get(`/api/v2/webhook-endpoints/${endpoint.id}/deliveries?status=nope`)).status).toBe(400);
  });
});

describe('GraphQL', () => {
  const ENDPOINT = 'id endpointId url events description status livemode previousSecretExpiresAt';

  test('createWebhookEndpoint, webhookEndpoints, node(id:) and the endpoint deliveries with their events', async () => {
    const m = await t.merchant('Graph');
    const g = client(t.url, m.test_api_key);
    const created = await g.graphql(`mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret webhookEndpoint { ${ENDPOINT} } } }`, {
      input: { url: 'http://127.0.0.1:9/g', events: ['product.created'], description: 'graph' },
    });
    expect(created.body.errors).toBeUndefined();
    const { secret, webhookEndpoint } = created.body.data.createWebhookEndpoint;
    expect(secret).toMatch(/^whsec_/);
    expect(webhookEndpoint).toMatchObject({ url: 'http://127.0.0.1:9/g', events: ['product.created'], status: 'ENABLED', livemode: false, endpointId: expect.stringMatching(/^we_/) });
    expect((await g.get(`/api/v2/webhook-endpoints/${webhookEndpoint.endpointId}`)).body.url).toBe('http://127.0.0.1:9/g');

    const bad = await g.graphql(`mutation { createWebhookEndpoint(input: { url: "ftp://x", events: ["*"] }) { secret } }`);
    expect(bad.body.errors?.[0].extensions).toMatchObject({ code: 'validation_error', param: 'url' });

    await g.post('/api/v2/products', { name: 'Bandages', price: 500, currency: 'USD' });
    await t.app.http.jobs.runDue(new Date());
    const res = await g.graphql(`{
      webhookEndpoints(first: 5) { nodes { id webhookDeliveries(first: 5) { nodes { id deliveryId status attemptCount eventType lastError attempts { attemptId attempt status } event { eventId type data } } pageInfo { hasNextPage } } } }
    }`);
    expect(res.body.errors).toBeUndefined();
    const [endpoint] = res.body.data.webhookEndpoints.nodes;
    expect(endpoint.id).toBe(webhookEndpoint.id);
    const [delivery] = endpoint.webhookDeliveries.nodes;
    expect(delivery).toMatchObject({ status: 'PENDING', attemptCount: 1, eventType: 'product.created', event: { type: 'product.created', data: expect.objectContaining({ name: 'Bandages' }) } });
    expect(delivery.attempts).toEqual([{ attemptId: expect.stringMatching(/^wd_/), attempt: 1, status: 'FAILED' }]);

    const node = await g.graphql(`query($id: ID!) { node(id: $id) { __typename ... on WebhookEndpoint { url } } }`, { id: webhookEndpoint.id });
    expect(node.body.data.node).toEqual({ __typename: 'WebhookEndpoint', url: 'http://127.0.0.1:9/g' });
    const deliveryNode = await g.graphql(`query($id: ID!) { node(id: $id) { ... on WebhookDelivery { deliveryId } } }`, { id: delivery.id });
    expect(deliveryNode.body.data.node).toEqual({ deliveryId: delivery.deliveryId });

    const rotated = await g.graphql(`mutation($id: ID!) { rotateWebhookEndpointSecret(input: { id: $id }) { secret webhookEndpoint { previousSecretExpiresAt } } }`, { id: webhookEndpoint.id });
    expect(rotated.body.data.rotateWebhookEndpointSecret.secret).not.toBe(secret);
    expect(rotated.body.data.rotateWebhookEndpointSecret.webhookEndpoint.previousSecretExpiresAt).not.toBeNull();

    const retried = await g.graphql(`mutation($id: ID!) { retryWebhookDelivery(input: { id: $id }) { webhookDelivery { status nextAttemptAt } } }`, { id: delivery.id });
    expect(retried.body.data.retryWebhookDelivery.webhookDelivery).toMatchObject({ status: 'PENDING', nextAttemptAt: expect.any(String) });

    const disabled = await g.graphql(`mutation($id: ID!) { disableWebhookEndpoint(input: { id: $id }) { webhookEndpoint { status } } }`, { id: webhookEndpoint.id });
    expect(disabled.body.data.disableWebhookEndpoint.webhookEndpoint.status).toBe('DISABLED');
    const after = await g.graphql(`query($id: ID!) { webhookEndpoint(id: $id) { webhookDeliveries(first: 1) { nodes { status } } } }`, { id: webhookEndpoint.id });
    expect(after.body.data.webhookEndpoint.webhookDeliveries.nodes).toEqual([{ status: 'DEAD_LETTER' }]);
  });

  test('the first page of deliveries of many endpoints is batched: the same statements for 1 or 4 endpoints', async () => {
    const m = await t.merchant('Batched deliveries');
    const g = client(t.url, m.test_api_key);
    for (let i = 0; i < 4; i++) await g.post('/api/v2/webhook-endpoints', { url: `http://127.0.0.1:9/b/${i}`, events: ['product.created'] });
    for (let i = 0; i < 3; i++) await g.post('/api/v2/products', { name: `Bandages ${i}`, price: 500, currency: 'USD' });
    await t.app.http.jobs.runDue(new Date());
    const query = (n: number) => `{ webhookEndpoints(first: ${n}) { nodes { url webhookDeliveries(first: 2) { nodes { eventType attempts { attempt } } pageInfo { hasNextPage } } } } }`;
    /** An endpoint as `query` selects it. */
    interface EndpointNode {
      url: string;
      webhookDeliveries: { nodes: { eventType: string; attempts: { attempt: number }[] }[]; pageInfo: { hasNextPage: boolean } };
    }
    const cost = async (n: number) => {
      let nodes: EndpointNode[] = [];
      const statements = await statementsOf(async () => {
        const res = await g.graphql<{ webhookEndpoints: { nodes: EndpointNode[] } }>(query(n));
        expect(res.body.errors).toBeUndefined();
        nodes = res.body.data.webhookEndpoints.nodes;
      });
      return { statements, nodes };
    };
    const one = await cost(1);
    const four = await cost(4);
    expect(four.statements).toBe(one.statements);
    expect(four.nodes).toHaveLength(4);
    for (const endpoint of four.nodes) {
      expect(endpoint.webhookDeliveries.nodes).toHaveLength(2);
      expect(endpoint.webhookDeliveries.pageInfo.hasNextPage).toBe(true);
      expect(endpoint.webhookDeliveries.nodes[0]).toEqual({ eventType: 'product.created', attempts: [{ attempt: 1 }] });
    }
  });

  test('events connection, newest first, filtered by type, scoped to the key', async () => {
    const m = await t.merchant('Events');
    const g = client(t.url, m.test_api_key);
    const ids = [];
    for (const type of ['order.completed', 'product.created', 'order.failed', 'order.completed']) ids.push(await recordTestEvent(t, m.id, type, { type }));
    await recordTestEvent(t, m.id, 'order.completed', {}, { livemode: true });
    const all = await g.graphql(`{ events(first: 10) { nodes { id eventId type livemode data createdAt } } }`);
    expect(all.body.data.events.nodes.map((e: { eventId: string }) => e.eventId)).toEqual([...ids].reverse());
    const orders = await g.graphql(`{ events(first: 2, types: ["order.completed", "order.failed"]) { nodes { eventId } pageInfo { hasNextPage endCursor } } }`);
    expect(orders.body.data.events.nodes.map((e: { eventId: string }) => e.eventId)).toEqual([ids[3], ids[2]]);
    expect(orders.body.data.events.pageInfo.hasNextPage).toBe(true);
    const rest = await g.graphql(`query($after: String) { events(first: 2, after: $after, types: ["order.completed", "order.failed"]) { nodes { eventId } } }`, {
      after: orders.body.data.events.pageInfo.endCursor,
    });
    expect(rest.body.data.events.nodes.map((e: { eventId: string }) => e.eventId)).toEqual([ids[0]]);
    const node = await g.graphql(`query($id: ID!) { node(id: $id) { ... on Event { eventId type } } }`, { id: all.body.data.events.nodes[0].id });
    expect(node.body.data.node).toEqual({ eventId: ids[3], type: 'order.completed' });
    const foreign = await client(t.url, keys.test_api_key).graphql(`query($id: ID!) { node(id: $id) { id } }`, { id: all.body.data.events.nodes[0].id });
    expect(foreign.body.data.node).toBeNull();
  });
});
