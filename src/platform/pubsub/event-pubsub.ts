import { EventEmitter, on } from 'node:events';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PubSub } from 'type-graphql';
import type { Log, Principal } from '../context.js';
import type { PgListener } from './pg-listener.js';

/** The routing key of every event published to GraphQL subscribers. */
export const EVENTS_TOPIC = 'EVENTS';

/** The channel the `events` insert trigger NOTIFYs (see the events_notify migration). */
export const EVENTS_CHANNEL = 'events';

/** An event as subscribers receive it (from the NOTIFY payload, or read back when it was too large). */
export interface LiveEvent {
  id: string;
  merchant_id: string;
  livemode: boolean;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

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

  private static key(routingKey: string, id?: unknown): string {
    return id === undefined || id === null ? routingKey : `${routingKey}:${String(id)}`;
  }

  publish(routingKey: string, ...args: unknown[]): void {
    const [id, payload] = args.length >= 2 ? args : [undefined, args[0]];
    this.emitter.emit(EventPubSub.key(routingKey, id), payload);
  }

  subscribe(routingKey: string, dynamicId?: unknown): AsyncIterableIterator<unknown> {
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
  hasSubscribers(routingKey: string, id?: unknown): boolean {
    return this.emitter.listenerCount(EventPubSub.key(routingKey, id)) > 0;
  }
}

/**
 * Feeds committed events from PostgreSQL NOTIFY into `pubSub`, so subscribers connected to any
 * API process see events recorded by every process. Events nobody here subscribes to are
 * skipped; one too large for a NOTIFY payload is read back by id. Order is kept per process.
 */
export function bridgeEvents(listener: PgListener, pubSub: EventPubSub, orm: MikroORM, log: Log): void {
  let chain = Promise.resolve();
  listener.on(EVENTS_CHANNEL, (payload) => {
    chain = chain.then(() => forward(payload)).catch((err: unknown) => log.error({ err }, 'live event not forwarded'));
  });

  async function forward(payload: string): Promise<void> {
    const note = JSON.parse(payload) as Partial<LiveEvent> & { id: string; merchant_id: string; livemode: boolean };
    const topicId = scopeTopicId({ merchantId: note.merchant_id, livemode: note.livemode });
    if (!pubSub.hasSubscribers(EVENTS_TOPIC, topicId)) return;
    let event: LiveEvent | undefined;
    if (note.data !== undefined && note.created_at !== undefined && note.type !== undefined) {
      event = { ...(note as LiveEvent), created_at: new Date(note.created_at).toISOString() };
    } else {
      const [row] = await orm.em.fork().getConnection().execute<{ type: string; created_at: Date; data: Record<string, unknown> }[]>(
        'select type, created_at, data from events where id = ?',
        [note.id],
      );
      if (row) event = { id: note.id, merchant_id: note.merchant_id, livemode: note.livemode, type: row.type, created_at: new Date(row.created_at).toISOString(), data: row.data };
    }
    if (event) pubSub.publish(EVENTS_TOPIC, topicId, event);
  }
}
