import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { systemContext, type Log } from '../../platform/context.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { webhookUrlForOrder } from '../checkout/checkout.service.js';
import { Order } from '../orders/order.entity.js';
import { applyRefundedTotal } from '../orders/order.service.js';
import { Payment } from '../payments/payment.entity.js';
import { processorFor } from '../payments/processor.js';
import { Refund } from './refund.entity.js';
import { refundFailedPayload, refundSucceededPayload } from './refund.resource.js';

/**
 * Sends pending refunds to the processor, one refund per transaction: claims it with
 * `FOR UPDATE SKIP LOCKED` (so several workers never process one refund twice), locks its
 * order, refunds each part, and records the outcome. A part the processor refuses is given back
 * to its payment's refundable remainder; the refund is `failed` if any part failed.
 * Returns how many refunds were processed.
 */
export async function processPendingRefunds(orm: MikroORM, log: Log, batch = 50): Promise<number> {
  let processed = 0;
  for (let i = 0; i < batch; i++) {
    const done = await orm.em.fork().transactional(async (em) => {
      const [claimed] = await em.execute<{ id: string }[]>(`select id from refunds where status = 'pending' order by created_at limit 1 for update skip locked`);
      if (!claimed) return false;
      const refund = await em.findOneOrFail(Refund, claimed.id);
      const order = await em.findOneOrFail(Order, refund.orderId, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const ctx = { ...systemContext(em, refund.merchant.id, refund.livemode, 0, log), em };
      const payments = new Map((await em.find(Payment, { orderId: order.id })).map((p) => [p.id, p]));
      const processor = processorFor(ctx);
      const now = new Date();
      refund.parts = await Promise.all(
        refund.parts.map(async (part) => {
          const payment = payments.get(part.payment_id)!;
          const result = await processor.refund(payment.captureId, part.amount);
          if (result.ok) return { ...part, processor_refund_id: result.refundId, success: true, failure_reason: null };
          payment.refundedAmount -= part.amount; // give the amount back to the refundable remainder
          return { ...part, success: false, failure_reason: result.code };
        }),
      );
      const failed = refund.parts.filter((p) => !p.success);
      refund.status = failed.length ? 'failed' : 'succeeded';
      refund.failureReason = failed.length ? failed.map((p) => `${p.payment_method}: ${p.failure_reason}`).join('; ') : null;
      refund.processedAt = now;

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
      return true;
    });
    if (!done) break;
    processed++;
  }
  return processed;
}
