import type { ServiceContext } from '../../platform/context.js';
import { recordEvent } from '../../platform/events/events.service.js';
import type { Customer, PaymentMethod } from '../customers/customer.entity.js';
import type { Subscription } from './subscription.entity.js';
import { subscriptionEventBody } from './subscription.resource.js';

/**
 * Records a `subscription.*` event with the spec's body plus `extra`.
 *
 * Events recorded together (created then renewed, resumed then renewed) must keep their order
 * where they are read by `(created_at, id)`: a subscription's events page and the webhook
 * fan-out. The event log's own position (transaction id, sequence: platform/events/event-log.ts)
 * orders them already, but those readers (and tests reading the table) do not use it, and ids are
 * random; so each event is stamped at least a millisecond after the one before it in this process,
 * per merchant and mode, since each test clock runs at its own time.
 */
export function recordSubscriptionEvent(ctx: ServiceContext, type: string, sub: Subscription, customer: Customer | null, pm: PaymentMethod | null, extra: Record<string, unknown> = {}): void {
  const event = recordEvent(ctx, type, { ...subscriptionEventBody(sub, customer, pm), ...extra });
  const clock = `${ctx.principal.merchantId}:${ctx.principal.livemode}`;
  const at = Math.max(event.createdAt.getTime(), (lastEventAt.get(clock) ?? 0) + 1);
  if (lastEventAt.size > 10_000) lastEventAt.clear();
  lastEventAt.set(clock, at);
  event.createdAt = new Date(at);
}
const lastEventAt = new Map<string, number>();
