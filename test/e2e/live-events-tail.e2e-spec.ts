import type { Log } from '../../src/platform/context.js';
import {
  bridgeEvents,
  EVENTS_TOPIC,
  EventPubSub,
  scopeTopicId,
  type LiveEvent,
} from '../../src/platform/pubsub/event-pubsub.js';
import { PgListener } from '../../src/platform/pubsub/pg-listener.js';
import { recordTestEvent, settled } from '../helpers/events.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const noop = () => undefined;
const silent: Log = { info: noop, warn: noop, error: noop, debug: noop };

let t: TestApp;
let listener: PgListener;
let pubSub: EventPubSub;
let stop: () => void;
beforeAll(async () => {
  t = await startTestApp();
  listener = new PgListener(t.orm.config.get('clientUrl'), silent);
  pubSub = new EventPubSub();
  // A tail that reads at most every 1.5 s: far behind the log whenever events come quicker.
  stop = bridgeEvents(listener, pubSub, t.orm, silent, { paceMs: 1500 });
  await listener.start();
});
afterAll(async () => {
  stop();
  await listener.close();
  await t.close();
});

/** Collects the events a subscriber of `merchantId` (test mode) receives. */
function subscriber(merchantId: string) {
  const iterator = pubSub.subscribe(EVENTS_TOPIC, scopeTopicId({ merchantId, livemode: false }));
  const got: string[] = [];
  const done = (async () => {
    for (;;) {
      const r = await iterator.next();
      if (r.done) return;
      got.push((r.value as LiveEvent).id);
    }
  })();
  return { got, end: async () => (await iterator.return!(), await done) };
}

async function until(check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a subscriber gets every event committed after it subscribed and none from before, even while the tail is behind', async () => {
  const m = await t.merchant('Tail');
  const before = await recordTestEvent(t, m.id, 'probe.before'); // nobody listens: the tail reads nothing and keeps no place
  await settled(t, before);
  const a = subscriber(m.id);
  await new Promise((r) => setTimeout(r, 200)); // a is listening
  const first = await recordTestEvent(t, m.id, 'probe.first'); // read at once (the tail was quiet)
  await until(() => a.got.includes(first));
  const behind = await recordTestEvent(t, m.id, 'probe.behind'); // the tail waits out its pace: it is behind the log now
  await settled(t, behind);
  const b = subscriber(m.id);
  await new Promise((r) => setTimeout(r, 200)); // b is listening (starting b read what the tail owed a first)
  const next = await recordTestEvent(t, m.id, 'probe.next');
  await until(() => a.got.includes(next) && b.got.includes(next));
  await new Promise((r) => setTimeout(r, 300));
  expect(a.got).toEqual([first, behind, next]);
  // b subscribed after `behind` was committed: it gets what came after, in order, and nothing older.
  expect(b.got).toEqual([next]);
  expect([...a.got, ...b.got]).not.toContain(before);
  await a.end();
  await b.end();

  // Nobody listens again: the tail goes quiet; a new subscriber starts from the log's head.
  const meanwhile = await recordTestEvent(t, m.id, 'probe.meanwhile');
  await new Promise((r) => setTimeout(r, 1700));
  await settled(t, meanwhile);
  const c = subscriber(m.id);
  await new Promise((r) => setTimeout(r, 200));
  const later = await recordTestEvent(t, m.id, 'probe.later');
  await until(() => c.got.includes(later));
  expect(c.got).toEqual([later]);
  expect(c.got).not.toContain(meanwhile);
  await c.end();
}, 60_000);

test('subscribers of another merchant or mode get nothing of it', async () => {
  const [m, other] = [await t.merchant('Mine'), await t.merchant('Other')];
  const mine = subscriber(m.id);
  const theirs = subscriber(other.id);
  await new Promise((r) => setTimeout(r, 200));
  const id = await recordTestEvent(t, m.id, 'probe.mine');
  const live = await recordTestEvent(t, m.id, 'probe.live', {}, { livemode: true });
  await until(() => mine.got.includes(id));
  await new Promise((r) => setTimeout(r, 1700));
  expect(mine.got).toEqual([id]);
  expect(theirs.got).toEqual([]);
  expect(mine.got).not.toContain(live);
  await mine.end();
  await theirs.end();
}, 30_000);
