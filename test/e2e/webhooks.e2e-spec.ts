import type {
  toWebhookDeliveryResource,
  toWebhookEndpointResource,
} from '../../src/modules/webhooks/webhook.resource.js';
import { statementsOf } from '../helpers/sql.js';
import { setWebhookResolver } from '../../src/modules/webhooks/webhook-url.js';
import { stubDns } from '../fixtures/hostile-urls.js';
import { recordTestEvent } from '../helpers/events.js';
import { client, type Client, type ErrorBody, type Page } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';

let t: TestApp;
let api: Client;
let keys: CreatedMerchant;

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  setWebhookResolver(stubDns()); // live mode resolves names: no real DNS in tests
});
// A merchant per test: its endpoints, deliveries and events are the test's own.
beforeEach(async () => {
  ({ keys, api } = await newMerchant(t));
});
afterAll(async () => {
  setWebhookResolver();
  await t.close();
});

type Endpoint = ReturnType<typeof toWebhookEndpointResource>;
type Delivery = ReturnType<typeof toWebhookDeliveryResource>;
const endpointBody = (n: number | string = 1) => ({
  url: `http://127.0.0.1:9/hooks/${n}`,
  events: ['order.completed', 'refund.succeeded'],
  description: `endpoint ${n}`,
  metadata: { team: 'ops' },
});
/** Creates an endpoint (201) through `via`; the answer, secret included. */
async function createEndpoint(body: object = endpointBody(), via = api): Promise<Endpoint> {
  const res = await via.post<Endpoint>('/api/v2/webhook-endpoints', body);
  expect(res.status).toBe(201);
  return res.body;
}
const ids = (page: Page<{ id: string }>) => page.data.map((x) => x.id);
/** Runs the due jobs: recorded events become deliveries, each tried once. */
const runSweeps = () => t.app.http.jobs.runDue(new Date());

describe('REST /api/v2/webhook-endpoints', () => {
  test('create returns the endpoint with its secret once; reads never show it', async () => {
    const res = await api.post<Endpoint>('/api/v2/webhook-endpoints', endpointBody());
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

  test('"*" subscribes to every type and absorbs the rest', async () => {
    expect(
      (await createEndpoint({ url: 'https://hooks.example.com/a', events: ['order.completed', '*'] })).events,
    ).toEqual(['*']);
  });

  test('duplicate event types are dropped', async () => {
    expect(
      (await createEndpoint({ url: 'https://hooks.example.com/b', events: ['order.failed', 'order.failed'] })).events,
    ).toEqual(['order.failed']);
  });

  test.each([
    [{ url: 'http://hooks.example.com/x', events: ['*'] }, 'url', /https/],
    [{ url: 'not a url', events: ['*'] }, 'url', /absolute/],
    [{ url: 'https://hooks.example.com', events: [] }, 'events', /at least one/],
    [{ url: 'https://hooks.example.com', events: ['Order Completed'] }, 'events.0', /event type/],
    [{ events: ['*'] }, 'url', /required/],
    [{ url: 'https://hooks.example.com', events: ['*'], secret: 'mine' }, 'secret', /not a recognised field/],
  ])('invalid input %j is 422 validation_error on %s', async (body, field, message) => {
    const res = await api.post<ErrorBody>('/api/v2/webhook-endpoints', body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([{ field, message: expect.stringMatching(message) }]),
    );
  });

  describe('live mode', () => {
    const local = [
      'http://127.0.0.1:4000/h',
      'https://127.0.0.1/h',
      'https://10.0.0.8/h',
      'https://localhost/h',
      'https://169.254.169.254/h',
    ];
    test.each(local)('refuses %s (https to a public host only)', async (url) => {
      const res = await client(t.url, keys.live_api_key).post<Partial<ErrorBody>>('/api/v2/webhook-endpoints', {
        url,
        events: ['*'],
      });
      expect([url, res.status, res.body.error?.param]).toEqual([url, 422, 'url']);
    });

    test('takes https to a public host; the endpoint is live and test keys do not see it', async () => {
      const ok = await client(t.url, keys.live_api_key).post<Endpoint>('/api/v2/webhook-endpoints', {
        url: 'https://hooks.example.com/live',
        events: ['*'],
      });
      expect(ok.status).toBe(201);
      expect(ok.body.livemode).toBe(true);
      expect((await api.get(`/api/v2/webhook-endpoints/${ok.body.id}`)).status).toBe(404);
    });
  });

  test('test mode also takes local http receivers', async () => {
    expect(
      (await api.post('/api/v2/webhook-endpoints', { url: 'http://localhost:3000/h', events: ['*'] })).status,
    ).toBe(201);
  });

  test('the list pages newest first with a cursor', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createEndpoint(endpointBody(i))).id);
    const first = await api.get<Page<Endpoint>>('/api/v2/webhook-endpoints?limit=3');
    expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: made[2] });
    expect(ids(first.body)).toEqual([made[4], made[3], made[2]]);
    const second = await api.get<Page<Endpoint>>(
      `/api/v2/webhook-endpoints?limit=3&starting_after=${first.body.next_cursor}`,
    );
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(ids(second.body)).toEqual([made[1], made[0]]);
    expect((await api.get('/api/v2/webhook-endpoints?limit=0')).status).toBe(400);
  });

  test("unknown ids and another merchant's endpoint are 404", async () => {
    expect((await api.get('/api/v2/webhook-endpoints/we_unknown')).status).toBe(404);
    expect((await api.get('/api/v2/webhook-endpoints/we_unknown/deliveries')).status).toBe(404);
    expect((await api.post('/api/v2/webhook-endpoints/we_unknown/disable')).status).toBe(404);
    const foreign = await createEndpoint(endpointBody(0), (await newMerchant(t, 'Pager')).api);
    expect((await api.get(`/api/v2/webhook-endpoints/${foreign.id}`)).status).toBe(404); // another merchant's
  });

  test('rotate-secret answers a new secret and keeps the old one signing for 24 hours', async () => {
    const created = await createEndpoint(endpointBody('rot'));
    const rotated = await api.post<Endpoint>(
      `/api/v2/webhook-endpoints/${created.id}/rotate-secret`,
      {},
      { 'idempotency-key': crypto.randomUUID() },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(rotated.body.previous_secret_expires_at).not.toBeNull();
  });

  test('rotate-secret takes no fields', async () => {
    const created = await createEndpoint(endpointBody('rot'));
    expect((await api.post(`/api/v2/webhook-endpoints/${created.id}/rotate-secret`, { grace: 1 })).status).toBe(422);
  });

  test('disable is idempotent', async () => {
    const created = await createEndpoint(endpointBody('rot'));
    const disabled = await api.post<Endpoint>(`/api/v2/webhook-endpoints/${created.id}/disable`);
    expect(disabled.body.status).toBe('disabled');
    const again = await api.post(`/api/v2/webhook-endpoints/${created.id}/disable`);
    expect(again.body).toEqual(disabled.body);
  });

  describe('deliveries', () => {
    /** An endpoint on a closed port and three events: every first attempt fails, so three pending deliveries. */
    async function threeFailedFirstAttempts() {
      const m = await newMerchant(t, 'Deliveries');
      const endpoint = await createEndpoint({ url: 'http://127.0.0.1:9/closed', events: ['*'] }, m.api);
      for (let i = 0; i < 3; i++) await recordTestEvent(t, m.keys.id, 'order.completed', { i });
      await runSweeps(); // port 9 refuses: every first attempt fails
      return {
        list: (query: string) =>
          m.api.get<Page<Delivery>>(`/api/v2/webhook-endpoints/${endpoint.id}/deliveries?${query}`),
        endpoint,
      };
    }

    test('the list pages with a cursor', async () => {
      const { list, endpoint } = await threeFailedFirstAttempts();
      const page1 = await list('limit=2');
      expect(page1.body).toMatchObject({ object: 'list', has_more: true });
      const first = {
        object: 'webhook_delivery',
        endpoint_id: endpoint.id,
        status: 'pending',
        attempt_count: 1,
        event_type: 'order.completed',
      };
      expect(page1.body.data[0]).toMatchObject(first);
      const page2 = await list(`limit=2&starting_after=${page1.body.next_cursor}`);
      expect(page2.body.data).toHaveLength(1);
    });

    test('the list filters by status; an unknown status is 400', async () => {
      const { list } = await threeFailedFirstAttempts();
      expect((await list('status=succeeded')).body.data).toEqual([]);
      expect((await list('status=nope')).status).toBe(400);
    });
  });
});

describe('GraphQL', () => {
  const ENDPOINT = 'id endpointId url events description status livemode previousSecretExpiresAt';
  /** An endpoint as ENDPOINT selects it. */
  interface GraphQLEndpoint {
    id: string;
    endpointId: string;
    url: string;
  }
  /** A delivery as the deliveries query selects it. */
  interface GraphQLDelivery {
    id: string;
    deliveryId: string;
    attempts: unknown[];
  }
  const createMutation = `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret webhookEndpoint { ${ENDPOINT} } } }`;
  /** An endpoint for product.created on a closed port, made through createWebhookEndpoint. */
  async function graphEndpoint() {
    const created = await api.graphql<{ createWebhookEndpoint: { secret: string; webhookEndpoint: GraphQLEndpoint } }>(
      createMutation,
      {
        input: { url: 'http://127.0.0.1:9/g', events: ['product.created'], description: 'graph' },
      },
    );
    expect(created.body.errors).toBeUndefined();
    return created.body.data.createWebhookEndpoint;
  }
  const DELIVERY =
    'id deliveryId status attemptCount eventType lastError attempts { attemptId attempt status } event { eventId type data }';
  /** The graph endpoint after a product was created: its one delivery, whose first attempt failed (as webhookEndpoints lists it). */
  async function endpointWithDelivery() {
    const { secret, webhookEndpoint } = await graphEndpoint();
    await api.post('/api/v2/products', { name: 'Bandages', price: 500, currency: 'USD' });
    await runSweeps();
    const res = await api.graphql<{
      webhookEndpoints: { nodes: { id: string; webhookDeliveries: { nodes: GraphQLDelivery[] } }[] };
    }>(`{
      webhookEndpoints(first: 5) { nodes { id webhookDeliveries(first: 5) { nodes { ${DELIVERY} } pageInfo { hasNextPage } } } }
    }`);
    expect(res.body.errors).toBeUndefined();
    const [endpoint] = res.body.data.webhookEndpoints.nodes;
    return { secret, webhookEndpoint, endpoint, delivery: endpoint.webhookDeliveries.nodes[0] };
  }
  const byId = (mutation: string) => (id: string) => api.graphql(mutation, { id });
  const rotate = byId(
    `mutation($id: ID!) { rotateWebhookEndpointSecret(input: { id: $id }) { secret webhookEndpoint { previousSecretExpiresAt } } }`,
  );
  const retry = byId(
    `mutation($id: ID!) { retryWebhookDelivery(input: { id: $id }) { webhookDelivery { status nextAttemptAt } } }`,
  );
  const disable = byId(
    `mutation($id: ID!) { disableWebhookEndpoint(input: { id: $id }) { webhookEndpoint { status } } }`,
  );

  test('createWebhookEndpoint answers the secret and the endpoint, which REST reads too', async () => {
    const { secret, webhookEndpoint } = await graphEndpoint();
    expect(secret).toMatch(/^whsec_/);
    const expected = {
      url: 'http://127.0.0.1:9/g',
      events: ['product.created'],
      status: 'ENABLED',
      livemode: false,
      endpointId: expect.stringMatching(/^we_/),
    };
    expect(webhookEndpoint).toMatchObject(expected);
    expect((await api.get<Endpoint>(`/api/v2/webhook-endpoints/${webhookEndpoint.endpointId}`)).body.url).toBe(
      'http://127.0.0.1:9/g',
    );
  });

  test('createWebhookEndpoint refuses a non-http url', async () => {
    const bad = await api.graphql(
      `mutation { createWebhookEndpoint(input: { url: "ftp://x", events: ["*"] }) { secret webhookEndpoint { id } userErrors { field message code } } }`,
    );
    expect(bad.body.errors).toBeUndefined();
    expect(bad.body.data.createWebhookEndpoint).toEqual({
      secret: null,
      webhookEndpoint: null,
      userErrors: [{ field: ['input', 'url'], message: expect.stringMatching(/^url /), code: 'VALIDATION_ERROR' }],
    });
  });

  test('webhookEndpoints lists the deliveries with their attempts and events', async () => {
    const { webhookEndpoint, endpoint, delivery } = await endpointWithDelivery();
    expect(endpoint.id).toBe(webhookEndpoint.id);
    const event = { type: 'product.created', data: expect.objectContaining({ name: 'Bandages' }) };
    expect(delivery).toMatchObject({ status: 'PENDING', attemptCount: 1, eventType: 'product.created', event });
    expect(delivery.attempts).toEqual([{ attemptId: expect.stringMatching(/^wd_/), attempt: 1, status: 'FAILED' }]);
  });

  test('node(id:) resolves endpoints and deliveries', async () => {
    const { webhookEndpoint, delivery } = await endpointWithDelivery();
    const node = await api.graphql(`query($id: ID!) { node(id: $id) { __typename ... on WebhookEndpoint { url } } }`, {
      id: webhookEndpoint.id,
    });
    expect(node.body.data.node).toEqual({ __typename: 'WebhookEndpoint', url: 'http://127.0.0.1:9/g' });
    const deliveryNode = await api.graphql(
      `query($id: ID!) { node(id: $id) { ... on WebhookDelivery { deliveryId } } }`,
      { id: delivery.id },
    );
    expect(deliveryNode.body.data.node).toEqual({ deliveryId: delivery.deliveryId });
  });

  test('rotateWebhookEndpointSecret answers a new secret; the old one has an expiry', async () => {
    const { secret, webhookEndpoint } = await graphEndpoint();
    const rotated = await rotate(webhookEndpoint.id);
    expect(rotated.body.data.rotateWebhookEndpointSecret.secret).not.toBe(secret);
    expect(rotated.body.data.rotateWebhookEndpointSecret.webhookEndpoint.previousSecretExpiresAt).not.toBeNull();
  });

  test('retryWebhookDelivery queues the delivery again', async () => {
    const { delivery } = await endpointWithDelivery();
    const retried = await retry(delivery.id);
    expect(retried.body.data.retryWebhookDelivery.webhookDelivery).toMatchObject({
      status: 'PENDING',
      nextAttemptAt: expect.any(String),
    });
  });

  test('disableWebhookEndpoint disables it; its queued delivery becomes a dead letter', async () => {
    const { webhookEndpoint } = await endpointWithDelivery();
    const disabled = await disable(webhookEndpoint.id);
    expect(disabled.body.data.disableWebhookEndpoint.webhookEndpoint.status).toBe('DISABLED');
    const after = await api.graphql(
      `query($id: ID!) { webhookEndpoint(id: $id) { webhookDeliveries(first: 1) { nodes { status } } } }`,
      { id: webhookEndpoint.id },
    );
    expect(after.body.data.webhookEndpoint.webhookDeliveries.nodes).toEqual([{ status: 'DEAD_LETTER' }]);
  });

  test('the first page of deliveries of many endpoints is batched: the same statements for 1 or 4 endpoints', async () => {
    for (let i = 0; i < 4; i++)
      await api.post('/api/v2/webhook-endpoints', { url: `http://127.0.0.1:9/b/${i}`, events: ['product.created'] });
    for (let i = 0; i < 3; i++)
      await api.post('/api/v2/products', { name: `Bandages ${i}`, price: 500, currency: 'USD' });
    await runSweeps();
    const deliveries =
      'webhookDeliveries(first: 2) { nodes { eventType attempts { attempt } } pageInfo { hasNextPage } }';
    const query = (n: number) => `{ webhookEndpoints(first: ${n}) { nodes { url ${deliveries} } } }`;
    /** An endpoint as `query` selects it. */
    interface EndpointNode {
      url: string;
      webhookDeliveries: {
        nodes: { eventType: string; attempts: { attempt: number }[] }[];
        pageInfo: { hasNextPage: boolean };
      };
    }
    const cost = async (n: number) => {
      let nodes: EndpointNode[] = [];
      const statements = await statementsOf(async () => {
        const res = await api.graphql<{ webhookEndpoints: { nodes: EndpointNode[] } }>(query(n));
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

  describe('the events connection', () => {
    /** Four test events of the merchant (and one live one); their ids oldest first. */
    async function fourEvents() {
      const made: string[] = [];
      for (const type of ['order.completed', 'product.created', 'order.failed', 'order.completed'])
        made.push(await recordTestEvent(t, keys.id, type, { type }));
      await recordTestEvent(t, keys.id, 'order.completed', {}, { livemode: true });
      return made;
    }
    type EventNodes = {
      events: { nodes: { id: string; eventId: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
    };
    const eventIds = (res: { body: { data: EventNodes } }) => res.body.data.events.nodes.map((e) => e.eventId);
    const all = () =>
      api.graphql<EventNodes>(`{ events(first: 10) { nodes { id eventId type livemode data createdAt } } }`);

    test("newest first, the key's mode only", async () => {
      const made = await fourEvents();
      expect(eventIds(await all())).toEqual([...made].reverse());
    });

    test('filtered by type, in pages', async () => {
      const made = await fourEvents();
      const types = 'types: ["order.completed", "order.failed"]';
      const orders = await api.graphql<EventNodes>(
        `{ events(first: 2, ${types}) { nodes { eventId } pageInfo { hasNextPage endCursor } } }`,
      );
      expect(eventIds(orders)).toEqual([made[3], made[2]]);
      expect(orders.body.data.events.pageInfo.hasNextPage).toBe(true);
      const rest = await api.graphql<EventNodes>(
        `query($after: String) { events(first: 2, after: $after, ${types}) { nodes { eventId } } }`,
        {
          after: orders.body.data.events.pageInfo.endCursor,
        },
      );
      expect(eventIds(rest)).toEqual([made[0]]);
    });

    test("node(id:) resolves an event for its merchant, and nothing for another merchant's key", async () => {
      const made = await fourEvents();
      const newest = (await all()).body.data.events.nodes[0].id;
      const node = await api.graphql(`query($id: ID!) { node(id: $id) { ... on Event { eventId type } } }`, {
        id: newest,
      });
      expect(node.body.data.node).toEqual({ eventId: made[3], type: 'order.completed' });
      const foreign = await (
        await newMerchant(t, 'Events')
      ).api.graphql(`query($id: ID!) { node(id: $id) { id } }`, { id: newest });
      expect(foreign.body.data.node).toBeNull();
    });
  });
});
