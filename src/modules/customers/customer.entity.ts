import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, type Opt, type Ref } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';
import { PAYMENT_METHOD_TYPES, type PaymentMethodType } from '../payments/payment-processor.js';

/** A merchant's customer (in one mode): who stored cards and subscriptions belong to. */
@Entity({ tableName: 'customers' })
@Index({ name: 'customers_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({
  name: 'customers_scope_email_idx',
  expression: `create index "customers_scope_email_idx" on "customers" ("merchant_id", "livemode", lower("email"))`,
})
export class Customer extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('cus');

  @Property({ type: 'string', length: 255 })
  email!: string;

  @Property({ type: 'string', length: 255 })
  firstName!: string;

  @Property({ type: 'string', length: 255 })
  lastName!: string;

  @Property({ type: 'string', length: 32, nullable: true })
  phone: string | null = null;

  @Property({ type: 'json', default: '{}' })
  metadata: Opt<Record<string, unknown>> = {};
}

/**
 * A verified card stored for a customer. Only what the processor hands back is kept (a reusable
 * token, brand, last 4, expiry and type): never the number or the cvc.
 */
@Entity({ tableName: 'payment_methods' })
@Index({ name: 'payment_methods_customer_created_idx', properties: ['customer', 'createdAt', 'id'] })
export class PaymentMethod extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('pm');

  @ManyToOne(() => Customer, { ref: true, deleteRule: 'cascade' })
  customer!: Ref<Customer>;

  @Enum({ items: [...PAYMENT_METHOD_TYPES], type: 'string' })
  type!: PaymentMethodType;

  @Property({ type: 'string' })
  brand!: string;

  @Property({ type: 'string', length: 4 })
  last4!: string;

  @Property({ type: 'smallint' })
  expMonth!: number;

  @Property({ type: 'smallint' })
  expYear!: number;

  /** The processor's reusable token for later charges (never the card number). */
  @Property({ type: 'string' })
  processorToken!: string;

  /** Set when detached: the method is kept for the records but can no longer be charged. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  detachedAt: Date | null = null;
}
