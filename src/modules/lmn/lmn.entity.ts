import { Entity, Enum, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';

export const LMN_REVIEW_STATUSES = ['pending', 'approved', 'declined', 'expired'] as const;
export type LmnReviewStatus = (typeof LMN_REVIEW_STATUSES)[number];

/** The shopper's questionnaire: a request for a letter, never a letter. */
export interface LmnAnswers {
  condition: string;
  recommended_by_provider: boolean;
  provider_name: string | null;
  attestation: boolean;
}

/** An item a review asks about, or a letter covers. */
export interface LmnItem {
  /** The merchant's product id (what checkouts and renewals name). */
  product_id: string;
  name: string;
}

export interface LmnCustomer {
  email: string;
  first_name: string;
  last_name: string;
}

/** The HSA/FSA card's hold a pending review keeps (authorised, not captured). */
export interface LmnHold {
  authorization_id: string;
  amount: number;
  currency: string;
  payment_method: 'hsa_fsa_card' | 'card';
  brand: string;
  last4: string;
  token: string;
  /** `held` until decided; `captured` on approval, `released` once voided. */
  state: 'held' | 'captured' | 'released';
  capture_id: string | null;
}

/** The clinician who decided, as the letter names them. */
export interface LmnClinician {
  member_id: string;
  name: string;
  credential: string;
  npi: string;
}

/**
 * A letter-of-medical-necessity review (`lmnr_…`): opened when an HSA/FSA card pays for items that
 * need a letter and the shopper holds none; a clinician approves or declines it, or it expires
 * after LMN_REVIEW_TIMEOUT_HOURS. Its `hold` is the HSA/FSA part, authorised and not captured.
 */
@Entity({ tableName: 'lmn_reviews' })
@Index({ name: 'lmn_reviews_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({
  name: 'lmn_reviews_pending_expiry_idx',
  expression: `create index "lmn_reviews_pending_expiry_idx" on "lmn_reviews" ("expires_at") where "status" = 'pending'`,
})
export class LmnReview extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('lmnr');

  @Enum({ items: [...LMN_REVIEW_STATUSES], type: 'string' })
  status: Opt<LmnReviewStatus> = 'pending';

  @Property({ type: 'json' })
  answers!: LmnAnswers;

  @Property({ type: 'json' })
  items!: LmnItem[];

  @Property({ type: 'json' })
  customer!: LmnCustomer;

  /** Lower-cased: letters are found by the shopper's email, per merchant and mode. */
  @Property({ type: 'string' })
  customerEmail!: string;

  @Index({ name: 'lmn_reviews_order_idx' })
  @Property({ type: 'string' })
  orderId!: string;

  /** The subscription cycle that waits for this review (a renewal after the letter expired); null for a checkout. */
  @Property({ type: 'string', nullable: true })
  invoiceId: string | null = null;

  @Property({ type: 'json' })
  hold!: LmnHold;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  decidedAt: Date | null = null;

  /** Who decided: the clinician, `test_helper`, or `system` (the timeout). */
  @Property({ type: 'json', nullable: true })
  decidedBy: (Partial<LmnClinician> & { kind: 'clinician' | 'test_helper' | 'system' }) | null = null;

  /** The condition a clinician approved for; the reason of a decline (`declined`, `expired`, or the clinician's words). */
  @Property({ type: 'text', nullable: true })
  condition: string | null = null;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Property({ type: 'string', nullable: true })
  letterId: string | null = null;

  /** Set while a decision is being carried out (the processor call happens outside a transaction); a stale mark lapses after 2 minutes. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  decidingAt: Date | null = null;
}

/** A letter of medical necessity (`lmn_…`) a clinician issued: valid 12 months for the items it names. */
@Entity({ tableName: 'lmn_letters' })
@Index({ name: 'lmn_letters_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({ name: 'lmn_letters_customer_idx', properties: ['merchant', 'livemode', 'customerEmail', 'expiresAt'] })
export class LmnLetter extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('lmn');

  @Property({ type: 'json' })
  customer!: LmnCustomer;

  @Property({ type: 'string' })
  customerEmail!: string;

  @Property({ type: 'text' })
  condition!: string;

  @Property({ type: 'json' })
  items!: LmnItem[];

  @Property({ type: 'json' })
  clinician!: LmnClinician | { member_id: null; name: string; credential: string; npi: string };

  @Property({ type: 'string' })
  reviewId!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  issuedAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;
}
