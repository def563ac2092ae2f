import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { systemContext, withEm, type Log } from '../../platform/context.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { webhookUrlForOrder } from '../checkout/checkout.service.js';
import { Order } from '../orders/order.entity.js';
import { applyRefundedTotal } from '../orders/order.service.js';
import { Payment } from '../payments/payment.entity.js';
import type { RefundResult } from '../payments/payment-processor.js';
import { processorFor } from '../payments/processor-registry.js';
import { Refund } from './refund.entity.js';
import { refundFailedPayload, refundSucceededPayload } from './refund.resource.js';

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
    const [claimed] = await em.getConnection().execute<{ id: string; offset: string }[]>(
      `update refunds set claimed_until = now() + interval '${CLAIM_SECONDS} seconds'
       where id = (select id from refunds where status = 'pending' and (claimed_until is null or claimed_until < now())
                   order by created_at limit 1 for update skip locked)
       returning id, case when livemode then 0 else (select m.test_clock_offset_ms from merchants m where m.id = refunds.merchant_id) end as "offset"`,
    );
    if (!claimed) break;
    const refund = await em.findOneOrFail(Refund, claimed.id);
    const payments = new Map((await em.find(Payment, { orderId: refund.orderId })).map((p) => [p.id, p]));
    const processor = await processorFor(systemContext(em, refund.merchant.id, refund.livemode, Number(claimed.offset), log));
    const results = await Promise.all(refund.parts.map((part, i) => processor.refund(payments.get(part.payment_id)!.captureId, part.amount, `${refund.id}.${i}.refund`)));
    await recordOutcome(orm, claimed.id, Number(claimed.offset), results, log);
  }
  return processed;
}

async function recordOutcome(orm: MikroORM, refundId: string, clockOffsetMs: number, results: RefundResult[], log: Log): Promise<void> {
  await orm.em.fork().transactional(async (em) => {
    const refund = await em.findOneOrFail(Refund, refundId);
    const order = await em.findOneOrFail(Order, refund.orderId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    await em.refresh(refund);
    if (refund.status !== 'pending') return; // recorded by a worker whose claim had lapsed
    const ctx = withEm(systemContext(em, refund.merchant.id, refund.livemode, clockOffsetMs, log), em);
    const payments = new Map((await em.find(Payment, { orderId: order.id })).map((p) => [p.id, p]));
    const now = ctx.now();
    refund.parts = refund.parts.map((part, i) => {
      const result = results[i];
      if (result.ok) return { ...part, processor_refund_id: result.refundId, success: true, failure_reason: null };
      payments.get(part.payment_id)!.refundedAmount -= part.amount; // give the amount back to the refundable remainder
      return { ...part, success: false, failure_reason: result.code };
    });
    const failed = refund.parts.filter((p) => !p.success);
    refund.status = failed.length ? 'failed' : 'succeeded';
    refund.failureReason = failed.length ? failed.map((p) => `${p.payment_method}: ${p.failure_reason}`).join('; ') : null;
    refund.processedAt = now;
    refund.claimedUntil = null;

    const succeededTotal = (await em.find(Refund, { orderId: order.id, status: { $in: ['succeeded', 'failed'] }, id: { $ne: refund.id } }))
      .concat(refund)
      .flatMap((r) => r.parts)
      .filter((p) => p.success)
      .reduce((s, p) => s + p.amount, 0);
    applyRefundedTotal(order, succeededTotal, now, `refund ${refund.id}: ${succeededTotal} of ${order.amount} refunded`);
    const webhookUrl = await webhookUrlForOrder(ctx, order);
    if (refund.status === 'succeeded') recordEvent(ctx, 'refund.succeeded', refundSucceededPayload(refund, order), { webhookUrl });
    else recordEvent(ctx, 'refund.failed', refundFailedPayload(refund, order), { webhookUrl });
    await em.flush();
  });
}
