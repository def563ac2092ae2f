import { EventEmitter, on } from 'node:events';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PubSub } from 'type-graphql';
import type { Log, Principal } from '../context.js';
import { logFailure } from '../db/database-health.js';
import { logHead, readLogTail, type EventPosition, type LoggedEvent } from '../events/event-log.js';
import type { PgListener } from './pg-listener.js';

/** The routing key of every event published to GraphQL subscribers. */
export const EVENTS_TOPIC = 'EVENTS';

/** The channel the `events` insert trigger NOTIFYs (see the events_notify migration). */
export const EVENTS_CHANNEL = 'events';

/** An event as subscribers receive it, with its log cursor (resume `events(order: OLDEST_FIRST)` after it). */
export type LiveEvent = LoggedEvent;

/** The topic id that scopes a subscription to one merchant and mode. */
export function scopeTopicId(principal: Pick<Principal, 'merchantId' | 'livemode'>): string {
  return `${principal.merchantId}:${principal.livemode ? 'live' : 'test'}`;
}

/** Whether log position `a` sorts after `b`. */
function after(a: EventPosition, b: EventPosition): boolean {
  const [ax, bx] = [BigInt(a.xid), BigInt(b.xid)];
  return ax !== bx ? ax > bx : BigInt(a.seq) > BigInt(b.seq);
}

/** What the log tail publishes: an event and its log position (subscribers see the event only). */
interface Logged {
  position: EventPosition;
  event: LiveEvent;
}

/**
 * type-graphql's `PubSub` in this process: `subscribe(topic, id)` gives an async iterator that
 * ends (and unregisters) when the subscriber's `return()` is called; `publish(topic, id, payload)`
 * or `publish(topic, payload)` reaches every local subscriber of that topic and id. Other
 * processes are reached through PostgreSQL (see `bridgeEvents`).
 *
 * A subscriber starts at a log position: with a log tail attached (`startAt`), each new subscriber
 * first gets the newest position every reader can see, and then only events after it, so it sees
 * every event committed once it is subscribed and none from before, however far behind the tail is.
 */
export class EventPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private subscribers = 0;
  /** Set by the log tail: where a subscriber starting now starts. */
  startAt?: () => Promise<EventPosition>;

  /** The emitter event of a topic and id (a topic id is a string: `scopeTopicId`). */
  private static key(routingKey: string, id?: string | null): string {
    return id === undefined || id === null ? routingKey : `${routingKey}:${id}`;
  }

  publish(routingKey: string, ...args: [id: string, payload: unknown] | [payload: unknown]): void {
    const [id, payload] = args.length === 1 ? [undefined, args[0]] : args;
    this.emitter.emit(EventPubSub.key(routingKey, id), payload);
  }

  /** Publishes an event the log tail read at `position` to the subscribers of its merchant and mode that started before it. */
  publishLogged(position: EventPosition, event: LiveEvent): void {
    const key = EventPubSub.key(
      EVENTS_TOPIC,
      scopeTopicId({ merchantId: event.merchant_id, livemode: event.livemode }),
    );
    if (this.emitter.listenerCount(key) > 0) this.emitter.emit(key, { position, event } satisfies Logged);
  }

  subscribe(routingKey: string, dynamicId?: string): AsyncIterableIterator<unknown> {
    const key = EventPubSub.key(routingKey, dynamicId);
    this.subscribers++;
    let ended = false;
    let events: AsyncIterableIterator<unknown[]> | undefined;
    let from: EventPosition | undefined;
    // Listening starts once the starting position is known (the tail publishes nothing in between: see bridgeEvents).
    const listening = (this.startAt?.() ?? Promise.resolve(undefined)).then((position) => {
      from = position;
      if (!ended) events = on(this.emitter, key) as AsyncIterableIterator<unknown[]>;
    });
    const end = async () => {
      if (!ended) {
        ended = true;
        this.subscribers--;
      }
      await listening.catch(() => undefined);
      await events?.return?.();
    };
    // A plain iterator object, not an async generator: `return()` must end a pending `next()` at once.
    const iterator: AsyncIterableIterator<unknown> = {
      next: async () => {
        await listening;
        for (;;) {
          if (!events) return { done: true, value: undefined };
          const r = await events.next();
          if (r.done) return { done: true, value: undefined };
          const payload: unknown = r.value[0];
          if (!isLogged(payload)) return { done: false, value: payload };
          if (!from || after(payload.position, from)) return { done: false, value: payload.event };
        }
      },
      return: async () => {
        await end();
        return { done: true, value: undefined };
      },
      throw: async (err?: unknown) => {
        await end();
        throw err;
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /** Whether anyone in this process is subscribed (or subscribing) to anything. */
  get listening(): boolean {
    return this.subscribers > 0;
  }
}

const isLogged = (payload: unknown): payload is Logged =>
  typeof payload === 'object' && payload !== null && 'position' in payload && 'event' in payload;

/**
 * Feeds committed events into `pubSub` in log order (see `event-log.ts`), so subscribers connected
 * to any API process see events recorded by every process, each with its log cursor. PostgreSQL
 * NOTIFY on `events` only wakes the tail up; the tail reads the outbox after the last position it
 * published, so a live event is never published before an event that sorts ahead of it, and a
 * client that resumes the log after the cursor of the last live event it saw misses nothing.
 * Events held back by a still-running older transaction are looked at again shortly; a slow poll
 * covers notifications lost while the LISTEN connection was down. `paceMs` (none by default: live
 * events are read as they commit) spaces reads so one takes many commits' events. With nobody subscribed
 * in this process the tail reads nothing; a new subscriber's starting position (the log's settled
 * head) is read in the tail's turn, so no read in flight can publish past it unseen. Returns a stop function.
 */
export function bridgeEvents(
  listener: PgListener,
  pubSub: EventPubSub,
  orm: MikroORM,
  log: Log,
  opts: { pollMs?: number; heldBackMs?: number; paceMs?: number } = {},
): () => void {
  const em = orm.em.fork();
  const paceMs = opts.paceMs ?? 0;
  let head: EventPosition | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let paced: NodeJS.Timeout | undefined;
  let lastRead = -Infinity;
  /** Subscribers waiting for their starting position. */
  let starting: { resolve: (p: EventPosition) => void; reject: (err: unknown) => void }[] = [];

  pubSub.startAt = () =>
    new Promise<EventPosition>((resolve, reject) => {
      starting.push({ resolve, reject });
      run(); // in the tail's turn, not paced
    });

  const pump = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (paced) return;
    const wait = lastRead + paceMs - performance.now();
    if (wait > 0) {
      paced = setTimeout(() => ((paced = undefined), pump()), wait).unref();
      return;
    }
    run();
  };

  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    turn()
      .catch((err: unknown) => logFailure(log, err, 'live events not forwarded'))
      .finally(() => {
        running = false;
        if (again || starting.length) {
          again = false;
          if (starting.length) run();
          else pump();
        }
      });
  };

  async function turn(): Promise<void> {
    if (starting.length) {
      const waiting = starting;
      starting = [];
      try {
        // Publish what the tail owes the subscribers already listening, then start the new ones at the settled head.
        if (head) await drain();
        const position = await logHead(em);
        head ??= position;
        for (const s of waiting) s.resolve(position);
      } catch (err) {
        for (const s of waiting) s.reject(err);
        throw err;
      }
      return;
    }
    if (!pubSub.listening) {
      head = undefined; // idle: a subscriber's arrival starts the tail again
      return;
    }
    lastRead = performance.now();
    await drain();
  }

  async function drain(): Promise<void> {
    let from = head ?? (head = await logHead(em));
    for (;;) {
      const { items, heldBack } = await readLogTail(em, from, TAIL_BATCH);
      for (const { position, cursor, ...event } of items) {
        head = from = position;
        pubSub.publishLogged(position, { ...event, cursor });
      }
      if (heldBack && !retry) retry = setTimeout(() => ((retry = undefined), pump()), opts.heldBackMs ?? 25).unref();
      if (items.length < TAIL_BATCH || heldBack || stopped) return;
    }
  }

  listener.on(EVENTS_CHANNEL, pump);
  listener.onMissed(pump);
  const poll = setInterval(pump, opts.pollMs ?? 1000).unref();
  return () => {
    stopped = true;
    clearInterval(poll);
    if (retry) clearTimeout(retry);
    if (paced) clearTimeout(paced);
  };
}

const TAIL_BATCH = 500;
