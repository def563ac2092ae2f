import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt, type Ref } from '@mikro-orm/core';
import { prefixedId } from '../../platform/db/ids.js';
import { Merchant } from '../merchants/merchant.entity.js';

/** One change that matters (a sign-in, a key, an endpoint, a refund, a cancellation): who, when, from where. */
@Entity({ tableName: 'audit_log_entries' })
@Index({ name: 'audit_log_entries_page_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
export class AuditLogEntry {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('aud');

  @ManyToOne(() => Merchant, { ref: true, deleteRule: 'cascade' })
  merchant!: Ref<Merchant>;

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
