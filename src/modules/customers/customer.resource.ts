import type { Customer, PaymentMethod } from './customer.entity.js';

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
