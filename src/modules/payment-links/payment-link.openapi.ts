import { z } from 'zod';
import { ORDER_STATUSES } from '../orders/order.entity.js';
import { PAYMENT_LINK_STATUSES, PAYMENT_LINK_TYPES } from './payment-link.entity.js';
import { INTERVALS } from '../subscriptions/subscription-calendar.js';
import { pricedLineFields } from '../shared/value.openapi.js';

/** Response shapes of the payment links routes, for the OpenAPI document. */

export const paymentLinkResponse = z
  .object({
    id: z.string().describe('plink_…'),
    object: z.literal('payment_link'),
    livemode: z.boolean(),
    url: z.string().describe('The hosted page; append ?client_reference_id=… to have it set on the order'),
    amount: z.number().int().describe('Total in cents'),
    currency: z.string().describe('Lowercase ISO 4217'),
    description: z.string().nullable(),
    payment_type: z.enum(PAYMENT_LINK_TYPES),
    status: z.enum(PAYMENT_LINK_STATUSES),
    customer: z.object({ email: z.string(), first_name: z.string(), last_name: z.string() }).nullable(),
    customer_id: z.string().nullable().describe('The stored customer (cus_…) when the link was made with customer_id'),
    collect_shipping_address: z.boolean().describe('The page asks the payer for a shipping address'),
    products: z.array(z.object(pricedLineFields)),
    checkout_id: z.string().describe('The link’s checkout session (cs_…); GET /api/v2/checkout/{id} works for it'),
    order: z
      .object({ id: z.string(), status: z.enum(ORDER_STATUSES).nullable(), paid_at: z.iso.datetime().nullable() })
      .nullable()
      .describe('Set once paid'),
    success_url: z.string().nullable(),
    cancel_url: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    subscription: z
      .object({ interval: z.enum(INTERVALS), interval_count: z.number().int(), trial_period_days: z.number().int() })
      .nullable(),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
    paid_at: z.iso.datetime().nullable(),
    cancelled_at: z.iso.datetime().nullable(),
    cancellation_reason: z.string().nullable(),
  })
  .meta({ id: 'PaymentLink' });

export const paymentLinkListResponse = z.object({
  object: z.literal('list'),
  data: z.array(paymentLinkResponse),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
