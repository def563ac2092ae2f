import { withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { Customer, PaymentMethod } from '../customers/customer.entity.js';
import { Order } from '../orders/order.entity.js';
import { applyChargeback } from '../orders/order.service.js';
import { recordSubscriptionEvent } from './subscription-events.js';
import { periodContaining } from './subscription-calendar.js';
import { lockSubscription } from './subscription-lock.js';
import { Subscription, SubscriptionInvoice } from './subscription.entity.js';
import { applyDisputeStage } from './subscription-lifecycle.js';
import { disputeSchema } from './subscription.schemas.js';
import { getSubscription } from './subscription.service.js';

/**
 * The processor's dispute notification for the latest paid cycle (test helper). Decided by
 * `stage` whatever the `event_code`: `notification` changes nothing, `confirmed` holds billing
 * (`disputed`), `reversed` restores exactly the prior status and schedule. Renewals that fell due
 * while billing was held are not charged afterwards: billing restarts at the next period
 * boundary of the original schedule. Records `subscription.disputed` with its `dispute`.
 */
export async function disputeLatestCycle(ctx: ServiceContext, id: string, body: unknown): Promise<Subscription> {
  if (ctx.principal.livemode) throw DomainError.testModeOnly();
  const input = parseInput(disputeSchema, requireObject(body), 'validation_error', 'invalid_request');
  // Nested in the caller's transaction when there is one (an idempotent request's): one connection per request.
  await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const sub = await lockSubscription(ctx, em, id);
    const [invoice] = await em.find(SubscriptionInvoice, { subscriptionId: sub.id, status: 'paid' }, { orderBy: { periodStart: 'desc' }, limit: 1 });
    if (!invoice) throw new DomainError('invalid_state', `Subscription ${sub.id} has no paid cycle to dispute.`, { param: 'id' });
    const now = tx.now();
    const wasHeld = sub.status === 'disputed';
    const decision = applyDisputeStage({ status: sub.status, nextChargeAt: sub.nextChargeAt, priorStatus: sub.priorStatus, priorNextChargeAt: sub.priorNextChargeAt }, input.stage);
    Object.assign(sub, { status: decision.status, nextChargeAt: decision.nextChargeAt, priorStatus: decision.priorStatus, priorNextChargeAt: decision.priorNextChargeAt, updatedAt: now });
    if (wasHeld && !decision.billingHeld && !sub.openInvoiceId && sub.nextChargeAt && sub.nextChargeAt <= now && (sub.status === 'active' || sub.status === 'trialing')) {
      // Held periods are not back-charged: skip to the period that contains now; the next charge is at its end.
      const period = periodContaining(sub.anchorAt, sub.interval, sub.intervalCount, now);
      if (period.index > sub.periodIndex) Object.assign(sub, { periodIndex: period.index, currentPeriodStart: period.start, currentPeriodEnd: period.end, nextChargeAt: period.end });
    }
    invoice.disputeStage = input.stage;
    const order = invoice.orderId ? await em.findOne(Order, invoice.orderId) : null;
    if (order) applyChargeback(order, input.stage, now, invoice.id, input.event_code ?? 'CHARGEBACK');
    const [customer, pm] = await Promise.all([em.findOne(Customer, sub.customerId), em.findOne(PaymentMethod, sub.paymentMethodId)]);
    recordSubscriptionEvent(tx, 'subscription.disputed', sub, customer, pm, {
      dispute: {
        invoice_id: invoice.id,
        stage: input.stage,
        billing_held: decision.billingHeld,
        event_code: input.event_code ?? 'CHARGEBACK',
        amount: invoice.amount,
        currency: invoice.currency,
        reason: input.reason ?? null,
      },
    });
    await em.flush();
  });
  return getSubscription(ctx, id);
}
