import type { Customer, PaymentMethod } from '../customers/customer.entity.js';
import type { OrderDraft } from '../orders/order.service.js';
import type { Subscription, SubscriptionInvoice } from './subscription.entity.js';

/** The order a paid (or held: `captureId` null) cycle makes: one recurring line item, the subscription's product, paid by the stored card; no address was collected (null). */
export function renewalOrderDraft(
  sub: Pick<Subscription, 'id' | 'productId' | 'merchantProductId' | 'description' | 'hsaFsaEligible' | 'requiresLmn'>,
  invoice: Pick<SubscriptionInvoice, 'id' | 'amount' | 'currency'>,
  customer: Pick<Customer, 'email' | 'firstName' | 'lastName' | 'phone'> | null,
  pm: Pick<PaymentMethod, 'type' | 'brand' | 'last4' | 'processorToken'>,
  orderNumber: string,
  captureId: string | null,
  now: Date,
): OrderDraft {
  const amount = invoice.amount;
  return {
    at: now,
    reason: `subscription ${sub.id} cycle ${invoice.id}`,
    orderNumber,
    checkoutId: null,
    isRecurring: true,
    currency: invoice.currency.toLowerCase(),
    customer: {
      email: customer?.email ?? '',
      first_name: customer?.firstName ?? '',
      last_name: customer?.lastName ?? '',
      phone: customer?.phone ?? null,
      shipping_address: null,
      billing_address: null,
    },
    lineItems: [
      {
        id: `li_${invoice.id.slice(3, 15)}_1`,
        product_id: sub.productId,
        merchant_product_id: sub.merchantProductId ?? '',
        name: sub.description,
        quantity: 1,
        price: amount,
        hsa_fsa_eligible: sub.hsaFsaEligible,
        requires_lmn: sub.requiresLmn,
        is_recurring: true,
      },
    ],
    amounts: {
      subtotal: amount,
      hsa_amount: sub.hsaFsaEligible ? amount : 0,
      regular_amount: sub.hsaFsaEligible ? 0 : amount,
      shipping: 0,
      tax: 0,
      discount: 0,
      total: amount,
    },
    metadata: { subscription_id: sub.id, invoice_id: invoice.id },
    // None while the card is only held (captured when a clinician approves the letter).
    payments: captureId
      ? [
          {
            paymentMethod: pm.type,
            brand: pm.brand,
            last4: pm.last4,
            amount,
            processorToken: pm.processorToken,
            captureId,
          },
        ]
      : [],
  };
}
