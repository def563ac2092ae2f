import type { Order } from '../orders/order.entity.js';
import { orderEventBase } from '../orders/order.resource.js';
import type { Refund } from './refund.entity.js';

/** The spec's Refund object. */
export function toRefundResource(r: Refund) {
  return {
    id: r.id,
    object: 'refund' as const,
    livemode: r.livemode,
    order_id: r.orderId,
    amount: r.amount,
    currency: r.currency,
    reason: r.reason,
    notes: r.notes,
    status: r.status,
    refund_breakdown: { hsa_amount: r.hsaAmount, regular_amount: r.regularAmount },
    refunds: r.parts.map((p) => ({
      payment_id: p.payment_id,
      payment_method: p.payment_method,
      amount: p.amount,
      refund_id: p.refund_id,
      processor_refund_id: p.processor_refund_id ?? null,
      success: p.success,
    })),
    failure_reason: r.failureReason,
    metadata: r.metadata,
    created_at: r.createdAt.toISOString(),
    processed_at: r.processedAt?.toISOString() ?? null,
  };
}

export type RefundResource = ReturnType<typeof toRefundResource>;

function refundEventBase(r: Refund, order: Order) {
  const base = orderEventBase(order);
  return {
    id: r.id,
    order_id: order.id,
    checkout_id: order.checkoutId,
    amount: r.amount,
    currency: r.currency,
    reason: r.reason,
    status: r.status,
    refund_breakdown: { hsa_amount: r.hsaAmount, regular_amount: r.regularAmount },
    payment_link_id: base.payment_link_id,
    client_reference_id: base.client_reference_id,
    reference_id: base.reference_id,
    customer: base.customer,
  };
}

/** `refund.created` payload. */
export function refundCreatedPayload(r: Refund, order: Order) {
  return { ...refundEventBase(r, order), initiated_at: r.createdAt.toISOString() };
}

/** `refund.succeeded` payload. */
export function refundSucceededPayload(r: Refund, order: Order) {
  const at = (r.processedAt ?? new Date()).toISOString();
  return {
    ...refundEventBase(r, order),
    order_status: order.status,
    payment_status: order.paymentStatus,
    refunded_at: at,
    processed_at: at,
  };
}

/** `refund.failed` payload. */
export function refundFailedPayload(r: Refund, order: Order) {
  return {
    ...refundEventBase(r, order),
    failure_reason: r.failureReason,
    failed_at: (r.processedAt ?? new Date()).toISOString(),
  };
}
