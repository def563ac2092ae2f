import { Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';
import { DISPUTE_STAGES, type DisputeStage } from '../payments/payment-processor.js';

/**
 * A cardholder's dispute (chargeback) of one captured payment, as the processor's notifications
 * describe it: one per disputed payment, its stage and figures those of the latest notification
 * (see dispute-stage.ts), and what the merchant did about it (accepted or defended).
 */
@Entity({ tableName: 'disputes' })
@Unique({ name: 'disputes_payment_uq', properties: ['paymentId'] })
@Index({ name: 'disputes_order_idx', properties: ['orderId', 'createdAt'] })
export class Dispute extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('dp');

  @Property({ type: 'string' })
  orderId!: string;

  @Property({ type: 'string' })
  paymentId!: string;

  /** The disputed payment's processor reference (our `payments.capture_id`; Adyen's `originalReference`). */
  @Property({ type: 'string' })
  paymentPspReference!: string;

  /** The dispute's own processor reference (every notification of one Adyen dispute carries it). */
  @Property({ type: 'string' })
  pspReference!: string;

  @Enum({ items: [...DISPUTE_STAGES], type: 'string' })
  stage!: DisputeStage;

  /** Cents disputed. */
  @Property({ type: 'integer' })
  amount!: number;

  /** Lowercase ISO code. */
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  /** The processor's event code of the latest notification (e.g. `CHARGEBACK`). */
  @Property({ type: 'string' })
  eventCode!: string;

  /** When the defence period ends (Adyen's `additionalData.defensePeriodEndsAt`), when sent. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  defenseDueAt: Date | null = null;

  /** Whether the processor lets the merchant defend it (Adyen's `additionalData.defendable`), when sent. */
  @Property({ type: 'boolean', nullable: true })
  defendable: boolean | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  acceptedAt: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  defendedAt: Date | null = null;

  @Property({ type: 'string', nullable: true })
  defenseReasonCode: string | null = null;
}
