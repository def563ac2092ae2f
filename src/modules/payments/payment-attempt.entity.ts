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

/**
 * `calling`: processor calls may be outstanding (written before the first call); `succeeded` and
 * `failed`: settled with their order; `reversing`/`reversed`: reconciliation undoes what the
 * processor did for an attempt whose order never committed.
 */
export const ATTEMPT_STATUSES = ['calling', 'succeeded', 'failed', 'reversing', 'reversed'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/**
 * The journal of one payment attempt, committed before the first processor call and updated
 * after the calls, apart from the transaction that creates the order. Every processor call of
 * step `i` uses the idempotency key `<attempt id>.<i>.<operation>`, so even a call whose outcome
 * was never written is known: if the order never commits (a crash, a database error), the
 * reconciliation sweep asks the processor what it did under those keys and reverses it.
 */
@Entity({ tableName: 'payment_attempts' })
@Index({
  name: 'payment_attempts_open_idx',
  expression: `create index "payment_attempts_open_idx" on "payment_attempts" ("updated_at") where "status" in ('calling', 'reversing')`,
})
@Index({
  name: 'payment_attempts_one_open_per_subject',
  expression: `create unique index "payment_attempts_one_open_per_subject" on "payment_attempts" ("subject_id") where "status" in ('calling', 'reversing')`,
})
export class PaymentAttempt extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('pa');

  /** What is being paid: a checkout session (`cs_…`), or what is reversed: a subscription cycle's attempt (`ia_…`) whose cycle was cancelled while it was charged. */
  @Property({ type: 'string' })
  subjectId!: string;

  @Enum({ items: [...ATTEMPT_STATUSES], type: 'string' })
  status: Opt<AttemptStatus> = 'calling';

  @Property({ type: 'json' })
  steps!: AttemptStep[];

  @Property({ type: 'string', nullable: true })
  orderId: string | null = null;

  /** The `Idempotency-Key` claim (idempotency_keys.id) of the request that opened it, if any: its retry answers the order this attempt committed. */
  @Property({ type: 'bigint', nullable: true })
  idempotencyKeyId: string | null = null;

  /** Parked for the shopper (3-D Secure) until then: what is left to do is in `state`. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  awaitingUntil: Date | null = null;

  /** A parked attempt's remaining work (see checkout-payment.service's ParkedRun). */
  @Property({ type: 'json', nullable: true })
  state: unknown = null;
}
