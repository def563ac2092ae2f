import { z } from 'zod';
import { envelopeSchema } from '../../platform/rest/envelope.js';
import { orderResponse } from '../orders/order.openapi.js';
import { addressResponse, checkoutAmountsResponse } from '../shared/value.openapi.js';
import { CHECKOUT_STATUSES, CHECKOUT_TYPES } from './checkout-session.entity.js';
import { subscriptionTermsSchema } from './checkout.schemas.js';

/** Response shapes of the checkout routes, for the OpenAPI document (what `toCheckoutResource` returns). */

export const checkoutSessionResponse = z
  .object({
    checkout_id: z.string(),
    object: z.literal('checkout_session'),
    livemode: z.boolean(),
    checkout_url: z.string().describe('Hosted page with its access token'),
    reference_id: z.string(),
    status: z.enum(CHECKOUT_STATUSES),
    type: z.enum(CHECKOUT_TYPES),
    payment_type: z.enum(['one_time', 'subscription']),
    subscription: z
      .object({
        interval: subscriptionTermsSchema.shape.interval,
        interval_count: z.number().int(),
        trial_period_days: z.number().int(),
      })
      .nullable(),
    customer: z.object({
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      phone: z.string().nullable(),
    }),
    line_items: z.array(
      z.object({
        product_id: z.string(),
        name: z.string(),
        image_url: z.string().nullable(),
        price: z.number().int(),
        quantity: z.number().int(),
        currency: z.string(),
        hsa_fsa_eligible: z.boolean(),
        requires_lmn: z.boolean(),
        matched_product_id: z.number().int().nullable(),
      }),
    ),
    amounts: checkoutAmountsResponse,
    currency: z.string(),
    requires_lmn: z.boolean(),
    shipping_info: addressResponse.nullable().describe('Null for a payment link that collects no address'),
    billing_info: addressResponse.nullable(),
    success_url: z.string(),
    failure_url: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    order_id: z.string().nullable(),
    payment_link_id: z.string().nullable().describe('The payment link (plink_…) this session belongs to, if any'),
    paid_at: z.iso.datetime().nullable(),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'CheckoutSession' });

export const checkoutEnvelopeResponse = envelopeSchema(checkoutSessionResponse).meta({ id: 'CheckoutSessionEnvelope' });

export const checkoutStatusEnvelopeResponse = envelopeSchema(
  checkoutSessionResponse.extend({ order: orderResponse.nullable().describe('The order once paid') }),
).meta({
  id: 'CheckoutSessionStatusEnvelope',
});
