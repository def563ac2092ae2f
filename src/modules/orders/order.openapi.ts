import { z } from 'zod';
import { listSchema } from '../../platform/rest/envelope.js';
import { addressResponse, amountsResponse, pricedLineFields } from '../shared/value.openapi.js';
import { DISPUTE_STAGES, PAYMENT_METHOD_TYPES } from '../payments/payment-processor.js';
import { ORDER_STATUSES, PAYMENT_STATUSES } from './order.entity.js';

const lmnReviewRef = z.object({
  id: z.string().describe('lmnr_…'),
  status: z.enum(['pending', 'approved', 'declined', 'expired']),
});

/** Response shapes of the orders routes, for the OpenAPI document (what `toOrderResource` returns). */

const payment = z.object({
  payment_id: z.string(),
  payment_method: z.enum(PAYMENT_METHOD_TYPES),
  brand: z.string(),
  last4: z.string(),
  amount: z.number().int(),
  refunded_amount: z.number().int(),
  captured_at: z.iso.datetime(),
  psp_reference: z
    .string()
    .describe("The processor's reference of the captured payment (Adyen's pspReference in live mode)"),
});

export const disputeResponse = z
  .object({
    id: z.string().describe('dp_…'),
    object: z.literal('dispute'),
    order_id: z.string(),
    stage: z
      .enum(DISPUTE_STAGES)
      .describe(
        "`notification` (opened, no money moved), `confirmed` (money taken back), `reversed` (resolved in the merchant's favour)",
      ),
    amount: z.number().int().describe('Cents disputed'),
    currency: z.string(),
    reason: z.string().nullable(),
    event_code: z.string().describe("The processor's event code of the latest notification, e.g. CHARGEBACK"),
    defense_due_at: z.iso.datetime().nullable().describe('When the defence period ends, when the processor sent it'),
    defendable: z
      .boolean()
      .nullable()
      .describe('Whether the processor lets the merchant defend it; null when it did not say'),
    accepted_at: z.iso.datetime().nullable(),
    defended_at: z.iso.datetime().nullable(),
    defense_reason_code: z.string().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Dispute' });

export const orderResponse = z
  .object({
    id: z.string(),
    object: z.literal('order'),
    livemode: z.boolean(),
    order_number: z.string(),
    checkout_id: z.string().nullable(),
    reference_id: z.string().nullable(),
    payment_link_id: z.string().nullable(),
    client_reference_id: z.string().nullable(),
    status: z.enum(ORDER_STATUSES).describe('Fulfilment status; `refunded` only once the whole order is refunded'),
    is_recurring: z.boolean(),
    payment_status: z.enum(PAYMENT_STATUSES),
    amount: z.number().int(),
    currency: z.string(),
    receipt_url: z.string().nullable(),
    customer: z.object({
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      phone: z.string().nullable(),
      shipping_address: addressResponse.nullable(),
      billing_address: addressResponse.nullable(),
    }),
    line_items: z.array(
      z.object({
        id: z.string(),
        product_id: z.number().int().nullable(),
        ...pricedLineFields,
        is_recurring: z.boolean(),
      }),
    ),
    amounts: amountsResponse,
    payment: payment.nullable(),
    payments: z.array(payment),
    lmn: z
      .object({
        items: z
          .array(z.string())
          .describe('Merchant product ids that need a letter of medical necessity, paid with the HSA/FSA card'),
        review: lmnReviewRef.nullable(),
        letter_id: z.string().nullable().describe('The letter (lmn_…) that covers them, once issued'),
      })
      .nullable(),
    lmn_review: lmnReviewRef
      .nullable()
      .describe('The clinician review this order waits for or went through (see README: letters of medical necessity)'),
    failure_reason: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    status_history: z.array(
      z.object({ status: z.enum(ORDER_STATUSES), timestamp: z.iso.datetime(), reason: z.string() }),
    ),
    dispute: disputeResponse.nullable().describe('The latest dispute (chargeback) of the order, or null'),
    created_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Order' });

export const orderListResponse = listSchema(orderResponse).meta({ id: 'OrderList' });
