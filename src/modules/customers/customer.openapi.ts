import { z } from 'zod';
import { PAYMENT_METHOD_TYPES } from '../payments/payment-processor.js';
import { SETUP_LINK_STATUSES } from './payment-method-setup-link.entity.js';

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
    detached_at: z.iso
      .datetime()
      .nullable()
      .describe('Set once detached; a detached method is no longer listed or charged'),
  })
  .meta({ id: 'PaymentMethod' });

export const paymentMethodListResponse = z.object({
  object: z.literal('list'),
  data: z.array(paymentMethodResponse),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export const setupLinkResponse = z
  .object({
    id: z.string().describe('pmsl_…'),
    object: z.literal('payment_method_setup_link'),
    livemode: z.boolean(),
    customer_id: z.string().describe('The customer the card is stored for (cus_…)'),
    subscription_id: z
      .string()
      .nullable()
      .describe('Set on a card-update link: the subscription whose card the entered card replaces (sub_…)'),
    url: z.string().describe('The one-time hosted page (with its access token) to send the shopper to'),
    status: z
      .enum(SETUP_LINK_STATUSES)
      .describe('open until a card is stored through it (used) or 24 hours pass (expired)'),
    expires_at: z.iso.datetime(),
    used_at: z.iso.datetime().nullable(),
    payment_method_id: z.string().nullable().describe('The card stored through the link (pm_…), once used'),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'PaymentMethodSetupLink' });
