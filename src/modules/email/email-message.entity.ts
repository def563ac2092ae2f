import { Entity, Index, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';

/** Shopper messages (each can be turned off in Settings → Emails), then team messages. */
export const SHOPPER_EMAIL_KINDS = [
  'order_receipt',
  'refund',
  'renewal_receipt',
  'payment_failed',
  'lmn_approved',
  'lmn_declined',
] as const;
export const TEAM_EMAIL_KINDS = ['team_invitation', 'dispute_opened', 'webhook_endpoint_failing'] as const;
export const EMAIL_KINDS = [...SHOPPER_EMAIL_KINDS, ...TEAM_EMAIL_KINDS] as const;
export type ShopperEmailKind = (typeof SHOPPER_EMAIL_KINDS)[number];
export type EmailKind = (typeof EMAIL_KINDS)[number];

/**
 * `queued`: written, not yet sent (or waiting for a retry); `sending`: a worker holds it (lease
 * until `locked_until`); `sent`: the SMTP server accepted it; `failed`: every retry refused (dead
 * letter); `stored`: no SMTP_URL, kept here only; `skipped`: the merchant turned this message off.
 */
export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'failed', 'stored', 'skipped'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** What a message attaches, rendered when it is sent (never stored as bytes): `{kind: 'receipt', id: 'ord_…'}`. */
export interface AttachmentRef {
  kind: string;
  id: string;
}

/**
 * The email outbox: one row per message, written in the same transaction as the change that causes
 * it. `data` holds what the message says (ids and figures the change knew); subject and parts are
 * rendered from it, with the merchant's branding, when the sweep first takes the row and kept.
 */
@Entity({ tableName: 'email_messages' })
@Index({ name: 'email_messages_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({
  name: 'email_messages_due_idx',
  expression: `create index "email_messages_due_idx" on "email_messages" ("next_attempt_at") where "status" in ('queued', 'sending')`,
})
@Unique({ name: 'email_messages_dedupe_key_unique', properties: ['merchant', 'dedupeKey'] })
export class EmailMessage extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('msg');

  @Property({ type: 'string' })
  kind!: EmailKind;

  /** Recipients, comma-separated: the shopper's address, or the team's owners and admins (filled when rendered). */
  @Property({ type: 'text', nullable: true })
  to: string | null = null;

  @Property({ type: 'text', nullable: true })
  subject: Opt<string> | null = null;

  @Property({ type: 'text', nullable: true })
  html: Opt<string> | null = null;

  @Property({ type: 'text', nullable: true })
  text: Opt<string> | null = null;

  @Property({ type: 'json' })
  data!: Record<string, unknown>;

  @Property({ type: 'json' })
  attachments: Opt<AttachmentRef[]> = [];

  @Property({ type: 'string' })
  status: Opt<EmailStatus> = 'queued';

  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  /** When the sweep may take it (its mode's clock). */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  nextAttemptAt!: Date;

  /** A sending worker's lease (real time); a worker that died mid-send loses it and another takes over. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lockedUntil: Opt<Date> | null = null;

  @Property({ type: 'text', nullable: true })
  lastError: Opt<string> | null = null;

  /** `<msg_…@domain of MAIL_FROM>`, fixed when first rendered: every try of this message carries it. */
  @Property({ type: 'text', nullable: true })
  messageId: Opt<string> | null = null;

  /** One message per key and merchant (e.g. one "endpoint failing" per failing streak). */
  @Property({ type: 'text', nullable: true })
  dedupeKey: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  sentAt: Opt<Date> | null = null;
}

/** A merchant's branding and which shopper messages are turned off (one row per merchant; none: the defaults). */
@Entity({ tableName: 'email_settings' })
export class EmailSettings {
  @PrimaryKey({ type: 'string' })
  merchantId!: string;

  /** The name messages carry (default: the merchant's name). */
  @Property({ type: 'text', nullable: true })
  brandName: string | null = null;

  @Property({ type: 'text', nullable: true })
  supportEmail: string | null = null;

  @Property({ type: 'text', nullable: true })
  logoUrl: string | null = null;

  /** Where the business is (receipts and every message's footer). */
  @Property({ type: 'text', nullable: true })
  businessAddress: string | null = null;

  @Property({ type: 'text', nullable: true })
  phone: string | null = null;

  @Property({ type: 'json' })
  disabledKinds: Opt<ShopperEmailKind[]> = [];

  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();
}
