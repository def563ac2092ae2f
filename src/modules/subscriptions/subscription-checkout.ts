import { scope, type ServiceContext } from '../../platform/context.js';
import { truncateCodePoints } from '../../platform/text.js';
import type { PaidCheckout } from '../checkout/checkout-payment.service.js';
import { findOrCreateCustomer } from '../customers/customer.service.js';
import { storePaymentMethod } from '../customers/payment-method.service.js';
import { recordSubscriptionEvent } from './subscription-events.js';
import { INTERVALS, periodAt, type Interval } from './subscription-calendar.js';
import { Subscription, SubscriptionInvoice } from './subscription.entity.js';
import { invoiceEventBody } from './subscription.resource.js';

/**
 * Starts the subscription a paid `payment_type: subscription` checkout (or subscription payment
 * link) sold, inside the payment's transaction: the customer (found by email or created), the
 * card stored as a payment method (the regular card of a split payment, else the HSA/FSA card),
 * and the subscription, whose first cycle is the checkout's order (paid, no second charge).
 * `subscription.created` and `subscription.renewed` are recorded with the order.
 *
 * The first period starts at payment; a subscription checkout's `trial_period_days` is kept on
 * the subscription for the record but no trial applies, since the checkout already charged.
 */
export async function startSubscriptionFromCheckout(
  ctx: ServiceContext,
  { session, order, cards }: PaidCheckout,
): Promise<void> {
  const now = order.completedAt ?? ctx.now();
  const config = session.subscription ?? { interval: 'monthly' };
  const interval: Interval = (INTERVALS as readonly string[]).includes(config.interval)
    ? (config.interval as Interval)
    : 'monthly';
  const customer = await findOrCreateCustomer(ctx, session.customer, now);
  const part = cards.find((p) => p.slot === 'card') ?? cards[0];
  const pm = storePaymentMethod(
    ctx,
    customer,
    { ...part, exp_month: part.expiry.month, exp_year: part.expiry.year },
    now,
  );
  const matched = session.lineItems.length === 1 ? session.lineItems[0] : null;
  const period = periodAt(now, interval, config.interval_count ?? 1, 0);
  const sub = ctx.em.create(Subscription, {
    ...scope(ctx),
    customerId: customer.id,
    paymentMethodId: pm.id,
    productId: matched?.matched_product_id ?? null,
    merchantProductId: matched?.product_id ?? null,
    description: truncateCodePoints(session.lineItems.map((l) => l.name).join(', '), 255) || 'Subscription',
    hsaFsaEligible: part.type === 'hsa_fsa_card' && session.type === 'eligible',
    requiresLmn: part.type === 'hsa_fsa_card' && session.type === 'eligible' && !!matched?.requires_lmn,
    amountCents: session.amounts.total,
    currency: session.currency.toUpperCase(),
    interval,
    intervalCount: config.interval_count ?? 1,
    trialPeriodDays: config.trial_period_days || null,
    trialEnd: null,
    status: 'active',
    anchorAt: now,
    periodIndex: 0,
    currentPeriodStart: period.start,
    currentPeriodEnd: period.end,
    nextChargeAt: period.end,
    checkoutId: session.id,
    metadata: session.metadata,
    createdAt: now,
    updatedAt: now,
  });
  const invoice = ctx.em.create(SubscriptionInvoice, {
    ...scope(ctx),
    subscriptionId: sub.id,
    periodIndex: 0,
    periodStart: period.start,
    periodEnd: period.end,
    amount: order.amount,
    currency: sub.currency,
    status: 'paid',
    orderId: order.id,
    pspReference: part.captureId,
    paidAt: now,
    createdAt: now,
    updatedAt: now,
  });
  sub.latestInvoiceId = invoice.id;
  recordSubscriptionEvent(ctx, 'subscription.created', sub, customer, pm);
  recordSubscriptionEvent(ctx, 'subscription.renewed', sub, customer, pm, { invoice: invoiceEventBody(invoice) });
  order.metadata = { ...order.metadata, subscription_id: sub.id, invoice_id: invoice.id };
}
