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

/**
 * type-graphql's `PubSub` in this process: `subscribe(topic, id)` gives an async iterator that
 * ends (and unregisters) when the subscriber's `return()` is called; `publish(topic, id, payload)`
 * or `publish(topic, payload)` reaches every local subscriber of that topic and id. Other
 * processes are reached through PostgreSQL (see `bridgeEvents`).
 */
export class EventPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  /** The emitter event of a topic and id (a topic id is a string: `scopeTopicId`). */
  private static key(routingKey: string, id?: string | null): string {
    return id === undefined || id === null ? routingKey : `${routingKey}:${id}`;
  }

  publish(routingKey: string, ...args: [id: string, payload: unknown] | [payload: unknown]): void {
    const [id, payload] = args.length === 1 ? [undefined, args[0]] : args;
    this.emitter.emit(EventPubSub.key(routingKey, id), payload);
  }

  subscribe(routingKey: string, dynamicId?: string): AsyncIterableIterator<unknown> {
    const events = on(this.emitter, EventPubSub.key(routingKey, dynamicId)) as AsyncIterableIterator<unknown[]>;
    // A plain iterator object, not an async generator: `return()` must end a pending `next()` at once.
    const iterator: AsyncIterableIterator<unknown> = {
      next: async () => {
        const r = await events.next();
        return r.done ? { done: true, value: undefined } : { done: false, value: r.value[0] };
      },
      return: async () => {
        await events.return?.();
        return { done: true, value: undefined };
      },
      throw: async (err?: unknown) => {
        await events.return?.();
        throw err;
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /** Whether anyone in this process listens to `routingKey` / `id`. */
  hasSubscribers(routingKey: string, id?: string): boolean {
    return this.emitter.listenerCount(EventPubSub.key(routingKey, id)) > 0;
  }
}

/**
 * Feeds committed events into `pubSub` in log order (see `event-log.ts`), so subscribers connected
 * to any API process see events recorded by every process, each with its log cursor. PostgreSQL
 * NOTIFY on `events` only wakes the tail up; the tail reads the outbox after the last position it
 * published, so a live event is never published before an event that sorts ahead of it, and a
 * client that resumes the log after the cursor of the last live event it saw misses nothing.
 * Events held back by a still-running older transaction are looked at again shortly; a slow poll
 * covers notifications lost while the LISTEN connection was down. Returns a stop function.
 */
export function bridgeEvents(listener: PgListener, pubSub: EventPubSub, orm: MikroORM, log: Log, opts: { pollMs?: number; heldBackMs?: number } = {}): () => void {
  const em = orm.em.fork();
  let head: EventPosition | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const pump = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    drain()
      .catch((err: unknown) => logFailure(log, err, 'live events not forwarded'))
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          pump();
        }
      });
  };

  async function drain(): Promise<void> {
    let from = head ?? (head = await logHead(em));
    for (;;) {
      const { items, heldBack } = await readLogTail(em, from, TAIL_BATCH);
      for (const { position, cursor, ...event } of items) {
        head = from = position;
        const topicId = scopeTopicId({ merchantId: event.merchant_id, livemode: event.livemode });
        if (pubSub.hasSubscribers(EVENTS_TOPIC, topicId)) pubSub.publish(EVENTS_TOPIC, topicId, { ...event, cursor });
      }
      if (heldBack && !retry) retry = setTimeout(() => ((retry = undefined), pump()), opts.heldBackMs ?? 25).unref();
      if (items.length < TAIL_BATCH || heldBack || stopped) return;
    }
  }

  listener.on(EVENTS_CHANNEL, pump);
  const poll = setInterval(pump, opts.pollMs ?? 1000).unref();
  pump();
  return () => {
    stopped = true;
    clearInterval(poll);
    if (retry) clearTimeout(retry);
  };
}

const TAIL_BATCH = 500;
