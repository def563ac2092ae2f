import type { ServiceContext } from '../context.js';
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
export function toEventEnvelope(event: Event): EventEnvelope {
  return { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.data };
}
