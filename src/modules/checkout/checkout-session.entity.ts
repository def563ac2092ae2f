import { Entity, Enum, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId, randomBase62 } from '../../platform/db/ids.js';
import type { Address } from '../shared/address.js';
import type { IiasCategory } from '../products/product-eligibility.js';
import type { CheckoutAmounts } from '../shared/amounts.js';

export interface CheckoutCustomer {
  email: string;
  first_name: string;
  last_name: string;
  phone?: string | null;
}

/** A submitted line item with what matching it to the catalog decided. */
export interface CheckoutLineItem {
  product_id: string;
  name: string;
  image_url?: string | null;
  price: number;
  quantity: number;
  currency: string;
  /** Numeric id of the matched catalog product, null for a pass-through item. */
  matched_product_id: number | null;
  hsa_fsa_eligible: boolean;
  requires_lmn: boolean;
  /** The IIAS category of an eligible item's amount (null when not eligible; absent on sessions stored before it existed). */
  iias_category?: IiasCategory | null;
}

export const CHECKOUT_STATUSES = ['open', 'paid', 'expired'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];
export const CHECKOUT_TYPES = ['eligible', 'split', 'regular'] as const;
export type CheckoutType = (typeof CHECKOUT_TYPES)[number];

@Entity({ tableName: 'checkout_sessions' })
@Index({ name: 'checkout_sessions_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({
  name: 'checkout_sessions_open_expiry_idx',
  expression: `create index "checkout_sessions_open_expiry_idx" on "checkout_sessions" ("expires_at") where "status" = 'open'`,
})
export class CheckoutSession extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('cs');

  /** Capability in `checkout_url`: whoever holds the link may pay. */
  @Property({ type: 'string' })
  accessToken: Opt<string> = randomBase62(32);

  @Property({ type: 'string', length: 255 })
  referenceId!: string;

  @Enum({ items: [...CHECKOUT_STATUSES], type: 'string' })
  status: Opt<CheckoutStatus> = 'open';

  @Enum({ items: [...CHECKOUT_TYPES], type: 'string' })
  type!: CheckoutType;

  @Property({ type: 'json' })
  customer!: CheckoutCustomer;

  /** Null for a payment link's session until the payer gives one (links ask only when they ship). */
  @Property({ type: 'json', nullable: true })
  shippingInfo!: Address | null;

  @Property({ type: 'json', nullable: true })
  billingInfo!: Address | null;

  @Property({ type: 'json' })
  lineItems!: CheckoutLineItem[];

  @Property({ type: 'json' })
  amounts!: CheckoutAmounts;

  /** Lowercase ISO 4217. */
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'text' })
  successUrl!: string;

  @Property({ type: 'text' })
  failureUrl!: string;

  @Property({ type: 'json' })
  metadata: Opt<Record<string, unknown>> = {};

  @Enum({ items: ['one_time', 'subscription'], type: 'string' })
  paymentType: Opt<'one_time' | 'subscription'> = 'one_time';

  @Property({ type: 'json', nullable: true })
  subscription: { interval: string; interval_count?: number; trial_period_days?: number } | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  paidAt: Date | null = null;

  @Property({ type: 'string', nullable: true })
  orderId: string | null = null;

  /** The payment link (`plink_…`) this session was created for, if any: its order is a payment-link order. */
  @Property({ type: 'string', nullable: true })
  paymentLinkId: string | null = null;
}
