import { Entity, Enum, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';
import type { PaymentMethodType } from '../payments/payment-processor.js';

export const REFUND_REASONS = [
  'customer_request',
  'duplicate',
  'fraudulent',
  'product_unavailable',
  'damaged_product',
  'wrong_product',
  'other',
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The part of a refund that goes back to one payment. */
export interface RefundPart {
  payment_id: string;
  payment_method: PaymentMethodType;
  amount: number;
  /** This part's own refund id (`rp_…`), set when the refund is created. */
  refund_id: string;
  /** The processor's refund reference, once processed. */
  processor_refund_id?: string | null;
  success: boolean | null;
  failure_reason: string | null;
}

/** One order line a v1 line refund covers. */
export interface RefundLine {
  line_item_id: string;
  quantity: number;
  /** Cents. */
  amount: number;
}

@Entity({ tableName: 'refunds' })
@Index({ name: 'refunds_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({ name: 'refunds_order_idx', properties: ['orderId', 'createdAt'] })
@Index({
  name: 'refunds_pending_idx',
  expression: `create index "refunds_pending_idx" on "refunds" ("created_at") where "status" = 'pending'`,
})
export class Refund extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('re');

  @Property({ type: 'string' })
  orderId!: string;

  /** Cents. */
  @Property({ type: 'integer' })
  amount!: number;

  @Property({ type: 'integer' })
  hsaAmount!: number;

  @Property({ type: 'integer' })
  regularAmount!: number;

  /** Lowercase ISO code. */
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Enum({ items: [...REFUND_REASONS], type: 'string' })
  reason!: RefundReason;

  @Property({ type: 'string', length: 500, nullable: true })
  notes: string | null = null;

  @Enum({ items: [...REFUND_STATUSES], type: 'string' })
  status: Opt<RefundStatus> = 'pending';

  @Property({ type: 'json' })
  parts!: RefundPart[];

  /** The order lines this refund covers (v1 line refunds); empty for an amount refund. */
  @Property({ type: 'json' })
  lines: Opt<RefundLine[]> = [];

  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  @Property({ type: 'json' })
  metadata: Opt<Record<string, unknown>> = {};

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  processedAt: Date | null = null;

  /** Sent to a processor that settles refunds later (Adyen): waiting for its REFUND / REFUND_FAILED notification. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  submittedAt: Date | null = null;

  /** While a worker sends this refund to the processor (a lease: a crashed worker's claim lapses). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  claimedUntil: Date | null = null;
}
