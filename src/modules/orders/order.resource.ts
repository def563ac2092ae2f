import { addressResource } from '../shared/address.js';
import type { Order } from './order.entity.js';
import type { OrderDisputeRecord, OrderRecord, PaymentRecord } from './order.read-model.js';

/** The `payment` object of the spec: the HSA/FSA payment when there is one, else the card. */
export function primaryPayment<P extends Pick<PaymentRecord, 'paymentMethod'>>(payments: P[]): P | undefined {
  return payments.find((p) => p.paymentMethod === 'hsa_fsa_card') ?? payments[0];
}

function toPaymentResource(p: PaymentRecord) {
  return {
    payment_id: p.id,
    payment_method: p.paymentMethod,
    brand: p.brand,
    last4: p.last4,
    amount: p.amount,
    refunded_amount: p.refundedAmount,
    captured_at: p.capturedAt.toISOString(),
    psp_reference: p.captureId,
  };
}

/** An order's dispute (`GET /api/v2/orders/{id}/dispute`, and the order's `dispute`). */
export function toDisputeResource(d: OrderDisputeRecord) {
  return {
    id: d.id,
    object: 'dispute' as const,
    order_id: d.orderId,
    stage: d.stage,
    amount: d.amount,
    currency: d.currency,
    reason: d.reason,
    event_code: d.eventCode,
    defense_due_at: d.defenseDueAt?.toISOString() ?? null,
    defendable: d.defendable,
    accepted_at: d.acceptedAt?.toISOString() ?? null,
    defended_at: d.defendedAt?.toISOString() ?? null,
    defense_reason_code: d.defenseReasonCode,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

export type DisputeResource = ReturnType<typeof toDisputeResource>;

/** The spec's Order object. `payments` must be the order's payments; `dispute` its dispute, if any; `receiptUrl` a fresh signed link or null. */
export function toOrderResource(
  order: OrderRecord,
  payments: PaymentRecord[],
  dispute: OrderDisputeRecord | null,
  receiptUrl: string | null,
) {
  const primary = primaryPayment(payments);
  return {
    id: order.id,
    object: 'order' as const,
    livemode: order.livemode,
    order_number: order.orderNumber,
    checkout_id: order.checkoutId,
    reference_id: order.referenceId,
    payment_link_id: order.paymentLinkId,
    client_reference_id: order.clientReferenceId,
    status: order.status,
    is_recurring: order.isRecurring,
    payment_status: order.paymentStatus,
    amount: order.amount,
    currency: order.currency,
    receipt_url: receiptUrl,
    customer: {
      ...order.customer,
      shipping_address: addressResource(order.customer.shipping_address),
      billing_address: addressResource(order.customer.billing_address),
    },
    line_items: order.lineItems,
    amounts: order.amounts,
    payment: primary ? toPaymentResource(primary) : null,
    payments: payments.map(toPaymentResource),
    lmn: order.lmn,
    lmn_review: order.lmn?.review ?? null,
    failure_reason: order.failureReason,
    metadata: order.metadata,
    status_history: order.statusHistory,
    dispute: dispute ? toDisputeResource(dispute) : null,
    created_at: order.createdAt.toISOString(),
    completed_at: order.completedAt?.toISOString() ?? null,
  };
}

export type OrderResource = ReturnType<typeof toOrderResource>;

/** What an order event is made of (an entity, or an order's values before they are one). */
type OrderEventSource = Pick<
  Order,
  | 'id'
  | 'orderNumber'
  | 'checkoutId'
  | 'status'
  | 'isRecurring'
  | 'paymentStatus'
  | 'amount'
  | 'currency'
  | 'paymentLinkId'
  | 'clientReferenceId'
  | 'referenceId'
  | 'customer'
  | 'createdAt'
  | 'lineItems'
>;

/** Fields every order event carries (spec: order and refund payloads). */
export function orderEventBase(order: OrderEventSource) {
  return {
    id: order.id,
    order_number: order.orderNumber,
    checkout_id: order.checkoutId,
    status: order.status,
    is_recurring: order.isRecurring,
    payment_status: order.paymentStatus,
    amount: order.amount,
    currency: order.currency,
    payment_link_id: order.paymentLinkId,
    client_reference_id: order.clientReferenceId,
    reference_id: order.referenceId,
    customer: { email: order.customer.email, name: `${order.customer.first_name} ${order.customer.last_name}`.trim() },
    created_at: order.createdAt.toISOString(),
  };
}

/** `order.created` / `order.completed` payload. */
export function orderCompletedPayload(order: OrderEventSource) {
  return {
    ...orderEventBase(order),
    line_items: order.lineItems.map((l) => ({
      // One type per field on every surface: the numeric catalog id (null for a pass-through item), as in the REST order.
      product_id: l.product_id,
      merchant_product_id: l.merchant_product_id,
      name: l.name,
      quantity: l.quantity,
      unit_amount: l.price,
      amount: l.price * l.quantity,
      currency: order.currency,
      is_recurring: l.is_recurring,
    })),
  };
}

/** `order.failed` payload. */
export function orderFailedPayload(order: Order) {
  return { ...orderEventBase(order), failure_reason: order.failureReason };
}
