import { ManyToOne, Property, type Opt, type Ref } from '@mikro-orm/core';
import { Merchant } from '../../modules/merchants/merchant.entity.js';

/** Timestamps shared by every table (`timestamptz`). */
export abstract class TimestampedEntity {
  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();
}

/** Everything a merchant owns lives in one mode: test objects never see live ones. */
export abstract class MerchantScopedEntity extends TimestampedEntity {
  @ManyToOne(() => Merchant, { ref: true, deleteRule: 'cascade' })
  merchant!: Ref<Merchant>;

  @Property({ type: 'boolean' })
  livemode!: boolean;
}
