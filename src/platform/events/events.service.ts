import type { EntityManager } from '@mikro-orm/postgresql';
import { scope, type Principal, type ServiceContext } from '../context.js';
import { bulkInsert, type BulkWrite } from '../db/bulk.js';
import { prefixedId } from '../db/ids.js';
import { registerInsertCompanions } from '../db/sql.js';
import { DomainError } from '../errors.js';
import { decodeEventCursor, eventPosition, readEventLog, type LoggedEvent } from './event-log.js';
import { Event } from './event.entity.js';

export interface EventEnvelope {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** An event as its followers see it, however it is written. */
export interface FollowedEvent {
  id: string;
  merchantId: string;
  livemode: boolean;
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * What events cause beside themselves, written with them in the same unit of work or statement
 * (the email outbox registers here: a receipt is written with `order.completed`). Every way an
 * event is written calls it: `recordEvent`, `insertTogether` (an event among its entities), and
 * `insertEvents`.
 */
export interface EventFollower {
  /** Entities (not persisted yet) to write with `event`. */
  entities(em: EntityManager, event: FollowedEvent): object[];
  /** Statements writing what `events` cause, for the same `runBulk`. */
  bulk(em: EntityManager, events: FollowedEvent[]): BulkWrite[];
}

const followers: EventFollower[] = [];

/** Adds what events cause (modules register at start; see `EventFollower`). */
export function registerEventFollower(follower: EventFollower): void {
  followers.push(follower);
}

const factsOf = (e: Event): FollowedEvent => ({
  id: e.id,
  merchantId: e.merchant.id,
  livemode: e.livemode,
  type: e.type,
  data: e.data,
  createdAt: e.createdAt,
});

function followersOf(em: EntityManager, event: Event): object[] {
  return followers.length ? followers.flatMap((f) => f.entities(em, factsOf(event))) : [];
}

// An event among `insertTogether`'s entities brings what it causes into the same statement.
registerInsertCompanions((em, entity) => (entity instanceof Event ? followersOf(em, entity) : []));

/**
 * Records an event in the caller's unit of work: it is flushed (and committed) together with
 * the state change, so a rolled-back change never has an event and a committed one always does
 * (nor what it causes: see `EventFollower`).
 */
export function recordEvent(
  ctx: ServiceContext,
  type: string,
  data: Record<string, unknown>,
  opts: { webhookUrl?: string | null } = {},
): Event {
  const event = newEvent(ctx, type, data, opts);
  ctx.em.persist(event);
  for (const entity of followersOf(ctx.em, event)) ctx.em.persist(entity);
  return event;
}

/** An event of the caller not yet in any unit of work (for `insertTogether`, written in one statement with its change). */
export function newEvent(
  ctx: ServiceContext,
  type: string,
  data: Record<string, unknown>,
  opts: { webhookUrl?: string | null } = {},
): Event {
  return ctx.em.create(
    Event,
    {
      merchant: ctx.principal.merchantId,
      livemode: ctx.principal.livemode,
      type,
      data,
      webhookUrl: opts.webhookUrl ?? null,
      createdAt: ctx.now(), // the envelope's created_at: the merchant's test clock in test mode
    },
    { persist: false },
  );
}

/** An event as a row of `events`, for a caller that writes many at once (`insertEvents`). */
export type EventRow = FollowedEvent;

/** The row `recordEvent` would flush, stamped `at` (the envelope's created_at: the caller's clock). */
export function eventRow(
  principal: Pick<Principal, 'merchantId' | 'livemode'>,
  type: string,
  data: Record<string, unknown>,
  at: Date,
): EventRow {
  return {
    id: prefixedId('evt'),
    merchantId: principal.merchantId,
    livemode: principal.livemode,
    type,
    data,
    createdAt: at,
  };
}

/**
 * Inserts event rows in one statement, in their order (the log's sequence follows it), and what
 * they cause (`EventFollower`); run them in the state change's transaction (`runBulk`).
 */
export function insertEvents(em: EntityManager, rows: EventRow[]): BulkWrite[] {
  return [
    bulkInsert(
      em,
      Event,
      rows.map((r) => ({ ...r, merchant: r.merchantId })),
    ),
    ...followers.flatMap((f) => f.bulk(em, rows)),
  ];
}

/** The spec's event envelope. */
export function toEventEnvelope(event: Pick<Event, 'id' | 'type' | 'createdAt' | 'data'>): EventEnvelope {
  return { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.data };
}

/** One event of the caller by its `evt_` id, or 404 `not_found`. */
export async function getEvent(ctx: ServiceContext, id: string): Promise<Event> {
  const event = await ctx.em.findOne(Event, { id, ...scope(ctx) });
  if (!event) throw DomainError.notFound('event', id);
  return event;
}

/** The order of an events page: newest first (browsing) or oldest first (catching up after a cursor). */
export const EVENT_ORDERS = ['newest_first', 'oldest_first'] as const;
export type EventOrder = (typeof EVENT_ORDERS)[number];

/**
 * A page of the caller's events in log order (see `event-log.ts`), optionally only of the given
 * types. `after`/`before` are log cursors (an edge's, or a live event's `cursor`) bounding the
 * range as in Relay; `first` takes the start of the range, `last` (`fromEnd`) its end. Oldest
 * first after a cursor is the catch-up read: everything committed after it, once, in order.
 */
/** The one rule of both lists' `created_after` / `created_before` (inclusive bounds): after must not be past before. */
function checkCreatedRange(filters: { createdAfter?: Date; createdBefore?: Date }): void {
  if (filters.createdAfter && filters.createdBefore && filters.createdAfter > filters.createdBefore) {
    throw new DomainError('invalid_request', 'created_after must be before created_before', { param: 'created_after' });
  }
}

export async function listEvents(
  ctx: ServiceContext,
  filters: { types?: string[]; order: EventOrder; createdAfter?: Date; createdBefore?: Date },
  page: { limit: number; after?: string; before?: string; fromEnd?: boolean },
): Promise<{ items: LoggedEvent[]; hasMore: boolean }> {
  const after = page.after === undefined ? undefined : decodeEventCursor(page.after, 'after');
  const before = page.before === undefined ? undefined : decodeEventCursor(page.before, 'before');
  const oldestFirst = filters.order === 'oldest_first';
  const [lower, upper] = oldestFirst ? [after, before] : [before, after];
  const ascending = oldestFirst !== Boolean(page.fromEnd);
  // Reads reaching the newest events keep to finished transactions, so a later cursor never skips a late commit.
  checkCreatedRange(filters);
  const read = await readEventLog(ctx.em, ctx.principal, {
    types: filters.types,
    createdAfter: filters.createdAfter,
    createdBefore: filters.createdBefore,
    lower,
    upper,
    ascending,
    settled: oldestFirst || lower !== undefined,
    limit: page.limit,
  });
  if (ascending !== oldestFirst) read.items.reverse();
  return read;
}

/**
 * A REST page of the caller's events, newest first (`GET /api/v2/events`): `startingAfter` is an
 * event id (the previous page's `next_cursor`), 400 when it is not one of the caller's events.
 */
export async function listEventsPage(
  ctx: ServiceContext,
  filters: { type?: string; createdAfter?: Date; createdBefore?: Date },
  page: { limit: number; startingAfter?: string },
): Promise<{ items: LoggedEvent[]; hasMore: boolean }> {
  checkCreatedRange(filters);
  const upper =
    page.startingAfter === undefined ? undefined : await eventPosition(ctx.em, ctx.principal, page.startingAfter);
  if (page.startingAfter !== undefined && !upper)
    throw new DomainError('invalid_request', 'starting_after is not an event id of this account and mode', {
      param: 'starting_after',
    });
  const types = filters.type === undefined ? undefined : [filters.type];
  return readEventLog(ctx.em, ctx.principal, {
    types,
    createdAfter: filters.createdAfter,
    createdBefore: filters.createdBefore,
    upper: upper ?? undefined,
    ascending: false,
    settled: false,
    limit: page.limit,
  });
}
