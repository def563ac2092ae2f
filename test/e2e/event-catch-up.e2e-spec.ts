import { systemContext, type Log } from '../../src/platform/context.js';
import { recordEvent } from '../../src/platform/events/events.service.js';
import { recordTestEvent, settled } from '../helpers/events.js';
import { collect, untilLive, wsClient, type EventNode } from '../helpers/graphql-ws.js';
import { client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
afterAll(() => t.close());

const LIVE = `subscription($types: [String!]) { events(types: $types) { eventId type cursor data } }`;
const CATCH_UP = `query($after: String, $types: [String!], $first: Int) {
  events(after: $after, types: $types, first: $first, order: OLDEST_FIRST) { edges { cursor node { eventId type cursor data } } pageInfo { hasNextPage endCursor } }
}`;
/** An event as LIVE and CATCH_UP select it. */
type Logged = Pick<EventNode, 'eventId' | 'type' | 'cursor' | 'data'>;
interface CatchUpPage {
  events: { edges: { cursor: string; node: Logged }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}
/** Event ids, as the `events` queries of the last test select them. */
type EventIds = { events: { nodes: Pick<EventNode, 'eventId'>[] } };

/** Every event after `after`, oldest first, paging `first` at a time, as a reconnecting client does. */
async function catchUp(apiKey: string, after: string | null, first = 7, types?: string[]) {
  const api = client(t.url, apiKey);
  const got: Logged[] = [];
  for (let cursor = after, pages = 0; ; pages++) {
    const res = await api.graphql<CatchUpPage>(CATCH_UP, { after: cursor, first, types });
    expect(res.body.errors).toBeUndefined();
    const { edges, pageInfo } = res.body.data.events;
    for (const e of edges) expect(e.cursor).toBe(e.node.cursor);
    got.push(...edges.map((e) => e.node));
    if (!pageInfo.hasNextPage) return got;
    cursor = pageInfo.endCursor;
    if (pages > 50) throw new Error('catch-up never ended');
  }
}

test('drop the socket, cause 20 events, reconnect and catch up: all 20 once, in order, none twice', async () => {
  const m = await t.merchant('Catch-up');
  const api = client(t.url, m.test_api_key);
  const first = wsClient(t.url, m.test_api_key);
  const before = collect<{ events: Logged }>(first, LIVE);
  await untilLive(before, () => recordTestEvent(t, m.id, 'probe.ping'));
  const last = before.messages.at(-1)!.events;
  expect(typeof last.cursor).toBe('string');
  await first.dispose(); // the socket drops

  const caused: string[] = [];
  for (let i = 0; i < 17; i++) caused.push(await recordTestEvent(t, m.id, 'order.completed', { n: i }));
  for (const name of ['Gauze pads', 'Ice pack', 'Thermometer']) {
    const res = await api.post('/api/v2/products', { name, price: 500, currency: 'USD' });
    expect(res.status).toBe(201);
  }
  const products = await api.graphql<EventIds>(
    `{ events(first: 3, types: ["product.created"]) { nodes { eventId } } }`,
  );
  caused.push(...products.body.data.events.nodes.map((n) => n.eventId).reverse());
  expect(caused).toHaveLength(20);

  // Reconnect: subscribe first, then read everything after the last cursor seen; live events also in the catch-up are dropped.
  await settled(t, caused.at(-1)!);
  const second = wsClient(t.url, m.test_api_key);
  const after = collect<{ events: Logged }>(second, LIVE);
  const missed = await catchUp(m.test_api_key, last.cursor);
  expect(missed.map((e) => e.eventId)).toEqual(caused);
  expect(missed.slice(0, 17).map((e) => e.data.n)).toEqual([...Array(17).keys()]);
  expect(new Set(missed.map((e) => e.cursor)).size).toBe(20);

  // The stream goes on from there: the next live event's cursor resumes after it, nothing older comes again.
  await untilLive(after, () => recordTestEvent(t, m.id, 'order.completed', { n: 'live' }));
  await new Promise((r) => setTimeout(r, 300));
  const live = after.messages[0].events;
  expect(caused).not.toContain(live.eventId);
  expect(await catchUp(m.test_api_key, missed.at(-1)!.cursor).then((rest) => rest.map((e) => e.eventId))).toEqual(
    after.messages.map((x) => x.events.eventId),
  );
  expect(await catchUp(m.test_api_key, after.messages.at(-1)!.events.cursor)).toEqual([]);
  await second.dispose();
});

test('an event whose transaction is still open holds back later ones, so a cursor never skips it', async () => {
  const m = await t.merchant('Held back');
  const ws = wsClient(t.url, m.test_api_key);
  const sub = collect<{ events: Logged }>(ws, LIVE, { types: ['order.completed', 'probe.ping'] });
  await untilLive(sub, () => recordTestEvent(t, m.id, 'probe.ping'));
  const start = sub.messages.at(-1)!.events.cursor;
  sub.messages.length = 0;

  const silent: Log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  const ctx = systemContext(t.orm.em, m.id, false, 0, silent);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let recorded!: () => void;
  const written = new Promise<void>((r) => (recorded = r));
  let slowId = '';
  const slow = ctx.em.transactional(async (em) => {
    slowId = recordEvent({ ...ctx, em }, 'order.completed', { n: 'slow' }).id;
    await em.flush();
    recorded();
    await gate; // the transaction stays open
  });
  await written;
  const fastId = await recordTestEvent(t, m.id, 'order.completed', { n: 'fast' });

  await new Promise((r) => setTimeout(r, 400));
  expect(sub.messages).toEqual([]); // the committed fast event waits for the older open transaction
  expect(await catchUp(m.test_api_key, start)).toEqual([]);

  release();
  await slow;
  await sub.waitFor(2);
  expect(sub.messages.map((x) => x.events.eventId)).toEqual([slowId, fastId]);
  expect((await catchUp(m.test_api_key, start)).map((e) => e.eventId)).toEqual([slowId, fastId]);
  await ws.dispose();
});

test('catch-up filters by type, pages newest first by default, and refuses a foreign cursor', async () => {
  const m = await t.merchant('Filters');
  const ids = [];
  for (const type of ['a.one', 'b.two', 'a.one', 'b.two']) ids.push(await recordTestEvent(t, m.id, type));
  // A catch-up read returns events once settled: another test file's open transaction can hold them back a moment.
  await settled(t, ids.at(-1)!);
  const onlyA = await catchUp(m.test_api_key, null, 1, ['a.one']);
  expect(onlyA.map((e) => e.eventId)).toEqual([ids[0], ids[2]]);
  const api = client(t.url, m.test_api_key);
  const newest = await api.graphql<
    EventIds & { events: { pageInfo: { endCursor: string | null; hasNextPage: boolean } } }
  >(`{ events(first: 2) { nodes { eventId } pageInfo { endCursor hasNextPage } } }`);
  expect(newest.body.data.events.nodes.map((n) => n.eventId)).toEqual([ids[3], ids[2]]);
  const older = await api.graphql<EventIds>(
    `query($after: String) { events(first: 5, after: $after) { nodes { eventId } } }`,
    { after: newest.body.data.events.pageInfo.endCursor },
  );
  expect(older.body.data.events.nodes.map((n) => n.eventId)).toEqual([ids[1], ids[0]]);
  const bad = await api.graphql(CATCH_UP, { after: 'bm9wZQ' });
  expect(bad.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_request', param: 'after' });
  // A cursor read through a delivery's event (no log cursor at hand) is loaded on demand.
  const node = await api.graphql(`query($id: ID!) { node(id: $id) { ... on Event { cursor } } }`, {
    id: Buffer.from(`Event:${ids[0]}`).toString('base64url'),
  });
  expect(node.body.errors).toBeUndefined();
  expect(node.body.data.node.cursor).toBe(onlyA[0].cursor);
});
