import type { Customer, PaymentMethod } from './customer.entity.js';
import { setupLinkStatusAt, type PaymentMethodSetupLink } from './payment-method-setup-link.entity.js';
import { publicLink } from '../../platform/links.js';

/** The REST shape of a customer. */
export function toCustomerResource(c: Customer) {
  return {
    id: c.id,
    object: 'customer' as const,
    livemode: c.livemode,
    email: c.email,
    first_name: c.firstName,
    last_name: c.lastName,
    phone: c.phone,
    metadata: c.metadata,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/** The REST shape of a stored card (never its token, number or cvc). */
export function toPaymentMethodResource(pm: PaymentMethod) {
  return {
    id: pm.id,
    object: 'payment_method' as const,
    livemode: pm.livemode,
    customer_id: pm.customer.id,
    type: pm.type,
    brand: pm.brand,
    last4: pm.last4,
    exp_month: pm.expMonth,
    exp_year: pm.expYear,
    created_at: pm.createdAt.toISOString(),
    detached_at: pm.detachedAt?.toISOString() ?? null,
  };
}

/** A setup link's hosted page; its token is the shopper's capability to enter a card there, once. */
export function setupLinkUrl(link: Pick<PaymentMethodSetupLink, 'id' | 'accessToken'>): string {
  return publicLink(`/card-setup/${link.id}?token=${link.accessToken}`);
}

/** The REST shape of a card setup link (a card-update link when `subscription_id` is set), its `status` at `now` (the caller's clock). */
export function toSetupLinkResource(link: PaymentMethodSetupLink, now: Date) {
  return {
    id: link.id,
    object: 'payment_method_setup_link' as const,
    livemode: link.livemode,
    customer_id: link.customerId,
    subscription_id: link.subscriptionId,
    url: setupLinkUrl(link),
    status: setupLinkStatusAt(link, now),
    expires_at: link.expiresAt.toISOString(),
    used_at: link.usedAt?.toISOString() ?? null,
    payment_method_id: link.paymentMethodId,
    created_at: link.createdAt.toISOString(),
  };
}
