import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { scope, systemContext, withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { Order } from '../orders/order.entity.js';
import { readDisputesOf, readOrder, type OrderDisputeRecord, type OrderRecord } from '../orders/order.read-model.js';
import { primaryPayment } from '../orders/order.resource.js';
import { applyDisputeToOrder } from '../orders/order.service.js';
import { Payment } from '../payments/payment.entity.js';
import { applyNotificationNow, storeNotificationItem } from '../payments/adyen/adyen-notifications.js';
import type { ProcessorEvent } from '../payments/processor-events.js';
import type { PaymentProcessor } from '../payments/payment-processor.js';
import { processorFor } from '../payments/processor-registry.js';
import { applyCycleDispute, lockCycleOfOrder } from '../subscriptions/subscription-dispute.service.js';
import {
  CHARGEBACK_EVENT_CODES,
  disputeStateOf,
  eventCodeOf,
  isChargebackEventCode,
  isOpen,
  type ChargebackNotification,
} from './dispute-stage.js';
import { Dispute } from './dispute.entity.js';
import { defendDisputeSchema, testDisputeOrderSchema } from './dispute.schemas.js';
import { runStatement } from '../../platform/db/sql.js';

/**
 * Disputes (chargebacks) of captured payments: written here from the processor's notifications
 * and the merchant's accept / defend; read through the orders read model (`readDisputesOf`).
 */

interface StoredChargeback {
  event_code: string;
  event_date: Date;
  psp_reference: string;
  item: { amount?: { value?: number; currency?: string }; reason?: string; additionalData?: Record<string, string> };
}

/** Every stored chargeback notification of one disputed payment, applied or not (the dispute's state is theirs together). */
async function chargebackNotificationsOf(
  em: EntityManager,
  merchantId: string,
  paymentPspReference: string,
): Promise<ChargebackNotification[]> {
  const rows = await runStatement<StoredChargeback>(
    em,
    `select event_code, event_date, psp_reference, item from processor_notifications
      where merchant_id = ? and original_reference = ? and success and event_code in (${CHARGEBACK_EVENT_CODES.map(() => '?').join(', ')})`,
    [merchantId, paymentPspReference, ...CHARGEBACK_EVENT_CODES],
  );
  return rows.flatMap((row) =>
    isChargebackEventCode(row.event_code)
      ? [
          {
            eventCode: row.event_code,
            eventDate: new Date(row.event_date),
            pspReference: row.psp_reference,
            amount: row.item.amount?.value ?? 0,
            currency: (row.item.amount?.currency ?? '').toLowerCase(),
            reason: row.item.reason || null,
            defensePeriodEndsAt: row.item.additionalData?.defensePeriodEndsAt ?? null,
            defendable: row.item.additionalData?.defendable ?? null,
          },
        ]
      : [],
  );
}

/**
 * `tx` in the mode of the payment a notification is about: processor notifications are applied
 * as live mode's, the test helper's concern test-mode payments (on the merchant's test clock).
 */
async function inModeOf(tx: ServiceContext, livemode: boolean): Promise<ServiceContext> {
  if (tx.principal.livemode === livemode) return tx;
  const { merchantId } = tx.principal;
  const offset = livemode ? 0 : Number((await tx.em.findOneOrFail(Merchant, merchantId)).testClockOffsetMs);
  return withEm(systemContext(tx.em, merchantId, livemode, offset, tx.log, tx.requestId), tx.em);
}

/**
 * Applies a chargeback notification (`NOTIFICATION_OF_CHARGEBACK`, `CHARGEBACK`,
 * `CHARGEBACK_REVERSED`, `SECOND_CHARGEBACK`) in the transaction that marks it applied. The
 * dispute's state comes from ALL the payment's stored chargeback notifications (the latest by
 * event date, then stage), never from this one alone: repeated and out-of-order notifications end
 * in the same state. When its stage changes, the order follows (`disputed` while open, restored
 * when reversed) and, for a subscription cycle's order, the subscription (billing held on
 * `confirmed`, restored on `reversed`, `subscription.disputed`). A notification about a payment
 * this merchant does not have changes nothing.
 */
export async function applyChargebackNotification(tx: ServiceContext, event: ProcessorEvent): Promise<void> {
  if (!event.originalReference) return;
  const em = tx.em;
  const candidates = await em.find(Payment, { merchant: tx.principal.merchantId, captureId: event.originalReference });
  const payment = candidates.find((p) => p.livemode === tx.principal.livemode) ?? candidates[0];
  if (!payment) {
    tx.log.warn(
      { notification: event.id, event_code: event.eventCode, original_reference: event.originalReference },
      'chargeback of a payment this merchant does not have: ignored',
    );
    return;
  }
  const ctx = await inModeOf(tx, payment.livemode);
  // Lock order: a cycle's subscription before its order; notifications of one order wait for each other here.
  const cycle = await lockCycleOfOrder(ctx, em, payment.orderId);
  const order = await em.findOneOrFail(
    Order,
    { id: payment.orderId },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
  const state = disputeStateOf(await chargebackNotificationsOf(em, ctx.principal.merchantId, payment.captureId));
  if (!state) return;
  const now = ctx.now();
  const existing = await em.findOne(Dispute, { paymentId: payment.id });
  const priorStage = existing?.stage ?? null;
  const figures = {
    stage: state.stage,
    amount: state.amount,
    currency: state.currency || payment.currency,
    reason: state.reason,
    eventCode: state.eventCode,
    pspReference: state.pspReference,
    defenseDueAt: state.defenseDueAt,
    defendable: state.defendable,
    updatedAt: now,
  };
  const dispute = existing
    ? Object.assign(existing, figures)
    : em.create(Dispute, {
        ...scope(ctx),
        orderId: order.id,
        paymentId: payment.id,
        paymentPspReference: payment.captureId,
        ...figures,
        createdAt: now,
      });
  if (priorStage !== state.stage) {
    const others = await em.find(Dispute, { orderId: order.id, id: { $ne: dispute.id } });
    const open = isOpen(state.stage) || others.some((d) => isOpen(d.stage));
    await applyDisputeToOrder(em, order, open, now, `payment ${payment.id}`, state.eventCode);
    // The cycle's figures speak the subscription's currency code, as the subscription's own events do.
    if (cycle)
      await applyCycleDispute(ctx, cycle, {
        stage: state.stage,
        eventCode: state.eventCode,
        amount: state.amount,
        currency: cycle.invoice.currency,
        reason: state.reason,
      });
  }
  await em.flush();
}

/** The caller's order's dispute (its latest), or 404 `not_found`: no such order, or an order never disputed. */
export async function getOrderDispute(ctx: ServiceContext, orderId: string): Promise<OrderDisputeRecord> {
  const dispute = (await readDisputesOf(ctx, [orderId])).get(orderId);
  if (dispute) return dispute;
  await readOrder(ctx, orderId); // 404 for the order itself
  throw new DomainError('not_found', `Order ${orderId} has no dispute.`, { param: 'id' });
}

/**
 * The idempotency key of the next call under `base`: a key the processor refused keeps that
 * answer for good, so a retry after a refusal (e.g. documents supplied since) takes the next one
 * (`base.1`, `base.2`…); a key it never answered (a lost answer) is asked again and gets the first
 * answer; `done` when one succeeded already (its answer was lost before we recorded it).
 */
async function nextCallKey(processor: PaymentProcessor, base: string): Promise<{ key: string; done: boolean }> {
  for (let n = 0; ; n++) {
    const key = n ? `${base}.${n}` : base;
    const seen = await processor.lookup(key);
    if (!seen || seen.ok) return { key, done: Boolean(seen?.ok) };
  }
}

/**
 * Tells the processor the merchant accepts or defends the order's dispute, then records it. The
 * call runs outside any transaction under a key of the dispute and the action (`nextCallKey`), so
 * a retry after a lost answer is answered by the processor's first result. A dispute already
 * accepted, already defended or not defendable when defending, or reversed, is 400
 * `invalid_state`; so is the processor's refusal (with its message).
 */
async function actOnDispute(
  ctx: ServiceContext,
  orderId: string,
  action: 'accept' | 'defend',
  defenseReasonCode: string | null,
): Promise<OrderDisputeRecord> {
  const current = await getOrderDispute(ctx, orderId);
  const refuse = (why: string) =>
    new DomainError('invalid_state', `Dispute ${current.id} of order ${orderId} ${why}.`, { param: 'id' });
  if (current.acceptedAt) throw refuse('is already accepted');
  if (action === 'defend' && current.defendedAt) throw refuse('is already defended');
  if (current.stage === 'reversed') throw refuse('is reversed: it was resolved in your favour');
  if (action === 'defend' && current.defendable === false) throw refuse('cannot be defended (the processor says so)');
  const { pspReference } = await ctx.em.findOneOrFail(Dispute, current.id);
  const processor = await processorFor(ctx);
  const { key, done } = await nextCallKey(
    processor,
    defenseReasonCode === null ? `${current.id}.accept` : `${current.id}.defend.${defenseReasonCode}`,
  );
  const result = done
    ? { ok: true as const }
    : defenseReasonCode === null
      ? await processor.acceptDispute(pspReference, key)
      : await processor.defendDispute(pspReference, defenseReasonCode, key);
  if (!result.ok)
    throw new DomainError(
      'invalid_state',
      `The processor refused to ${action} dispute ${current.id}: ${result.message}`,
      { param: 'id' },
    );
  await ctx.em.transactional(async (em) => {
    const dispute = await em.findOneOrFail(Dispute, current.id, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
      refresh: true,
    });
    const now = ctx.now();
    if (action === 'accept') dispute.acceptedAt ??= now;
    else if (!dispute.defendedAt) Object.assign(dispute, { defendedAt: now, defenseReasonCode });
    dispute.updatedAt = now;
  });
  return getOrderDispute(ctx, orderId);
}

/** Accepts the order's dispute at the processor (the chargeback stands); records `accepted_at`. */
export function acceptDispute(ctx: ServiceContext, orderId: string): Promise<OrderDisputeRecord> {
  return actOnDispute(ctx, orderId, 'accept', null);
}

/** Defends the order's dispute at the processor with `defense_reason_code`; records `defended_at` and the code. */
export function defendDispute(ctx: ServiceContext, orderId: string, body: unknown): Promise<OrderDisputeRecord> {
  const input = parseInput(defendDisputeSchema, requireObject(body));
  return actOnDispute(ctx, orderId, 'defend', input.defense_reason_code);
}

/**
 * The processor's chargeback notification for the order's payment (its HSA/FSA payment when it
 * has one), test mode only: stored and applied exactly as a real one is (`applyChargebackNotification`
 * through the notification job's path), so a repeated stage (same event code) changes nothing and
 * an earlier `event_date` never overrides a later notification. Answers the order.
 */
export async function testDisputeOrder(ctx: ServiceContext, orderId: string, body: unknown): Promise<OrderRecord> {
  if (ctx.principal.livemode) throw DomainError.testModeOnly();
  const input = parseInput(testDisputeOrderSchema, requireObject(body));
  await readOrder(ctx, orderId); // 404 for an order this key cannot see
  const payment = primaryPayment(
    await ctx.em.find(Payment, { orderId, ...scope(ctx) }, { orderBy: { capturedAt: 'asc' } }),
  );
  if (!payment)
    throw new DomainError('invalid_state', `Order ${orderId} has no captured payment to dispute.`, { param: 'id' });
  const additionalData: Record<string, string> = {
    ...(input.defense_period_ends_at && { defensePeriodEndsAt: input.defense_period_ends_at }),
    ...(input.defendable !== undefined && { defendable: String(input.defendable) }),
  };
  const stored = await storeNotificationItem(ctx.em, ctx.principal.merchantId, 'simulated', {
    // One dispute per payment: every notification of it carries the dispute's own reference, as Adyen's do.
    pspReference: `dsp_${payment.id}`,
    originalReference: payment.captureId,
    merchantAccountCode: 'test',
    eventCode: input.event_code ?? eventCodeOf(input.stage),
    eventDate: input.event_date ?? ctx.now().toISOString(),
    success: 'true',
    ...(input.reason !== undefined && { reason: input.reason }),
    amount: { value: input.amount ?? payment.amount, currency: payment.currency.toUpperCase() },
    additionalData,
  });
  if (stored && !stored.applied) await applyNotificationNow(ctx.em, stored.id, ctx.log);
  return readOrder(ctx, orderId);
}
