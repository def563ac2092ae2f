import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../db/base.entity.js';
import { prefixedId } from '../db/ids.js';

/**
 * The outbox: one row per event, written in the same transaction as the state change that
 * causes it. Delivery and live streams read from here after commit.
 */
@Entity({ tableName: 'events' })
@Index({ name: 'events_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({
  name: 'events_undispatched_idx',
  expression: `create index "events_undispatched_idx" on "events" ("created_at", "id") where "dispatched_at" is null`,
})
export class Event extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('evt');

  @Property({ type: 'string' })
  type!: string;

  @Property({ type: 'json' })
  data!: Record<string, unknown>;

  /** An extra destination for this one event (a checkout's `metadata.webhook_url`), signed with the merchant's webhook secret. */
  @Property({ type: 'text', nullable: true })
  webhookUrl: string | null = null;

  /** When the webhook fan-out turned this event into deliveries (null: not yet; see webhook-dispatch.ts). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  dispatchedAt: Opt<Date> | null = null;
}
