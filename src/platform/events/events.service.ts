import type { FilterQuery } from '@mikro-orm/core';
import { scope, type ServiceContext } from '../context.js';
import { DomainError } from '../errors.js';
import { paginate, type Page, type PageRequest } from '../pagination/keyset.js';
import { Event } from './event.entity.js';

export interface EventEnvelope {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/**
 * Records an event in the caller's unit of work: it is flushed (and committed) together with
 * the state change, so a rolled-back change never has an event and a committed one always does.
 */
export function recordEvent(ctx: ServiceContext, type: string, data: Record<string, unknown>, opts: { webhookUrl?: string | null } = {}): Event {
  return ctx.em.create(Event, {
    merchant: ctx.principal.merchantId,
    livemode: ctx.principal.livemode,
    type,
    data,
    webhookUrl: opts.webhookUrl ?? null,
    createdAt: new Date(),
  });
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

/** A page of the caller's events, newest first, optionally only of the given types. */
export async function listEvents(ctx: ServiceContext, filters: { types?: string[] }, page: PageRequest<string>, cursorParam = 'starting_after'): Promise<Page<Event>> {
  const where: FilterQuery<Event> = { ...scope(ctx) };
  if (filters.types?.length) where.type = { $in: filters.types };
  return paginate(ctx, Event, where, page, { cursorParam });
}
