import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { systemContext, withEm, type Log, type ServiceContext } from '../../platform/context.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { webhookUrlForOrder } from '../checkout/checkout.service.js';
import { Order } from '../orders/order.entity.js';
import { applyRefundedTotal } from '../orders/order.service.js';
import { Payment } from '../payments/payment.entity.js';
import type { RefundResult } from '../payments/payment-processor.js';
import { processorFor } from '../payments/processor-registry.js';
import { Refund } from './refund.entity.js';
import { refundFailedPayload, refundSucceededPayload } from './refund.resource.js';
import { runStatement } from '../../platform/db/sql.js';

/** How long a worker's claim on a refund lasts; a crashed worker's refund is taken up again after it. */
const CLAIM_SECONDS = 60;

/**
 * Sends pending refunds to the processor, one refund at a time, in three short steps so that no
 * transaction is open while the processor works: claim the refund with a lease (`FOR UPDATE SKIP
 * LOCKED`: several workers never take one refund at once), refund each part under the key
 * `<refund id>.<part>.refund` (a worker that crashes and is followed by another refunds nothing
 * twice: the processor answers a repeated key with its first result), then record the outcomes
 * with the order row locked. A part the processor refuses is given back to its payment's
 * refundable remainder; the refund is `failed` if any part failed. Returns how many it processed.
 */
export async function processPendingRefunds(orm: MikroORM, log: Log, batch = 50): Promise<number> {
  let processed = 0;
  for (; processed < batch; processed++) {
    const em = orm.em.fork();
    // The claim's lease is real time (a worker's liveness); what the refund records is on its merchant's clock.
    const [claimed] = await runStatement<{ id: string; offset: string }>(
      em,
      `update refunds set claimed_until = now() + interval '${CLAIM_SECONDS} seconds'
       where id = (select id from refunds where status = 'pending' and submitted_at is null and (claimed_until is null or claimed_until < now())
                   order by created_at limit 1 for update skip locked)
       returning id, case when livemode then 0 else (select m.test_clock_offset_ms from merchants m where m.id = refunds.merchant_id) end as "offset"`,
      [],
      { autocommit: true },
    );
    if (!claimed) break;
    const refund = await em.findOneOrFail(Refund, claimed.id);
    const payments = new Map((await em.find(Payment, { orderId: refund.orderId })).map((p) => [p.id, p]));
    const processor = await processorFor(
      systemContext(em, refund.merchant.id, refund.livemode, Number(claimed.offset), log),
    );
    const results = await Promise.all(
      refund.parts.map((part, i) =>
        processor.refund(payments.get(part.payment_id)!.captureId, part.amount, `${refund.id}.${i}.refund`),
      ),
    );
    await recordOutcome(orm, claimed.id, Number(claimed.offset), results, log);
  }
  return processed;
}

async function recordOutcome(
  orm: MikroORM,
  refundId: string,
  clockOffsetMs: number,
  results: RefundResult[],
  log: Log,
): Promise<void> {
  await orm.em.fork().transactional(async (em) => {
    const refund = await em.findOneOrFail(Refund, refundId);
    const order = await em.findOneOrFail(Order, refund.orderId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    await em.refresh(refund);
    if (refund.status !== 'pending' || refund.submittedAt) return; // recorded by a worker whose claim had lapsed
    const ctx = withEm(systemContext(em, refund.merchant.id, refund.livemode, clockOffsetMs, log), em);
    const payments = new Map((await em.find(Payment, { orderId: order.id })).map((p) => [p.id, p]));
    refund.parts = refund.parts.map((part, i) => {
      const result = results[i];
      if (result.ok)
        return {
          ...part,
          processor_refund_id: result.refundId,
          success: result.pending ? null : true,
          failure_reason: null,
        };
      payments.get(part.payment_id)!.refundedAmount -= part.amount; // give the amount back to the refundable remainder
      return { ...part, success: false, failure_reason: result.code };
    });
    refund.claimedUntil = null;
    if (refund.parts.some((p) => p.success === null)) {
      refund.submittedAt = ctx.now(); // the processor settles the rest by notification (settleRefundPart)
      await em.flush();
      return;
    }
    await finishRefund(ctx, refund, order);
  });
}

/**
 * The processor's verdict on one part of a refund it settles later (Adyen's REFUND / REFUND_FAILED,
 * whose `merchantReference` is the part's key `<refund id>.<part>.refund`), in the caller's
 * transaction. A part already decided is left alone (a repeated or late notification); the refund
 * ends, with `refund.succeeded` or `refund.failed`, once every part is decided.
 */
export async function settleRefundPart(
  ctx: ServiceContext,
  reference: string,
  succeeded: boolean,
  reason: string | null,
): Promise<void> {
  const match = /^(re_[A-Za-z0-9]+)\.(\d+)\.refund$/.exec(reference);
  if (!match) return;
  const em = ctx.em;
  const refund = await em.findOne(Refund, { id: match[1], merchant: ctx.principal.merchantId });
  if (!refund) return;
  const order = await em.findOneOrFail(Order, refund.orderId, { lockMode: LockMode.PESSIMISTIC_WRITE });
  await em.refresh(refund);
  const index = Number(match[2]);
  const part = refund.parts[index];
  if (refund.status !== 'pending' || !part || part.success !== null) return;
  if (!succeeded) {
    const payment = await em.findOneOrFail(Payment, part.payment_id);
    payment.refundedAmount -= part.amount; // back to the refundable remainder
  }
  refund.parts = refund.parts.map((p, i) =>
    i === index ? { ...p, success: succeeded, failure_reason: succeeded ? null : (reason ?? 'refund_failed') } : p,
  );
  if (refund.parts.some((p) => p.success === null)) return;
  await finishRefund(ctx, refund, order);
}

/** Ends a refund whose parts are all decided: its status, the order's refunded total, and its event. */
async function finishRefund(ctx: ServiceContext, refund: Refund, order: Order): Promise<void> {
  const em = ctx.em;
  const now = ctx.now();
  const failed = refund.parts.filter((p) => !p.success);
  refund.status = failed.length ? 'failed' : 'succeeded';
  refund.failureReason = failed.length
    ? failed.map((p) => `${p.payment_method}: ${p.failure_reason}`).join('; ')
    : null;
  refund.processedAt = now;
  refund.claimedUntil = null;

  const succeededTotal = (
    await em.find(Refund, { orderId: order.id, status: { $in: ['succeeded', 'failed'] }, id: { $ne: refund.id } })
  )
    .concat(refund)
    .flatMap((r) => r.parts)
    .filter((p) => p.success)
    .reduce((s, p) => s + p.amount, 0);
  applyRefundedTotal(order, succeededTotal, now, `refund ${refund.id}: ${succeededTotal} of ${order.amount} refunded`);
  const webhookUrl = await webhookUrlForOrder(ctx, order);
  if (refund.status === 'succeeded')
    recordEvent(ctx, 'refund.succeeded', refundSucceededPayload(refund, order), { webhookUrl });
  else recordEvent(ctx, 'refund.failed', refundFailedPayload(refund, order), { webhookUrl });
  await em.flush();
}
