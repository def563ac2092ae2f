import { LockMode } from '@mikro-orm/core';
import { recordEvent } from '../../platform/events/events.service.js';
import { Order } from '../orders/order.entity.js';
import { orderFailedPayload } from '../orders/order.resource.js';
import { Payment } from '../payments/payment.entity.js';
import type { ProcessorEventHandler } from '../payments/processor-events.js';
import { webhookUrlForOrder } from './checkout.service.js';

/**
 * CAPTURE_FAILED: the processor could not take the money of a payment the order counts as
 * captured (Adyen answers a capture `received` and reports its failure later). The order fails
 * with `order.failed`, so the merchant does not ship what was not paid for. Repeated: no change.
 */
export const failOrderOfFailedCapture: ProcessorEventHandler = async (tx, event) => {
  const captureId = event.originalReference;
  if (!captureId) return;
  const payment = await tx.em.findOne(Payment, {
    captureId,
    merchant: tx.principal.merchantId,
    livemode: tx.principal.livemode,
  });
  if (!payment) return;
  const order = await tx.em.findOneOrFail(Order, payment.orderId, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (order.status === 'failed') return;
  order.failureReason = `${payment.paymentMethod}: capture_failed`;
  const card = `${payment.paymentMethod === 'hsa_fsa_card' ? 'HSA/FSA card' : 'card'} ${payment.brand} ${payment.last4}`;
  order.transition(
    tx.now(),
    'failed',
    `capture of ${card} failed at the processor${event.reason ? `: ${event.reason}` : ''}`,
    'failed',
  );
  recordEvent(tx, 'order.failed', orderFailedPayload(order), { webhookUrl: await webhookUrlForOrder(tx, order) });
  await tx.em.flush();
};
