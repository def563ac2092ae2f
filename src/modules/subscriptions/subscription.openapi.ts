import { z } from 'zod';
import { PAYMENT_METHOD_TYPES } from '../payments/payment-processor.js';
import { INTERVALS } from './subscription-calendar.js';
import { ATTEMPT_STATUSES, INVOICE_STATUSES } from './subscription.entity.js';
import { DISPOSITIONS, SUBSCRIPTION_STATUSES } from './subscription-lifecycle.js';

/** Response shapes of the subscriptions routes, for the OpenAPI document. */

const time = z.iso.datetime();

export const subscriptionResponse = z
  .object({
    id: z.string().describe('sub_…'),
    object: z.literal('subscription'),
    livemode: z.boolean(),
    customer_id: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    product_id: z.number().int().nullable(),
    merchant_product_id: z.string().nullable(),
    amount_cents: z.number().int().describe('Recurring charge, cents (from the next cycle on when changed)'),
    currency: z.string(),
    interval: z.enum(INTERVALS),
    interval_count: z.number().int(),
    trial_period_days: z.number().int().nullable(),
    trial_end: time.nullable(),
    current_period_start: time,
    current_period_end: time,
    next_billing_date: time.nullable().describe('Next renewal, retry or scheduled end; null when nothing is due'),
    cancel_at_period_end: z.boolean(),
    cancelled_at: time.nullable().describe('When the cancellation was asked for'),
    cancellation_reason: z.string().nullable(),
    ended_at: time.nullable().describe('When it actually ended'),
    payment_method_id: z.string(),
    payment_method: z
      .object({ id: z.string(), type: z.enum(PAYMENT_METHOD_TYPES), last4: z.string(), brand: z.string() })
      .nullable(),
    latest_invoice_id: z.string().nullable(),
    plan_id: z
      .string()
      .nullable()
      .describe(
        'The plan the subscription was made from (provenance only); null: this service makes subscriptions without plans',
      ),
    metadata: z.record(z.string(), z.unknown()),
    created_at: time,
    updated_at: time,
  })
  .meta({ id: 'Subscription' });

export const subscriptionListResponse = z.object({
  object: z.literal('list'),
  data: z.array(subscriptionResponse),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export const cancelResponse = z
  .object({
    id: z.string(),
    status: z.literal('cancelled'),
    cancel_at_period_end: z.boolean(),
    current_period_end: time,
    cancelled_at: time.nullable(),
  })
  .meta({ id: 'SubscriptionCancellation' });

export const invoiceResponse = z
  .object({
    id: z.string().describe('in_…'),
    object: z.literal('subscription_invoice'),
    livemode: z.boolean(),
    subscription_id: z.string(),
    period_start: time,
    period_end: time,
    amount: z.number().int(),
    amount_paid: z.number().int(),
    currency: z.string(),
    status: z.enum(INVOICE_STATUSES),
    attempt_count: z.number().int(),
    next_retry_at: time.nullable(),
    order_id: z.string().nullable().describe('The real order the paid cycle made'),
    psp_reference: z.string().nullable().describe('Processor reference of the capture'),
    paid_at: time.nullable(),
    attempts: z.array(
      z.object({
        id: z.string().describe('ia_…; also the processor idempotency key'),
        attempt: z.number().int(),
        status: z.enum(ATTEMPT_STATUSES),
        amount: z.number().int(),
        payment_method_id: z.string(),
        psp_reference: z.string().nullable(),
        disposition: z.enum(DISPOSITIONS).nullable(),
        refusal_code: z.string().nullable(),
        created_at: time,
      }),
    ),
    created_at: time,
  })
  .meta({ id: 'SubscriptionInvoice' });
