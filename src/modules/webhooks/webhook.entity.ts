import {
  Collection,
  Entity,
  Enum,
  Index,
  ManyToOne,
  OneToMany,
  PrimaryKey,
  Property,
  type Opt,
  type Ref,
} from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';
import { Event } from '../../platform/events/event.entity.js';

export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/**
 * `pending`: waiting for its next attempt (`next_attempt_at`); `succeeded`: a 2xx was received;
 * `failed`: every retry failed (dead letter, replayable); `dead_letter`: its endpoint was disabled
 * while it was queued.
 */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'dead_letter'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** `sending` until the result is known; `interrupted` when the worker stopped mid-send. */
export const WEBHOOK_ATTEMPT_STATUSES = ['sending', 'succeeded', 'failed', 'interrupted'] as const;
export type WebhookAttemptStatus = (typeof WEBHOOK_ATTEMPT_STATUSES)[number];

/** A merchant's registered receiver of events (in one mode). */
@Entity({ tableName: 'webhook_endpoints' })
@Index({ name: 'webhook_endpoints_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({
  name: 'webhook_endpoints_failing_idx',
  expression: `create index "webhook_endpoints_failing_idx" on "webhook_endpoints" ("failing_since") where "failing_since" is not null and "status" = 'enabled'`,
})
export class WebhookEndpoint extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('we');

  @Property({ type: 'text' })
  url!: string;

  /** Event types this endpoint receives; `*` is every type. */
  @Property({ type: 'json' })
  events!: string[];

  @Property({ type: 'string', length: 255, nullable: true })
  description: string | null = null;

  @Property({ type: 'json', default: '{}' })
  metadata: Opt<Record<string, unknown>> = {};

  @Enum({ items: [...WEBHOOK_ENDPOINT_STATUSES], type: 'string', default: 'enabled' })
  status: Opt<WebhookEndpointStatus> = 'enabled';

  /** The signing key (`whsec_…`): the whole string keys `X-Service-Signature`, its base64-decoded tail the Standard Webhooks signature. */
  @Property({ type: 'string' })
  secret!: string;

  /** The secret replaced by the last rotation: it keeps signing beside the new one until `previousSecretExpiresAt`. */
  @Property({ type: 'string', nullable: true })
  previousSecret: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  disabledAt: Date | null = null;

  /** When its current run of failed attempts began (the mode's clock); null after a success. Three days of it disable the endpoint. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  failingSince: Date | null = null;

  /** Set by a delete: the endpoint is then disabled and answers 404; its deliveries stay as history. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  deletedAt: Date | null = null;
}

/** One event for one destination (an endpoint, or an event's one-off `webhook_url`), retried until it succeeds or gives up. */
@Entity({ tableName: 'webhook_deliveries' })
@Index({ name: 'webhook_deliveries_endpoint_created_idx', properties: ['endpoint', 'createdAt', 'id'] })
@Index({
  name: 'webhook_deliveries_due_idx',
  expression: `create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at") where "status" = 'pending'`,
})
@Index({
  name: 'webhook_deliveries_event_endpoint_uq',
  expression: `create unique index "webhook_deliveries_event_endpoint_uq" on "webhook_deliveries" ("event_id", coalesce("endpoint_id", ''))`,
})
export class WebhookDelivery extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('wd');

  @ManyToOne(() => Event, { ref: true, deleteRule: 'cascade' })
  event!: Ref<Event>;

  /** Copied from the event, so lists need not load event payloads. */
  @Property({ type: 'string' })
  eventType!: string;

  /** Null for an event's one-off `webhook_url` (signed with the merchant's webhook secret). */
  @ManyToOne(() => WebhookEndpoint, { ref: true, nullable: true, deleteRule: 'cascade' })
  endpoint: Ref<WebhookEndpoint> | null = null;

  @Property({ type: 'text' })
  url!: string;

  @Enum({ items: [...WEBHOOK_DELIVERY_STATUSES], type: 'string', default: 'pending' })
  status: Opt<WebhookDeliveryStatus> = 'pending';

  @Property({ type: 'integer', default: 0 })
  attemptCount: Opt<number> = 0;

  /** When the next attempt is due, on the merchant's clock of this mode (the test clock in test mode). */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  nextAttemptAt!: Date;

  /** Real time until which a worker holds this delivery (set when claimed); a crashed worker's claim lapses. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lockedUntil: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null = null;

  @Property({ type: 'integer', nullable: true })
  lastResponseStatus: number | null = null;

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  deliveredAt: Date | null = null;

  @OneToMany(() => WebhookDeliveryAttempt, (attempt) => attempt.delivery, {
    orderBy: { attempt: 'asc', startedAt: 'asc' },
  })
  attempts = new Collection<WebhookDeliveryAttempt>(this);
}

/** One HTTP request of a delivery; its id is the `X-Service-Delivery` header the receiver saw. */
@Entity({ tableName: 'webhook_delivery_attempts' })
export class WebhookDeliveryAttempt {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('wd');

  @Index({ name: 'webhook_delivery_attempts_delivery_idx' })
  @ManyToOne(() => WebhookDelivery, { ref: true, deleteRule: 'cascade' })
  delivery!: Ref<WebhookDelivery>;

  /** 1 for the first try; counts every attempt of the delivery, manual retries included. */
  @Property({ type: 'integer' })
  attempt!: number;

  @Enum({ items: [...WEBHOOK_ATTEMPT_STATUSES], type: 'string' })
  status!: WebhookAttemptStatus;

  @Property({ type: 'integer', nullable: true })
  responseStatus: number | null = null;

  /** The first 4 KiB of the receiver's answer, as text (RESPONSE_BODY_LIMIT); null without an answer. */
  @Property({ type: 'text', nullable: true })
  responseBody: string | null = null;

  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @Property({ type: 'integer', nullable: true })
  durationMs: number | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  startedAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  finishedAt: Date | null = null;
}
