import { z } from 'zod';
import { isIso4217, metadataSchema, pageLimit, timestamp } from '../../platform/validation.js';
import { INTERVALS } from './subscription-calendar.js';
import { DISPUTE_STAGES, SUBSCRIPTION_STATUSES } from './subscription-lifecycle.js';

const cents = z
  .number()
  .int('must be an integer number of cents')
  .positive('must be a positive integer number of cents')
  .max(99_999_999, 'must be at most 99999999');

export const createSubscriptionSchema = z
  .object({
    customer_id: z.string().min(1).max(255),
    product_id: z.number().int().positive().optional().describe('Numeric catalog product id'),
    merchant_product_id: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("The merchant's own product id (alternative to product_id)"),
    amount_cents: cents.describe('Recurring charge, cents'),
    currency: z
      .string()
      .refine(isIso4217, 'must be an ISO 4217 currency code')
      .transform((c) => c.toUpperCase()),
    interval: z.enum(INTERVALS),
    interval_count: z.number().int().min(1, 'must be at least 1').max(365, 'must be at most 365').default(1),
    trial_period_days: z
      .number()
      .int()
      .min(0, 'must be 0 or more')
      .max(730, 'must be at most 730')
      .optional()
      .describe('Free trial length in days'),
    payment_method_id: z
      .string()
      .min(1)
      .max(255)
      .describe('Stored payment method (pm_…) of the customer; verified at creation even with a trial'),
    metadata: metadataSchema.default({}),
  })
  .strict()
  .meta({ id: 'CreateSubscriptionRequest' });
export type CreateSubscriptionInput = z.output<typeof createSubscriptionSchema>;

export const updateSubscriptionSchema = z
  .object({
    amount_cents: cents
      .optional()
      .describe('New recurring charge from the next cycle on (an open cycle keeps its amount)'),
    metadata: metadataSchema.optional().describe('Replaces the stored metadata'),
    cancel_at_period_end: z
      .boolean()
      .optional()
      .describe('true schedules the end at current_period_end; false reverses a scheduled end (subscription.resumed)'),
  })
  .strict()
  .meta({ id: 'UpdateSubscriptionRequest' });
export type UpdateSubscriptionInput = z.output<typeof updateSubscriptionSchema>;

export const cancelSubscriptionSchema = z
  .object({
    cancel_at_period_end: z.boolean().default(false),
    reason: z.string().max(500, 'must be at most 500 characters').optional(),
  })
  .strict()
  .meta({ id: 'CancelSubscriptionRequest' });

export const replacePaymentMethodSchema = z
  .object({ payment_method_id: z.string().min(1).max(255) })
  .strict()
  .meta({ id: 'ReplacePaymentMethodRequest' });

export const disputeSchema = z
  .object({
    stage: z.enum(DISPUTE_STAGES),
    event_code: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('Card-network code (CHARGEBACK by default); any code is accepted and decided by stage'),
    reason: z.string().max(500).optional(),
  })
  .strict()
  .meta({ id: 'TestSubscriptionDisputeRequest' });

export const listSubscriptionsSchema = z
  .object({
    limit: pageLimit,
    starting_after: z.string().optional(),
    status: z.enum(SUBSCRIPTION_STATUSES).optional(),
    customer_id: z.string().optional(),
    created_after: timestamp.optional(),
    created_before: timestamp.optional(),
  })
  .strict();
export type SubscriptionFilters = Omit<z.output<typeof listSubscriptionsSchema>, 'limit' | 'starting_after'>;
