import { Entity, Enum, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import type { IiasCategory } from '../products/product-eligibility.js';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';
import { INTERVALS } from '../subscriptions/subscription-calendar.js';

export const PAYMENT_LINK_STATUSES = ['active', 'paid', 'expired', 'cancelled'] as const;
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUSES)[number];
export const PAYMENT_LINK_TYPES = ['one_time', 'subscription'] as const;
export type PaymentLinkType = (typeof PAYMENT_LINK_TYPES)[number];

export interface PaymentLinkCustomer {
  email: string;
  first_name: string;
  last_name: string;
}

/** A catalog product on the link, priced from the catalog when the link was created. */
export interface PaymentLinkProduct {
  merchant_product_id: string;
  /** Numeric catalog id. */
  product_id: number;
  name: string;
  quantity: number;
  /** Unit price in cents. */
  price: number;
  hsa_fsa_eligible: boolean;
  requires_lmn: boolean;
  /** The IIAS category of an eligible product's amount (absent on links stored before it existed). */
  iias_category?: IiasCategory | null;
}

export interface PaymentLinkSubscription {
  interval: (typeof INTERVALS)[number];
  interval_count: number;
  trial_period_days: number;
}

/**
 * A shareable link to pay a fixed amount or a set of catalog products. It owns one checkout
 * session (`checkoutId`) created with it, so paying it goes through checkout's payment (one
 * order, ever) and `GET /api/v2/checkout/{id}` works for it.
 */
@Entity({ tableName: 'payment_links' })
@Index({ name: 'payment_links_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({
  name: 'payment_links_active_expiry_idx',
  expression: `create index "payment_links_active_expiry_idx" on "payment_links" ("expires_at") where "status" = 'active'`,
})
@Index({ name: 'payment_links_customer_email_idx', properties: ['merchant', 'livemode', 'customerEmail'] })
export class PaymentLink extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('plink');

  @Enum({ items: [...PAYMENT_LINK_STATUSES], type: 'string' })
  status: Opt<PaymentLinkStatus> = 'active';

  @Enum({ items: [...PAYMENT_LINK_TYPES], type: 'string' })
  paymentType!: PaymentLinkType;

  /** Total in cents. */
  @Property({ type: 'integer' })
  amount!: number;

  /** Lowercase ISO 4217. */
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'json', nullable: true })
  customer: PaymentLinkCustomer | null = null;

  /** Lower-cased customer email, for the `customer_email` filter. */
  @Property({ type: 'string', length: 255, nullable: true })
  customerEmail: string | null = null;

  /** The stored customer (`cus_…`) the link was made for, when given by id. */
  @Property({ type: 'string', nullable: true })
  customerId: string | null = null;

  @Property({ type: 'json' })
  products: Opt<PaymentLinkProduct[]> = [];

  /** The page asks the payer for a shipping address (required to pay); default on for links with products. */
  @Property({ type: 'boolean', default: false })
  collectShippingAddress: Opt<boolean> = false;

  @Property({ type: 'json', nullable: true })
  subscription: PaymentLinkSubscription | null = null;

  /** The link's checkout session (`cs_…`). */
  @Property({ type: 'string' })
  checkoutId!: string;

  @Property({ type: 'text', nullable: true })
  successUrl: string | null = null;

  @Property({ type: 'text', nullable: true })
  cancelUrl: string | null = null;

  @Property({ type: 'json' })
  metadata: Opt<Record<string, unknown>> = {};

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  paidAt: Date | null = null;

  @Property({ type: 'string', nullable: true })
  orderId: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  cancelledAt: Date | null = null;

  @Property({ type: 'string', length: 500, nullable: true })
  cancellationReason: string | null = null;
}
