import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * The last order number handed out to one merchant in one mode. Taken (`UPDATE … RETURNING`, a row
 * lock) in the transaction that creates the order, so numbers are gap-free and never shared:
 * a rolled-back order gives its number back with its transaction.
 */
@Entity({ tableName: 'order_number_counters' })
export class OrderNumberCounter {
  @PrimaryKey({ type: 'string' })
  merchantId!: string;

  @PrimaryKey({ type: 'boolean' })
  livemode!: boolean;

  @Property({ type: 'bigint' })
  lastNumber!: string;
}
