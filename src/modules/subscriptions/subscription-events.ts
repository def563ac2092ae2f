import type { Principal, ServiceContext } from '../../platform/context.js';
import { eventRow, recordEvent, type EventRow } from '../../platform/events/events.service.js';
import type { Customer, PaymentMethod } from '../customers/customer.entity.js';
import { subscriptionEventBody, type SubscriptionEventSource } from './subscription.resource.js';

type Owner = Pick<Principal, 'merchantId' | 'livemode'>;
type EventCustomer = Pick<Customer, 'email'> | null;
type EventCard = Pick<PaymentMethod, 'type' | 'last4' | 'brand'> | null;
type Extra = Record<string, unknown>;

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
export function recordSubscriptionEvent(
  ctx: ServiceContext,
  type: string,
  sub: SubscriptionEventSource,
  customer: EventCustomer,
  pm: EventCard,
  extra: Extra = {},
): void {
  const event = recordEvent(ctx, type, { ...subscriptionEventBody(sub, customer, pm), ...extra });
  event.createdAt = stampAfterLast(ctx.principal, event.createdAt);
}

/** The row `recordSubscriptionEvent` would record at `at`, for a batch written in one statement (`insertEvents`). */
export function subscriptionEventRow(
  principal: Owner,
  at: Date,
  type: string,
  sub: SubscriptionEventSource,
  customer: EventCustomer,
  pm: EventCard,
  extra: Extra = {},
): EventRow {
  return eventRow(
    principal,
    type,
    { ...subscriptionEventBody(sub, customer, pm), ...extra },
    stampAfterLast(principal, at),
  );
}

/** `at`, or a millisecond after the last subscription event of this merchant and mode in this process if that is later. */
function stampAfterLast(principal: Owner, at: Date): Date {
  const clock = `${principal.merchantId}:${principal.livemode}`;
  const stamp = Math.max(at.getTime(), (lastEventAt.get(clock) ?? 0) + 1);
  if (lastEventAt.size > 10_000) lastEventAt.clear();
  lastEventAt.set(clock, stamp);
  return new Date(stamp);
}
const lastEventAt = new Map<string, number>();
