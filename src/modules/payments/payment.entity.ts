import { Entity, Enum, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';
import { PAYMENT_METHOD_TYPES, type PaymentMethodType } from './payment-processor.js';

/** One captured card payment of an order (a split order has two). */
@Entity({ tableName: 'payments' })
// Chargeback notifications name the disputed payment by its capture reference.
@Index({ name: 'payments_capture_id_idx', properties: ['captureId'] })
export class Payment extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('pay');

  @Index({ name: 'payments_order_idx' })
  @Property({ type: 'string' })
  orderId!: string;

  @Enum({ items: [...PAYMENT_METHOD_TYPES], type: 'string' })
  paymentMethod!: PaymentMethodType;

  @Property({ type: 'string' })
  brand!: string;

  @Property({ type: 'string', length: 4 })
  last4!: string;

  /** Cents captured. */
  @Property({ type: 'integer' })
  amount!: number;

  /** Lowercase ISO code. */
  @Property({ type: 'string', length: 3 })
  currency!: string;

  /** Processor's reusable card token (never the card number). */
  @Property({ type: 'string' })
  processorToken!: string;

  @Property({ type: 'string' })
  captureId!: string;

  /** Cents refunded or being refunded (pending refunds included), never above `amount`. */
  @Property({ type: 'integer', default: 0 })
  refundedAmount: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  capturedAt!: Date;
}
