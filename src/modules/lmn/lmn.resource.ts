import type { ServiceContext } from '../../platform/context.js';
import { signedPdfLink } from '../orders/receipt.service.js';
import type { LmnLetter, LmnReview } from './lmn.entity.js';

/** A review as REST, events and GraphQL (JSON fields) show it. */
export function toLmnReviewResource(r: LmnReview) {
  return {
    id: r.id,
    object: 'lmn_review',
    livemode: r.livemode,
    status: r.status,
    answers: r.answers,
    items: r.items,
    customer: r.customer,
    order_id: r.orderId,
    invoice_id: r.invoiceId,
    amount_held: r.hold.amount,
    currency: r.hold.currency,
    hold_status: r.hold.state,
    condition: r.condition,
    decided_at: r.decidedAt?.toISOString() ?? null,
    decided_by: r.decidedBy,
    reason: r.reason,
    letter_id: r.letterId,
    expires_at: r.expiresAt.toISOString(),
    created_at: r.createdAt.toISOString(),
  };
}

/** A letter as REST shows it, with a fresh signed link to its PDF (valid one hour). */
export async function toLetterResource(ctx: ServiceContext, l: LmnLetter) {
  return {
    id: l.id,
    object: 'lmn_letter',
    livemode: l.livemode,
    customer: { email: l.customer.email, name: `${l.customer.first_name} ${l.customer.last_name}`.trim() },
    condition: l.condition,
    items: l.items,
    clinician: { name: l.clinician.name, credential: l.clinician.credential, npi: l.clinician.npi },
    review_id: l.reviewId,
    issued_at: l.issuedAt.toISOString(),
    expires_at: l.expiresAt.toISOString(),
    pdf_url: await signedPdfLink(ctx, '/lmn-letters', l.id),
  };
}
