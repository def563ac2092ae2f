import type { ServiceContext } from '../../platform/context.js';
import type { Customer, PaymentMethod } from '../customers/customer.entity.js';
import { recordSubscriptionEvent } from './subscription-events.js';
import { SubscriptionInvoice, type Subscription } from './subscription.entity.js';
import type { SubscriptionEventSource } from './subscription.resource.js';

/** What ending a subscription reads and changes: the entity a service holds, or billing's row. */
export type EndingSubscription = SubscriptionEventSource &
  Pick<Subscription, 'endedAt' | 'priorStatus' | 'priorNextChargeAt' | 'openInvoiceId' | 'billingLeaseUntil'>;

/**
 * Ends `sub` at `at` (cancellation now, or a scheduled one reaching the period end) and voids its
 * open cycle; records `subscription.canceled`. A charge of that cycle still in flight is never
 * kept: its settle step reverses it (see subscription-billing.ts).
 */
export async function endSubscription(
  ctx: ServiceContext,
  sub: EndingSubscription,
  at: Date,
  customer: Pick<Customer, 'email'> | null,
  pm: Pick<PaymentMethod, 'type' | 'last4' | 'brand'> | null,
): Promise<void> {
  sub.status = 'cancelled';
  sub.endedAt = at;
  sub.cancelledAt ??= at;
  sub.nextChargeAt = null;
  sub.priorStatus = null;
  sub.priorNextChargeAt = null;
  if (sub.openInvoiceId) {
    await ctx.em.nativeUpdate(
      SubscriptionInvoice,
      { id: sub.openInvoiceId, status: 'open' },
      { status: 'void', nextRetryAt: null },
    );
    sub.openInvoiceId = null;
  }
  recordSubscriptionEvent(ctx, 'subscription.canceled', sub, customer, pm);
  // A charge in flight (its lease is cleared only when it is settled): stay due, so that if its
  // worker dies the sweep re-drives it once the lease lapses and its capture is reversed.
  if (sub.billingLeaseUntil) sub.nextChargeAt = at;
}
