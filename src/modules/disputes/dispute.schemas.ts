import { z } from 'zod';
import { DISPUTE_STAGES } from '../payments/payment-processor.js';
import { CHARGEBACK_EVENT_CODES, stageOf } from './dispute-stage.js';

/** `POST /api/v2/orders/{id}/dispute/defend` and `defendDispute`. */
export const defendDisputeSchema = z
  .object({
    defense_reason_code: z
      .string()
      .min(1)
      .max(100)
      .describe(
        "One of the processor's defence reason codes for this dispute (Adyen: e.g. `GoodsOrServicesProvided`, see retrieveApplicableDefenseReasons)",
      ),
  })
  .strict()
  .meta({ id: 'DefendDisputeRequest' });

/** `POST /api/v2/test-helpers/orders/{id}/dispute`: the processor's chargeback notification for the order's payment. */
export const testDisputeOrderSchema = z
  .object({
    stage: z.enum(DISPUTE_STAGES),
    event_code: z
      .enum(CHARGEBACK_EVENT_CODES)
      .optional()
      .describe(
        'The notification to send; one of the stage (NOTIFICATION_OF_CHARGEBACK, CHARGEBACK or SECOND_CHARGEBACK, CHARGEBACK_REVERSED); by default the first of its stage',
      ),
    reason: z.string().max(500).optional(),
    amount: z.number().int().positive().optional().describe('Cents disputed (by default the payment amount)'),
    event_date: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("When the processor dated the notification (by default now, on this merchant's test clock)"),
    defense_period_ends_at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('The defence deadline the notification carries'),
    defendable: z.boolean().optional().describe('Whether the notification says the dispute can be defended'),
  })
  .strict()
  .superRefine((body, issue) => {
    if (body.event_code && stageOf(body.event_code) !== body.stage)
      issue.addIssue({
        code: 'custom',
        path: ['event_code'],
        message: `${body.event_code} is not a ${body.stage} notification`,
      });
  })
  .meta({ id: 'TestOrderDisputeRequest' });
