import { z } from 'zod';
import { PAYMENT_METHOD_TYPES } from '../payments/payment-processor.js';

/** Response shapes of the customers routes, for the OpenAPI document. */

export const customerResponse = z
  .object({
    id: z.string().describe('cus_…'),
    object: z.literal('customer'),
    livemode: z.boolean(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    phone: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Customer' });

export const customerListResponse = z.object({
  object: z.literal('list'),
  data: z.array(customerResponse),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export const paymentMethodResponse = z
  .object({
    id: z.string().describe('pm_…'),
    object: z.literal('payment_method'),
    livemode: z.boolean(),
    customer_id: z.string(),
    type: z.enum(PAYMENT_METHOD_TYPES).describe('Detected from the card number'),
    brand: z.string().describe('e.g. visa, mastercard'),
    last4: z.string(),
    exp_month: z.number().int(),
    exp_year: z.number().int(),
    created_at: z.iso.datetime(),
    detached_at: z.iso.datetime().nullable().describe('Set once detached; a detached method is no longer listed or charged'),
  })
  .meta({ id: 'PaymentMethod' });

export const paymentMethodListResponse = z.object({
  object: z.literal('list'),
  data: z.array(paymentMethodResponse),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
