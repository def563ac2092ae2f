import type { Order } from '../orders/order.entity.js';
import type { PaymentLink, PaymentLinkStatus } from './payment-link.entity.js';
import { publicLink } from '../../platform/links.js';

/** The hosted page of a link: its id is the capability to pay, as a shared link must be. */
export function paymentLinkUrl(id: string): string {
  return publicLink(`/pay/${id}`);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The `order` of a paid link: `{id, status, paid_at}`. */
function linkOrder(link: PaymentLink, order: Order | null | undefined) {
  if (!link.orderId) return null;
  return { id: link.orderId, status: order?.status ?? null, paid_at: iso(link.paidAt) };
}

/** The spec's Payment link object; `status` as the caller's clock sees it, `order` once paid. */
export function toPaymentLinkResource(
  link: PaymentLink,
  status: PaymentLinkStatus = link.status,
  order?: Order | null,
) {
  return {
    id: link.id,
    object: 'payment_link' as const,
    livemode: link.livemode,
    url: paymentLinkUrl(link.id),
    amount: link.amount,
    currency: link.currency,
    description: link.description,
    payment_type: link.paymentType,
    status,
    customer: link.customer,
    customer_id: link.customerId,
    collect_shipping_address: link.collectShippingAddress,
    products: link.products.map((p) => ({
      merchant_product_id: p.merchant_product_id,
      name: p.name,
      quantity: p.quantity,
      price: p.price,
      hsa_fsa_eligible: p.hsa_fsa_eligible,
      requires_lmn: p.requires_lmn,
    })),
    checkout_id: link.checkoutId,
    order: linkOrder(link, order),
    success_url: link.successUrl,
    cancel_url: link.cancelUrl,
    metadata: link.metadata,
    subscription: link.subscription,
    expires_at: link.expiresAt.toISOString(),
    created_at: link.createdAt.toISOString(),
    paid_at: iso(link.paidAt),
    cancelled_at: iso(link.cancelledAt),
    cancellation_reason: link.cancellationReason,
  };
}

export type PaymentLinkResource = ReturnType<typeof toPaymentLinkResource>;

function eventBase(link: PaymentLink) {
  return {
    id: link.id,
    amount: link.amount,
    currency: link.currency,
    description: link.description,
    payment_type: link.paymentType,
    status: link.status,
    customer: link.customer,
    metadata: link.metadata,
  };
}

/** `payment_link.paid`: the link with its order and the payer's `client_reference_id`. */
export function paymentLinkPaidPayload(link: PaymentLink, order: Order) {
  return {
    ...eventBase(link),
    order_id: order.id,
    checkout_id: link.checkoutId,
    client_reference_id: order.clientReferenceId,
    order: { id: order.id, status: order.status, paid_at: iso(link.paidAt) },
    paid_at: iso(link.paidAt),
  };
}

/** `payment_link.cancelled`: the spec's cancel response fields. */
export function paymentLinkCancelledPayload(link: PaymentLink) {
  return { ...eventBase(link), cancelled_at: iso(link.cancelledAt), cancellation_reason: link.cancellationReason };
}

/** `payment_link.expired`. */
export function paymentLinkExpiredPayload(link: PaymentLink) {
  return { ...eventBase(link), expires_at: link.expiresAt.toISOString() };
}
