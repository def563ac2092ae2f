import WebSocket from 'ws';
import { recordAndRollBack, recordTestEvent } from '../helpers/events.js';
import { collect, untilLive as untilLiveKeeping, wsClient, type EventNode } from '../helpers/graphql-ws.js';

const untilLive = (sub: ReturnType<typeof collect>, probe: () => Promise<unknown>) =>
  untilLiveKeeping(sub, probe, { forget: true });
import { client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
afterAll(() => t.close());

const EVENT = 'id eventId type livemode createdAt data';
const ALL = `subscription($types: [String!]) { events(types: $types) { ${EVENT} } }`;
/** A message of ALL. */
type Streamed = { events: Omit<EventNode, 'cursor'> };

/** Opens a raw socket with graphql-ws's subprotocol and returns the close code the server chose. */
async function closeCodeFor(connectionParams: unknown): Promise<number> {
  const ws = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  await new Promise((resolve, reject) => {
    ws.on('open', resolve);
    ws.on('error', reject);
  });
  ws.send(JSON.stringify({ type: 'connection_init', payload: connectionParams }));
  return new Promise((resolve) => ws.on('close', (code) => resolve(code)));
}

test('a connection without a valid API key is closed with 4401', async () => {
  expect(await closeCodeFor(undefined)).toBe(4401);
  expect(await closeCodeFor({ authorization: 'Bearer nope' })).toBe(4401);
  expect(await closeCodeFor({ authorization: 'Bearer glm_test_00000000000000000000000000000000' })).toBe(4401);
  const closed: unknown[] = [];
  const anonymous = wsClient(t.url, undefined, { onClosed: (e) => closed.push(e) });
  const sub = collect<Streamed>(anonymous, ALL);
  await sub.done;
  expect((closed[0] as { code: number }).code).toBe(4401);
  expect(sub.messages).toEqual([]);
  await anonymous.dispose();
});

test('events streams committed events of the key’s merchant and mode, filtered by type; never a rolled-back one', async () => {
  const m = await t.merchant('Streamer');
  const other = await t.merchant('Other');
  const ws = wsClient(t.url, m.test_api_key);
  const all = collect<Streamed>(ws, ALL);
  const products = collect<Streamed>(ws, ALL, { types: ['product.created'] });
  await untilLive(all, () => recordTestEvent(t, m.id, 'product.created', { probe: true }));
  await untilLive(products, () => recordTestEvent(t, m.id, 'product.created', { probe: true }));
  all.messages.length = 0;

  await recordTestEvent(t, other.id, 'order.completed', { id: 'someone else' });
  await recordTestEvent(t, m.id, 'order.completed', { id: 'live' }, { livemode: true });
  await recordAndRollBack(t, m.id, 'order.completed', { id: 'rolled back' });
  const created = await client(t.url, m.test_api_key).post('/api/v2/products', {
    name: 'Thermometer',
    price: 1500,
    currency: 'USD',
  });
  const orderId = await recordTestEvent(t, m.id, 'order.completed', { id: 'ord_1', amount: 4995 });

  const [product, order] = await all.waitFor(2);
  expect(product.events).toMatchObject({
    type: 'product.created',
    livemode: false,
    data: expect.objectContaining({ id: created.body.id, name: 'Thermometer' }),
  });
  expect(order.events).toEqual({
    id: expect.any(String),
    eventId: orderId,
    type: 'order.completed',
    livemode: false,
    createdAt: expect.any(String),
    data: { id: 'ord_1', amount: 4995 },
  });
  const stored = await client(t.url, m.test_api_key).graphql(
    `query($id: ID!) { node(id: $id) { ... on Event { eventId createdAt } } }`,
    { id: order.events.id },
  );
  expect(stored.body.data.node).toEqual({ eventId: orderId, createdAt: order.events.createdAt });
  await products.waitFor(1);
  await new Promise((r) => setTimeout(r, 300));
  expect(all.messages).toHaveLength(2);
  expect(products.messages.map((p) => p.events.type)).toEqual(['product.created']);
  await ws.dispose();
});

test('orderEvents and subscriptionEvents carry only their own prefix', async () => {
  const m = await t.merchant('Prefixes');
  const ws = wsClient(t.url, m.test_api_key);
  const orders = collect<{ orderEvents: Pick<EventNode, 'eventId' | 'type'> }>(
    ws,
    `subscription { orderEvents { eventId type } }`,
  );
  const subs = collect<{ subscriptionEvents: Pick<EventNode, 'eventId' | 'type'> }>(
    ws,
    `subscription { subscriptionEvents { eventId type } }`,
  );
  await untilLive(orders, () => recordTestEvent(t, m.id, 'order.probe'));
  await untilLive(subs, () => recordTestEvent(t, m.id, 'subscription.probe'));
  for (const type of ['subscription.renewed', 'order.completed', 'product.created', 'refund.succeeded', 'order.failed'])
    await recordTestEvent(t, m.id, type);
  await orders.waitFor(2);
  await subs.waitFor(1);
  await new Promise((r) => setTimeout(r, 300));
  expect(orders.messages.map((o) => o.orderEvents.type)).toEqual(['order.completed', 'order.failed']);
  expect(subs.messages.map((s) => s.subscriptionEvents.type)).toEqual(['subscription.renewed']);
  await ws.dispose();
});

test('two API processes: each subscriber gets the events committed through the other', async () => {
  const second = await startTestApp();
  try {
    const m = await t.merchant('Two processes');
    const wsOne = wsClient(t.url, m.test_api_key);
    const wsTwo = wsClient(second.url, m.test_api_key);
    const one = collect<Streamed>(wsOne, ALL, { types: ['product.created'] });
    const two = collect<Streamed>(wsTwo, ALL, { types: ['product.created'] });
    await untilLive(one, () => recordTestEvent(t, m.id, 'product.created', { probe: 1 }));
    await untilLive(two, () => recordTestEvent(t, m.id, 'product.created', { probe: 2 }));
    one.messages.length = 0;
    two.messages.length = 0;
    const viaOne = await client(t.url, m.test_api_key).post('/api/v2/products', {
      name: 'Via one',
      price: 100,
      currency: 'USD',
    });
    const viaTwo = await client(second.url, m.test_api_key).post('/api/v2/products', {
      name: 'Via two',
      price: 100,
      currency: 'USD',
    });
    for (const sub of [one, two]) {
      const got = await sub.waitFor(2);
      expect(got.map((e) => e.events.data.id).sort()).toEqual([viaOne.body.id, viaTwo.body.id].sort());
    }
    await Promise.all([wsOne.dispose(), wsTwo.dispose()]);
  } finally {
    await second.close();
  }
});

test('closing the app closes its websockets', async () => {
  const third = await startTestApp();
  const m = await t.merchant('Closing');
  const closed: unknown[] = [];
  const ws = wsClient(third.url, m.test_api_key, { onClosed: (e) => closed.push(e) });
  const sub = collect<Streamed>(ws, ALL);
  await untilLive(sub, () => recordTestEvent(t, m.id, 'product.created'));
  await third.close();
  await sub.done;
  expect((closed[0] as { code: number }).code).toBe(1001);
  await ws.dispose();
});

test('an event too large for a NOTIFY payload is read back and streamed whole', async () => {
  const m = await t.merchant('Large');
  const ws = wsClient(t.url, m.test_api_key);
  const sub = collect<Streamed>(ws, ALL, { types: ['order.completed', 'order.probe'] });
  await untilLive(sub, () => recordTestEvent(t, m.id, 'order.probe'));
  const note = 'x'.repeat(20_000);
  const id = await recordTestEvent(t, m.id, 'order.completed', { note });
  const [got] = await sub.waitFor(1);
  expect(got.events).toMatchObject({ eventId: id, data: { note } });
  await ws.dispose();
});
