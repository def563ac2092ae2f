import { publicLink } from '../../platform/links.js';
import { addressResource } from '../shared/address.js';
import { healthcareOf } from './checkout-amounts.js';
import type { CheckoutSession } from './checkout-session.entity.js';

/** The hosted page of a session; the token makes the link the customer's capability to pay. A payment link's session is paid on the link's page. */
export function checkoutUrl(session: CheckoutSession): string {
  if (session.paymentLinkId) return publicLink(`/pay/${session.paymentLinkId}`);
  return publicLink(`/checkout/${session.id}?token=${session.accessToken}`);
}

/** The spec's checkout session object (create response `data`, GET, events). */
export function toCheckoutResource(session: CheckoutSession, status: CheckoutSession['status'] = session.status) {
  return {
    checkout_id: session.id,
    object: 'checkout_session' as const,
    livemode: session.livemode,
    checkout_url: checkoutUrl(session),
    reference_id: session.referenceId,
    status,
    type: session.type,
    payment_type: session.paymentType,
    subscription: session.subscription && {
      interval: session.subscription.interval,
      interval_count: session.subscription.interval_count ?? 1,
      trial_period_days: session.subscription.trial_period_days ?? 0,
    },
    customer: {
      email: session.customer.email,
      first_name: session.customer.first_name,
      last_name: session.customer.last_name,
      phone: session.customer.phone ?? null,
    },
    line_items: session.lineItems.map((l) => ({
      product_id: l.product_id,
      name: l.name,
      image_url: l.image_url ?? null,
      price: l.price,
      quantity: l.quantity,
      currency: l.currency,
      hsa_fsa_eligible: l.hsa_fsa_eligible,
      requires_lmn: l.requires_lmn,
      matched_product_id: l.matched_product_id,
    })),
    amounts: { ...session.amounts, healthcare: healthcareOf(session.amounts) },
    currency: session.currency,
    requires_lmn: session.lineItems.some((l) => l.requires_lmn),
    shipping_info: addressResource(session.shippingInfo),
    billing_info: addressResource(session.billingInfo),
    success_url: session.successUrl,
    failure_url: session.failureUrl,
    metadata: session.metadata,
    order_id: session.orderId,
    payment_link_id: session.paymentLinkId,
    paid_at: session.paidAt?.toISOString() ?? null,
    expires_at: session.expiresAt.toISOString(),
    created_at: session.createdAt.toISOString(),
  };
}

export type CheckoutResource = ReturnType<typeof toCheckoutResource>;
