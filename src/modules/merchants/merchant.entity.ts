import { ArrayType, Entity, Enum, ManyToOne, PrimaryKey, Property, type Opt, type Ref } from '@mikro-orm/core';
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

/**
 * An API key, stored only as its SHA-256 hash. A secret key may do everything the API offers; a
 * restricted key only what its `permissions` list (`orders:read`, `refunds:write`, …).
 */
@Entity({ tableName: 'api_keys' })
export class ApiKey {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('key');

  @ManyToOne(() => Merchant, { ref: true, deleteRule: 'cascade' })
  merchant!: Ref<Merchant>;

  @Enum({ items: ['test', 'live'], type: 'string' })
  mode!: KeyMode;

  /** The merchant's name for it (Settings → API keys). */
  @Property({ type: 'string', length: 100, default: 'Secret key' })
  name: Opt<string> = 'Secret key';

  /** A restricted key's permissions; null for a secret key. */
  @Property({ type: ArrayType, nullable: true })
  permissions?: string[] | null;

  /** When a rolled key stops working (the overlap its successor was given); null: until revoked. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  expiresAt?: Date | null;

  /** Last request made with it, to the minute (recorded in batches, not per request). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lastUsedAt?: Date | null;

  /** Who created it (a console user id; null for the keys a merchant starts with). */
  @Property({ type: 'string', nullable: true })
  createdBy?: string | null;

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
