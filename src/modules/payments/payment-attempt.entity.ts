import { Entity, Enum, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';
import type { PaymentMethodType } from './payment-processor.js';

/** One card of an attempt, with what the processor has done so far. */
export interface AttemptStep {
  slot: 'hsa_fsa_card' | 'card';
  payment_method: PaymentMethodType;
  amount: number;
  authorization_id: string | null;
  capture_id: string | null;
}

export type AttemptStatus = 'in_progress' | 'succeeded' | 'failed' | 'reversed';

/**
 * The journal of one payment attempt, written (and committed) before and after each processor
 * call, apart from the transaction that creates the order. If that transaction never commits (a
 * crash, a database error), the attempt stays `in_progress` and the reconciliation sweep
 * reverses what the processor did: nothing is ever charged without an order.
 */
@Entity({ tableName: 'payment_attempts' })
@Index({ name: 'payment_attempts_in_progress_idx', expression: `create index "payment_attempts_in_progress_idx" on "payment_attempts" ("updated_at") where "status" = 'in_progress'` })
export class PaymentAttempt extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('pa');

  @Property({ type: 'string' })
  checkoutId!: string;

  @Enum({ items: ['in_progress', 'succeeded', 'failed', 'reversed'], type: 'string' })
  status: Opt<AttemptStatus> = 'in_progress';

  @Property({ type: 'json' })
  steps!: AttemptStep[];

  @Property({ type: 'string', nullable: true })
  orderId: string | null = null;
}
