import { ManyToOne, Property, type Opt, type Ref } from '@mikro-orm/core';

/** Timestamps shared by every table (`timestamptz`). */
export abstract class TimestampedEntity {
  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();
}

/**
 * The row a merchant-scoped entity points at. The merchants module maps it (entity `Merchant`);
 * the platform names it only by entity name, so it never imports a domain module.
 */
export interface MerchantOwner {
  id: string;
}

/** Everything a merchant owns lives in one mode: test objects never see live ones. */
export abstract class MerchantScopedEntity extends TimestampedEntity {
  @ManyToOne({ entity: 'Merchant', ref: true, deleteRule: 'cascade' })
  merchant!: Ref<MerchantOwner>;

  @Property({ type: 'boolean' })
  livemode!: boolean;
}
