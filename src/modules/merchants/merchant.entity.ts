import { Entity, Enum, ManyToOne, PrimaryKey, Property, type Opt, type Ref } from '@mikro-orm/core';
import { prefixedId, randomBase62 } from '../../platform/db/ids.js';

@Entity({ tableName: 'merchants' })
export class Merchant {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('mer');

  @Property({ type: 'string', length: 255 })
  name!: string;

  /** Signs checkout `metadata.webhook_url` deliveries; the whole string is the HMAC key. */
  @Property({ type: 'string' })
  webhookSecret!: string;

  /** Signs this merchant's temporary links (receipts); never leaves the service. */
  @Property({ type: 'string' })
  signingKey: Opt<string> = randomBase62(32);

  /** Offset of this merchant's test-mode clock from real time (test helpers advance it). */
  @Property({ type: 'bigint', default: 0 })
  testClockOffsetMs: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}

export type KeyMode = 'test' | 'live';

/** An API key, stored only as its SHA-256 hash. */
@Entity({ tableName: 'api_keys' })
export class ApiKey {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('key');

  @ManyToOne(() => Merchant, { ref: true, deleteRule: 'cascade' })
  merchant!: Ref<Merchant>;

  @Enum({ items: ['test', 'live'], type: 'string' })
  mode!: KeyMode;

  @Property({ type: 'string', unique: true })
  keyHash!: string;

  /** First characters of the key, for display (`glm_test_AbCd…`). */
  @Property({ type: 'string' })
  keyPrefix!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}
