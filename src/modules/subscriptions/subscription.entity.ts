import { Entity, Enum, Index, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';
import { INTERVALS, type Interval } from './subscription-calendar.js';
import {
  DISPOSITIONS,
  SUBSCRIPTION_STATUSES,
  type Disposition,
  type SubscriptionStatus,
} from './subscription-lifecycle.js';

export const INVOICE_STATUSES = ['open', 'paid', 'uncollectible', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** `reversed`: charged, but the cycle was cancelled before the charge settled; the capture is refunded (see subscription-billing.ts). */
export const ATTEMPT_STATUSES = ['calling', 'succeeded', 'failed', 'reversed'] as const;
export type InvoiceAttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/**
 * A recurring charge of a customer's stored payment method. Due work is `next_charge_at` (a
 * renewal, a retry, or a scheduled end), compared with the merchant's clock by the billing sweep.
 */
@Entity({ tableName: 'subscriptions' })
@Index({ name: 'subscriptions_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({ name: 'subscriptions_customer_idx', properties: ['customerId'] })
@Index({
  name: 'subscriptions_due_idx',
  expression: `create index "subscriptions_due_idx" on "subscriptions" ("next_charge_at") where "next_charge_at" is not null`,
})
export class Subscription extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('sub');

  @Property({ type: 'string' })
  customerId!: string;

  @Property({ type: 'string' })
  paymentMethodId!: string;

  /** Numeric catalog product id, when the subscription sells a catalog product. */
  @Property({ type: 'integer', nullable: true })
  productId: number | null = null;

  @Property({ type: 'string', nullable: true })
  merchantProductId: string | null = null;

  /** Line item name of the orders each paid cycle creates. */
  @Property({ type: 'string', length: 255 })
  description!: string;

  @Property({ type: 'boolean', default: false })
  hsaFsaEligible: Opt<boolean> = false;

  /** Its product needs a letter of medical necessity: an HSA/FSA renewal without a valid letter is held for a clinician's review. */
  @Property({ type: 'boolean', default: false })
  requiresLmn: Opt<boolean> = false;

  /** Cents charged per cycle (from the next cycle on when changed). */
  @Property({ type: 'integer' })
  amountCents!: number;

  /** Upper-case ISO 4217. */
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Enum({ items: [...INTERVALS], type: 'string' })
  interval!: Interval;

  @Property({ type: 'integer', default: 1 })
  intervalCount: Opt<number> = 1;

  @Property({ type: 'integer', nullable: true })
  trialPeriodDays: number | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  trialEnd: Date | null = null;

  @Enum({ items: [...SUBSCRIPTION_STATUSES], type: 'string' })
  status!: SubscriptionStatus;

  /** Start of the first paid period: every period boundary is computed from it. */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  anchorAt!: Date;

  /** Index of the current period from the anchor (-1 while trialing). */
  @Property({ type: 'integer' })
  periodIndex!: number;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  currentPeriodStart!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  currentPeriodEnd!: Date;

  /** When the sweep next acts: a renewal, a retry or a scheduled end; null when nothing is due. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  nextChargeAt: Date | null = null;

  /** Real time until which a worker holds this subscription's charge in flight. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  billingLeaseUntil: Date | null = null;

  /** The cycle being collected (unpaid invoice), if any. */
  @Property({ type: 'string', nullable: true })
  openInvoiceId: string | null = null;

  @Property({ type: 'string', nullable: true })
  latestInvoiceId: string | null = null;

  @Property({ type: 'boolean', default: false })
  cancelAtPeriodEnd: Opt<boolean> = false;

  /** When the cancellation was asked for (now or scheduled). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  cancelledAt: Date | null = null;

  @Property({ type: 'string', length: 500, nullable: true })
  cancellationReason: string | null = null;

  /** When it actually ended. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  endedAt: Date | null = null;

  /** Kept while a confirmed dispute holds billing, restored on reversal. */
  @Enum({ items: [...SUBSCRIPTION_STATUSES], type: 'string', nullable: true })
  priorStatus: SubscriptionStatus | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  priorNextChargeAt: Date | null = null;

  /** Where it came from: the API, a subscription checkout or a payment link. */
  @Property({ type: 'string', nullable: true })
  checkoutId: string | null = null;

  @Property({ type: 'json' })
  metadata: Opt<Record<string, unknown>> = {};
}

/** One billing cycle. Unique per (subscription, period start): a period is charged at most once. */
@Entity({ tableName: 'subscription_invoices' })
@Unique({ name: 'subscription_invoices_period_uq', properties: ['subscriptionId', 'periodStart'] })
// A disputed order finds its cycle by the order id.
@Index({
  name: 'subscription_invoices_order_idx',
  expression: `create index "subscription_invoices_order_idx" on "subscription_invoices" ("order_id") where "order_id" is not null`,
})
export class SubscriptionInvoice extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('in');

  @Property({ type: 'string' })
  subscriptionId!: string;

  @Property({ type: 'integer' })
  periodIndex!: number;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  periodStart!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  periodEnd!: Date;

  @Property({ type: 'integer' })
  amount!: number;

  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Enum({ items: [...INVOICE_STATUSES], type: 'string', default: 'open' })
  status: Opt<InvoiceStatus> = 'open';

  @Property({ type: 'integer', default: 0 })
  attemptCount: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  nextRetryAt: Date | null = null;

  @Property({ type: 'string', nullable: true })
  orderId: string | null = null;

  @Property({ type: 'string', nullable: true })
  pspReference: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  paidAt: Date | null = null;

  @Enum({ items: [...DISPOSITIONS], type: 'string', nullable: true })
  lastDisposition: Disposition | null = null;

  @Property({ type: 'string', nullable: true })
  lastRefusalCode: string | null = null;

  /** Latest dispute stage reported on this cycle. */
  @Property({ type: 'string', nullable: true })
  disputeStage: string | null = null;
}

/**
 * One processor call of a cycle: the journal row committed before the call (`calling`), its
 * outcome after. Its id is the processor idempotency key, so a call re-driven after a crash
 * can never charge twice.
 */
@Entity({ tableName: 'subscription_invoice_attempts' })
@Unique({ name: 'subscription_invoice_attempts_uq', properties: ['invoiceId', 'attempt'] })
export class SubscriptionInvoiceAttempt extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('ia');

  @Property({ type: 'string' })
  invoiceId!: string;

  @Property({ type: 'integer' })
  attempt!: number;

  @Property({ type: 'integer' })
  amount!: number;

  @Property({ type: 'string' })
  paymentMethodId!: string;

  @Enum({ items: [...ATTEMPT_STATUSES], type: 'string', default: 'calling' })
  status: Opt<InvoiceAttemptStatus> = 'calling';

  @Property({ type: 'string', nullable: true })
  pspReference: string | null = null;

  @Enum({ items: [...DISPOSITIONS], type: 'string', nullable: true })
  disposition: Disposition | null = null;

  @Property({ type: 'string', nullable: true })
  refusalCode: string | null = null;
}
