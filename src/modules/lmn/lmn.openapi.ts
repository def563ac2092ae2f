import { z } from 'zod';
import { LMN_REVIEW_STATUSES } from './lmn.entity.js';

const item = z.object({ product_id: z.string().describe("The merchant's product id"), name: z.string() });

/** A letter of medical necessity as REST shows it. */
export const letterResponse = z
  .object({
    id: z.string().describe('lmn_…'),
    object: z.literal('lmn_letter'),
    livemode: z.boolean(),
    customer: z.object({ email: z.string(), name: z.string() }),
    condition: z.string(),
    items: z.array(item).describe('The items it covers'),
    clinician: z.object({ name: z.string(), credential: z.string(), npi: z.string() }),
    review_id: z.string(),
    issued_at: z.string(),
    expires_at: z.string().describe('12 months after issue'),
    pdf_url: z
      .string()
      .describe('Signed link to the letter PDF, valid one hour; request the letter again for a fresh one'),
  })
  .meta({ id: 'LmnLetter' });

export const letterListResponse = z.object({
  data: z.array(letterResponse),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

/** An LMN review as REST and events show it. */
export const reviewResponse = z
  .object({
    id: z.string().describe('lmnr_…'),
    object: z.literal('lmn_review'),
    livemode: z.boolean(),
    status: z.enum(LMN_REVIEW_STATUSES),
    answers: z.object({
      condition: z.string(),
      recommended_by_provider: z.boolean(),
      provider_name: z.string().nullable(),
      attestation: z.boolean(),
    }),
    items: z.array(item),
    customer: z.object({ email: z.string(), first_name: z.string(), last_name: z.string() }),
    order_id: z.string(),
    invoice_id: z.string().nullable(),
    amount_held: z.number().int().describe('Cents of the HSA/FSA card authorised and not captured'),
    currency: z.string(),
    hold_status: z.enum(['held', 'captured', 'released']),
    condition: z.string().nullable(),
    decided_at: z.string().nullable(),
    decided_by: z.record(z.string(), z.unknown()).nullable(),
    reason: z.string().nullable(),
    letter_id: z.string().nullable(),
    expires_at: z.string().describe('When an undecided review expires (LMN_REVIEW_TIMEOUT_HOURS)'),
    created_at: z.string(),
  })
  .meta({ id: 'LmnReview' });
