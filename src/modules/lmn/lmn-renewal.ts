import type { EntityManager } from '@mikro-orm/postgresql';
import { LmnReview, type LmnCustomer, type LmnHold, type LmnItem } from './lmn.entity.js';
import { reviewExpiry } from './lmn-review.service.js';
import { toLmnReviewResource } from './lmn.resource.js';
import { runStatement } from '../../platform/db/sql.js';

/*
 * Renewals of a subscription whose product needs a letter of medical necessity, paid with the
 * HSA/FSA card. While the shopper holds a valid letter naming the product, billing charges as
 * always. Once it has expired, the cycle's card is authorised and held (not captured) and a
 * review opens for the cycle's invoice; the clinician's decision then captures or releases it
 * (lmn-review.service.ts) and the subscriptions module moves the cycle on (`onLmnReviewDecided`).
 */

/** Whether customer `customerId` (by email) holds a letter valid at `at` that names the merchant's product `productId`. */
export async function letterCovers(
  em: EntityManager,
  q: { merchantId: string; livemode: boolean; customerId: string; productId: string; at: Date },
): Promise<boolean> {
  const rows = await runStatement(
    em,
    `select 1 from lmn_letters l join customers c on c.id = ?
     where l.merchant_id = ? and l.livemode = ? and l.customer_email = lower(c.email) and l.issued_at <= ? and l.expires_at > ? and l.items @> ?::jsonb limit 1`,
    [q.customerId, q.merchantId, q.livemode, q.at, q.at, JSON.stringify([{ product_id: q.productId }])],
  );
  return rows.length > 0;
}

/** What a held renewal's review is opened with. */
export interface RenewalReviewRequest {
  merchantId: string;
  livemode: boolean;
  orderId: string;
  invoiceId: string;
  customer: LmnCustomer;
  item: LmnItem;
  hold: Omit<LmnHold, 'state' | 'capture_id'>;
  at: Date;
}

/**
 * Opens the review of a held renewal in `em`'s unit of work (the caller flushes it with the
 * cycle's settlement) and answers it with its `lmn_review.created` payload. The questionnaire is
 * the one behind the shopper's last letter for the product (its condition), as a renewal request.
 */
export async function openRenewalReview(
  em: EntityManager,
  r: RenewalReviewRequest,
): Promise<{ review: LmnReview; payload: ReturnType<typeof toLmnReviewResource> }> {
  const [last] = await runStatement<{ condition: string; clinician: string }>(
    em,
    `select condition, clinician->>'name' as clinician from lmn_letters
     where merchant_id = ? and livemode = ? and customer_email = ? and items @> ?::jsonb order by issued_at desc limit 1`,
    [r.merchantId, r.livemode, r.customer.email.toLowerCase(), JSON.stringify([{ product_id: r.item.product_id }])],
  );
  const review = em.create(LmnReview, {
    merchant: r.merchantId,
    livemode: r.livemode,
    answers: {
      condition: last?.condition ?? '',
      recommended_by_provider: !!last,
      provider_name: last?.clinician ?? null,
      attestation: false,
    },
    items: [r.item],
    customer: r.customer,
    customerEmail: r.customer.email.toLowerCase(),
    orderId: r.orderId,
    invoiceId: r.invoiceId,
    hold: { ...r.hold, state: 'held', capture_id: null },
    expiresAt: reviewExpiry(r.at),
    createdAt: r.at,
    updatedAt: r.at,
  });
  return { review, payload: toLmnReviewResource(review) };
}
