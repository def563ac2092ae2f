import type { Customer, PaymentMethod } from '../customers/customer.entity.js';
import { EVENT_INTERVAL } from './subscription-calendar.js';
import type { Subscription, SubscriptionInvoice, SubscriptionInvoiceAttempt } from './subscription.entity.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The card a subscription charges, as the spec shows it (type, last4, brand). */
function paymentMethodOf(pm: Pick<PaymentMethod, 'id' | 'type' | 'last4' | 'brand'> | null) {
  return pm ? { id: pm.id, type: pm.type, last4: pm.last4, brand: pm.brand } : null;
}

/** The spec's subscription object (REST). */
export function toSubscriptionResource(s: Subscription, pm: PaymentMethod | null) {
  return {
    id: s.id,
    object: 'subscription',
    livemode: s.livemode,
    customer_id: s.customerId,
    status: s.status,
    product_id: s.productId,
    merchant_product_id: s.merchantProductId,
    amount_cents: s.amountCents,
    currency: s.currency,
    interval: s.interval,
    interval_count: s.intervalCount,
    trial_period_days: s.trialPeriodDays,
    trial_end: iso(s.trialEnd),
    current_period_start: iso(s.currentPeriodStart),
    current_period_end: iso(s.currentPeriodEnd),
    next_billing_date: iso(s.nextChargeAt),
    cancel_at_period_end: s.cancelAtPeriodEnd,
    cancelled_at: iso(s.cancelledAt),
    cancellation_reason: s.cancellationReason,
    ended_at: iso(s.endedAt),
    payment_method_id: s.paymentMethodId,
    payment_method: paymentMethodOf(pm),
    latest_invoice_id: s.latestInvoiceId,
    plan_id: null,
    metadata: s.metadata,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  };
}
export type SubscriptionResource = ReturnType<typeof toSubscriptionResource>;

/** The cancel operation's answer: id, status, cancel_at_period_end, current_period_end, cancelled_at. */
export function toCancelResource(s: Subscription) {
  // A scheduled end is reported as `cancelled` with cancel_at_period_end true, as the spec's
  // state table says; the subscription itself keeps billing until current_period_end.
  return {
    id: s.id,
    status: 'cancelled' as const,
    cancel_at_period_end: s.cancelAtPeriodEnd,
    current_period_end: iso(s.currentPeriodEnd),
    cancelled_at: iso(s.cancelledAt),
  };
}

/** What a `subscription.*` event body is made of (an entity, or the row billing reads). */
export type SubscriptionEventSource = Pick<
  Subscription,
  | 'id'
  | 'status'
  | 'cancelAtPeriodEnd'
  | 'amountCents'
  | 'currency'
  | 'interval'
  | 'intervalCount'
  | 'nextChargeAt'
  | 'currentPeriodEnd'
  | 'cancelledAt'
>;

/** The subscription body of `subscription.*` events (the spec's field set). */
export function subscriptionEventBody(
  s: SubscriptionEventSource,
  customer: Pick<Customer, 'email'> | null,
  pm: Pick<PaymentMethod, 'type' | 'last4' | 'brand'> | null,
) {
  return {
    subscription_id: s.id,
    plan_id: null,
    status: s.status,
    cancel_at_period_end: s.cancelAtPeriodEnd,
    customer_email: customer?.email ?? null,
    amount: s.amountCents,
    currency: s.currency,
    interval: EVENT_INTERVAL[s.interval],
    interval_count: s.intervalCount,
    next_charge_at: iso(s.nextChargeAt),
    current_period_end: iso(s.currentPeriodEnd),
    canceled_at: iso(s.cancelledAt),
    card_brand: pm?.brand ?? null,
    card_last4: pm?.last4 ?? null,
    payment_method_type: pm?.type ?? null,
  };
}

/** `subscription.renewed`'s `invoice`. */
export function invoiceEventBody(
  inv: Pick<SubscriptionInvoice, 'id' | 'orderId' | 'periodStart' | 'periodEnd' | 'status' | 'amount' | 'pspReference'>,
) {
  return {
    invoice_id: inv.id,
    order_id: inv.orderId,
    period_start: iso(inv.periodStart),
    period_end: iso(inv.periodEnd),
    amount_paid: inv.status === 'paid' ? inv.amount : 0,
    psp_reference: inv.pspReference,
  };
}

/** The invoice (one cycle) with its attempts. */
export function toInvoiceResource(inv: SubscriptionInvoice, attempts: SubscriptionInvoiceAttempt[]) {
  return {
    id: inv.id,
    object: 'subscription_invoice',
    livemode: inv.livemode,
    subscription_id: inv.subscriptionId,
    period_start: iso(inv.periodStart),
    period_end: iso(inv.periodEnd),
    amount: inv.amount,
    amount_paid: inv.status === 'paid' ? inv.amount : 0,
    currency: inv.currency,
    status: inv.status,
    attempt_count: inv.attemptCount,
    next_retry_at: iso(inv.nextRetryAt),
    order_id: inv.orderId,
    psp_reference: inv.pspReference,
    paid_at: iso(inv.paidAt),
    attempts: attempts
      .sort((a, b) => a.attempt - b.attempt)
      .map((a) => ({
        id: a.id,
        attempt: a.attempt,
        status: a.status,
        amount: a.amount,
        payment_method_id: a.paymentMethodId,
        psp_reference: a.pspReference,
        disposition: a.disposition,
        refusal_code: a.refusalCode,
        created_at: iso(a.createdAt),
      })),
    created_at: iso(inv.createdAt),
  };
}
