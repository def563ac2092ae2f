import { MAX_AMOUNT } from '../../platform/money.js';
import { z } from 'zod';
import { metadataSchema, pageLimit, timestamp } from '../../platform/validation.js';
import { REFUND_REASONS } from './refund.entity.js';

export const createRefundSchema = z
  .object({
    order_id: z.string().min(1).max(255),
    amount: z
      .number()
      .int('must be an integer number of cents')
      .positive('must be positive')
      .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT} cents`)
      .optional()
      .describe('Cents; omit to refund the whole remaining amount'),
    reason: z.enum(REFUND_REASONS),
    notes: z.string().max(500, 'must be at most 500 characters').nullish(),
    metadata: metadataSchema.default({}),
  })
  .strict()
  .meta({ id: 'CreateRefundRequest' });

export const v1RefundSchema = z
  .object({
    line_items: z
      .array(
        z
          .object({
            line_item_id: z.string().min(1),
            quantity: z.number().int().positive(),
            amount_cents: z.number().int().positive().max(MAX_AMOUNT),
          })
          .strict(),
      )
      .min(1),
    reason: z.string().max(500).optional(),
  })
  .strict()
  .meta({ id: 'V1RefundRequest' });

export const listRefundsSchema = z
  .object({
    limit: pageLimit,
    starting_after: z.string().optional(),
    order_id: z.string().optional(),
    status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']).optional(),
    created_after: timestamp.optional(),
    created_before: timestamp.optional(),
  })
  .strict();

export type RefundFilters = Omit<z.output<typeof listRefundsSchema>, 'limit' | 'starting_after'>;
