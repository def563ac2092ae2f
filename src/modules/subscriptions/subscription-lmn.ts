import { LockMode } from '@mikro-orm/core';
import { Customer, PaymentMethod } from '../customers/customer.entity.js';
import { onLmnReviewDecided } from '../lmn/lmn-review.service.js';
import { recordSubscriptionEvent } from './subscription-events.js';
import { MAX_ATTEMPTS } from './subscription-lifecycle.js';
import { Subscription, SubscriptionInvoice } from './subscription.entity.js';
import { invoiceEventBody } from './subscription.resource.js';

/*
 * A renewal held for a letter of medical necessity (subscription-billing.ts, lmn-renewal.ts) moves
 * on when its review is decided, in the decision's transaction:
 * - approved: the hold was captured and the order completed; the invoice is paid, billing goes on
 *   at the period's end, `subscription.renewed`;
 * - declined or expired: the hold was released and the order failed; the invoice is
 *   `uncollectible` and the subscription `unpaid` (no further attempt, as a terminal refusal),
 *   `subscription.payment_failed` with `refusal_code` `lmn_review_declined` or `lmn_review_expired`.
 */
onLmnReviewDecided(async (tx, review) => {
  if (!review.invoiceId) return;
  const { em } = tx;
  const invoice = await em.findOne(SubscriptionInvoice, { id: review.invoiceId });
  if (!invoice || invoice.status !== 'open') return;
  const sub = await em.findOneOrFail(
    Subscription,
    { id: invoice.subscriptionId },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  const [customer, pm] = await Promise.all([
    em.findOne(Customer, { id: sub.customerId }),
    em.findOne(PaymentMethod, { id: sub.paymentMethodId }),
  ]);
  const now = tx.now();
  invoice.updatedAt = now;
  sub.updatedAt = now;
  if (review.status === 'approved') {
    Object.assign(invoice, { status: 'paid', paidAt: now, pspReference: review.hold.capture_id });
    if (sub.openInvoiceId === invoice.id) sub.openInvoiceId = null;
    if (sub.status !== 'cancelled')
      sub.nextChargeAt =
        sub.cancelAtPeriodEnd || invoice.periodEnd > sub.currentPeriodEnd ? invoice.periodEnd : sub.currentPeriodEnd;
    recordSubscriptionEvent(tx, 'subscription.renewed', sub, customer, pm, { invoice: invoiceEventBody(invoice) });
    return;
  }
  const refusal = `lmn_review_${review.status}`;
  Object.assign(invoice, {
    status: 'uncollectible',
    lastDisposition: 'terminal',
    lastRefusalCode: refusal,
    nextRetryAt: null,
  });
  if (sub.status === 'cancelled') return;
  sub.status = 'unpaid';
  sub.nextChargeAt = null;
  const failure = {
    disposition: 'terminal',
    status: 'unpaid',
    refusal_code: refusal,
    attempt: invoice.attemptCount,
    max_attempts: MAX_ATTEMPTS,
    next_retry_at: null,
  };
  recordSubscriptionEvent(tx, 'subscription.payment_failed', sub, customer, pm, { failure });
});
