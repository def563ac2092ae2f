import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { prefixedId } from '../../platform/db/ids.js';

/** One change that matters (a sign-in, a key, an endpoint, a refund, a cancellation): who, when, from where. */
@Entity({ tableName: 'audit_log_entries' })
@Index({ name: 'audit_log_entries_page_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
export class AuditLogEntry {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('aud');

  /** The merchant's id (a foreign key in the migration; no relation, so every module can record without importing merchants). */
  @Property({ type: 'string', fieldName: 'merchant_id' })
  merchant!: string;

  @Property({ type: 'boolean' })
  livemode!: boolean;

  /** `api_key.created`, `refund.created`, `console.signed_in`, … (see AUDIT_ACTIONS). */
  @Property({ type: 'string', length: 100 })
  action!: string;

  /** `user` (a console member), `key` (an API key) or `system` (the CLI, a sweep). */
  @Property({ type: 'string', length: 20 })
  actorKind!: 'user' | 'key' | 'system';

  @Property({ type: 'string', nullable: true })
  actorId?: string | null;

  /** The member's email or the key's name and prefix, as they were then. */
  @Property({ type: 'string', nullable: true })
  actorLabel?: string | null;

  @Property({ type: 'string', length: 64, nullable: true })
  ipAddress?: string | null;

  /** The object changed (`re_…`, `we_…`, `key_…`). */
  @Property({ type: 'string', nullable: true })
  objectId?: string | null;

  @Property({ type: 'json', nullable: true })
  details?: Record<string, unknown> | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}
