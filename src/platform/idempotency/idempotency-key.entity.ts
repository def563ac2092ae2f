import { Entity, Index, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';

/** A stored first response for an `Idempotency-Key`, replayed for 24 hours. */
@Entity({ tableName: 'idempotency_keys' })
@Unique({ name: 'idempotency_keys_scope_key_uq', properties: ['merchantId', 'livemode', 'key'] })
@Index({ name: 'idempotency_keys_expires_idx', properties: ['expiresAt'] })
export class IdempotencyKey {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'string' })
  merchantId!: string;

  @Property({ type: 'boolean' })
  livemode!: boolean;

  @Property({ type: 'string', length: 255 })
  key!: string;

  /** SHA-256 of method, path and body: the same key with another request is refused. */
  @Property({ type: 'string' })
  requestHash!: string;

  @Property({ type: 'integer' })
  responseStatus!: number;

  /** The first response's bytes, replayed as they were (null while the first request runs). */
  @Property({ type: 'text', nullable: true })
  responseBody!: string | null;

  /** When the running first request last renewed its claim (every second while it runs); a claim not renewed for 5 s with no response is taken over. */
  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()' })
  lockedAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;
}
