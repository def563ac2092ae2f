import { Migration } from '@mikro-orm/migrations';

/** The email outbox (written with the change that causes each message, sent by a sweep) and each merchant's branding and opt-outs. */
export class Migration20261130100100_email_outbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "email_messages" (
      "id" varchar(255) not null primary key,
      "merchant_id" varchar(255) not null references "merchants" ("id") on update cascade on delete cascade,
      "livemode" boolean not null,
      "kind" varchar(255) not null,
      "to" text null,
      "subject" text null,
      "html" text null,
      "text" text null,
      "data" jsonb not null,
      "attachments" jsonb not null default '[]',
      "status" varchar(255) not null default 'queued' check ("status" in ('queued', 'sending', 'sent', 'failed', 'stored', 'skipped')),
      "attempts" int not null default 0,
      "next_attempt_at" timestamptz not null,
      "locked_until" timestamptz null,
      "last_error" text null,
      "message_id" text null,
      "dedupe_key" text null,
      "sent_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "email_messages_scope_created_idx" on "email_messages" ("merchant_id", "livemode", "created_at", "id");`);
    this.addSql(`create index "email_messages_due_idx" on "email_messages" ("next_attempt_at") where "status" in ('queued', 'sending');`);
    this.addSql(`alter table "email_messages" add constraint "email_messages_dedupe_key_unique" unique ("merchant_id", "dedupe_key");`);
    this.addSql(`create table "email_settings" (
      "merchant_id" varchar(255) not null primary key references "merchants" ("id") on update cascade on delete cascade,
      "brand_name" text null,
      "support_email" text null,
      "logo_url" text null,
      "disabled_kinds" jsonb not null default '[]',
      "updated_at" timestamptz not null default now());`);
    // A new message wakes the email sweep (once per inserting statement), as new events wake webhook delivery.
    this.addSql(`create or replace function "email_messages_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('emails', '');
        return null;
      end $$;`);
    this.addSql(`create trigger "email_messages_notify" after insert on "email_messages" for each statement execute function "email_messages_notify"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "email_settings";`);
    this.addSql(`drop table "email_messages";`);
    this.addSql(`drop function if exists "email_messages_notify"();`);
  }
}
