import { z } from 'zod';
import { envelopeSchema, listSchema } from '../../platform/rest/envelope.js';
import { PAYMENT_METHOD_TYPES } from '../payments/payment-processor.js';
import { REFUND_REASONS, REFUND_STATUSES } from './refund.entity.js';

/** Response shapes of the refunds routes, for the OpenAPI document (what `toRefundResource` returns). */

export const refundResponse = z
  .object({
    id: z.string(),
    object: z.literal('refund'),
    livemode: z.boolean(),
    order_id: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    reason: z.enum(REFUND_REASONS),
    notes: z.string().nullable(),
    status: z.enum(REFUND_STATUSES),
    refund_breakdown: z.object({ hsa_amount: z.number().int(), regular_amount: z.number().int() }),
    refunds: z.array(
      z.object({
        payment_id: z.string(),
        payment_method: z.enum(PAYMENT_METHOD_TYPES),
        amount: z.number().int(),
        refund_id: z.string().describe('This payment’s refund (rp_…), set from creation'),
        processor_refund_id: z.string().nullable().describe('The processor’s reference, once processed'),
        success: z.boolean().nullable().describe('null only while the refund is pending'),
      }),
    ),
    failure_reason: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    processed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Refund' });

export const refundEnvelopeResponse = envelopeSchema(refundResponse).meta({ id: 'RefundEnvelope' });

export const refundListResponse = listSchema(refundResponse).meta({ id: 'RefundList' });

export const v1RefundResponse = z
  .object({
    checkout_id: z.string(),
    refund_id: z.string(),
    status: z.enum(REFUND_STATUSES),
    refunded_amount_cents: z.number().int(),
    currency: z.string(),
    refunded_at: z.iso.datetime(),
  })
  .meta({ id: 'V1Refund' });
