import type { EntityManager } from '@mikro-orm/postgresql';
import { scope, withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { Customer, PaymentMethod } from '../customers/customer.entity.js';
import { Order } from '../orders/order.entity.js';
import { applyDisputeToOrder } from '../orders/order.service.js';
import { recordSubscriptionEvent } from './subscription-events.js';
import { periodContaining } from './subscription-calendar.js';
import { lockSubscription } from './subscription-lock.js';
import { Subscription, SubscriptionInvoice } from './subscription.entity.js';
import { applyDisputeStage, type DisputeStage } from './subscription-lifecycle.js';
import { disputeSchema } from './subscription.schemas.js';
import { getSubscription } from './subscription.service.js';

/** A dispute stage the processor reported for a paid cycle, with the figures of its notification. */
export interface CycleDisputeReport {
  stage: DisputeStage;
  eventCode: string;
  /** Cents disputed. */
  amount: number;
  currency: string;
  reason: string | null;
}

/** A paid cycle with its subscription, locked (`FOR UPDATE`) in the caller's transaction. */
export interface LockedCycle {
  subscription: Subscription;
  invoice: SubscriptionInvoice;
}

/**
 * The subscription cycle whose order is `orderId`, its subscription locked in the transaction of
 * `em` (subscription before order: the lock order), or null when the order is no cycle's.
 */
export async function lockCycleOfOrder(
  ctx: ServiceContext,
  em: EntityManager,
  orderId: string,
): Promise<LockedCycle | null> {
  const invoice = await em.findOne(SubscriptionInvoice, { orderId, ...scope(ctx) });
  if (!invoice) return null;
  const subscription = await lockSubscription(ctx, em, invoice.subscriptionId);
  return { subscription, invoice: await em.findOneOrFail(SubscriptionInvoice, invoice.id, { refresh: true }) };
}

/**
 * Applies a dispute stage reported for a paid cycle (its subscription locked by the caller),
 * decided by `stage` whatever the event code: `notification` changes nothing, `confirmed` holds
 * billing (`disputed`), `reversed` restores exactly the prior status and schedule. Renewals that
 * fell due while billing was held are not charged afterwards: billing restarts at the next period
 * boundary of the original schedule. Records `subscription.disputed` with its `dispute`; the
 * cycle's order is the caller's (`applyDisputeToOrder`). The caller flushes.
 */
export async function applyCycleDispute(
  tx: ServiceContext,
  { subscription: sub, invoice }: LockedCycle,
  report: CycleDisputeReport,
): Promise<void> {
  const em = tx.em;
  const now = tx.now();
  const wasHeld = sub.status === 'disputed';
  const decision = applyDisputeStage(
    {
      status: sub.status,
      nextChargeAt: sub.nextChargeAt,
      priorStatus: sub.priorStatus,
      priorNextChargeAt: sub.priorNextChargeAt,
    },
    report.stage,
  );
  Object.assign(sub, {
    status: decision.status,
    nextChargeAt: decision.nextChargeAt,
    priorStatus: decision.priorStatus,
    priorNextChargeAt: decision.priorNextChargeAt,
    updatedAt: now,
  });
  if (
    wasHeld &&
    !decision.billingHeld &&
    !sub.openInvoiceId &&
    sub.nextChargeAt &&
    sub.nextChargeAt <= now &&
    (sub.status === 'active' || sub.status === 'trialing')
  ) {
    // Held periods are not back-charged: skip to the period that contains now; the next charge is at its end.
    const period = periodContaining(sub.anchorAt, sub.interval, sub.intervalCount, now);
    if (period.index > sub.periodIndex)
      Object.assign(sub, {
        periodIndex: period.index,
        currentPeriodStart: period.start,
        currentPeriodEnd: period.end,
        nextChargeAt: period.end,
      });
  }
  invoice.disputeStage = report.stage;
  const [customer, pm] = await Promise.all([
    em.findOne(Customer, sub.customerId),
    em.findOne(PaymentMethod, sub.paymentMethodId),
  ]);
  recordSubscriptionEvent(tx, 'subscription.disputed', sub, customer, pm, {
    dispute: {
      invoice_id: invoice.id,
      stage: report.stage,
      billing_held: decision.billingHeld,
      event_code: report.eventCode,
      amount: report.amount,
      currency: report.currency,
      reason: report.reason,
    },
  });
}

/**
 * The processor's dispute notification for the latest paid cycle (test helper), by `stage`
 * (see `applyCycleDispute`); the cycle's order is `disputed` while the stage is not `reversed`.
 */
export async function disputeLatestCycle(ctx: ServiceContext, id: string, body: unknown): Promise<Subscription> {
  if (ctx.principal.livemode) throw DomainError.testModeOnly();
  const input = parseInput(disputeSchema, requireObject(body), 'validation_error', 'invalid_request');
  // Nested in the caller's transaction when there is one (an idempotent request's): one connection per request.
  await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const subscription = await lockSubscription(ctx, em, id);
    const [invoice] = await em.find(
      SubscriptionInvoice,
      { subscriptionId: subscription.id, status: 'paid' },
      { orderBy: { periodStart: 'desc' }, limit: 1 },
    );
    if (!invoice)
      throw new DomainError('invalid_state', `Subscription ${subscription.id} has no paid cycle to dispute.`, {
        param: 'id',
      });
    const eventCode = input.event_code ?? 'CHARGEBACK';
    await applyCycleDispute(
      tx,
      { subscription, invoice },
      {
        stage: input.stage,
        eventCode,
        amount: invoice.amount,
        currency: invoice.currency,
        reason: input.reason ?? null,
      },
    );
    const order = invoice.orderId ? await em.findOne(Order, invoice.orderId) : null;
    if (order) await applyDisputeToOrder(em, order, input.stage !== 'reversed', tx.now(), invoice.id, eventCode);
    await em.flush();
  });
  return getSubscription(ctx, id);
}
