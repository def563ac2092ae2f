import { Migration } from '@mikro-orm/migrations';

/**
 * Processor notifications (Adyen's standard notifications), stored raw once per (pspReference,
 * eventCode, success) and applied by a job; refunds a processor settles later by notification
 * (`submitted_at`: sent, waiting for REFUND / REFUND_FAILED).
 */
export class Migration20261124003100_processor_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "processor_notifications" (
      "id" text not null primary key, "merchant_id" text not null references "merchants" ("id") on delete cascade, "provider" text not null,
      "psp_reference" text not null, "event_code" text not null, "success" boolean not null,
      "original_reference" text null, "merchant_reference" text null, "event_date" timestamptz not null, "item" jsonb not null,
      "received_at" timestamptz not null default now(), "applied_at" timestamptz null, "claimed_until" timestamptz null,
      "attempts" integer not null default 0, "last_error" text null,
      constraint "processor_notifications_once" unique ("provider", "psp_reference", "event_code", "success"));`);
    this.addSql(`create index "processor_notifications_pending_idx" on "processor_notifications" ("event_date", "received_at") where "applied_at" is null;`);
    this.addSql(`create index "processor_notifications_original_idx" on "processor_notifications" ("original_reference");`);
    this.addSql(`alter table "refunds" add column "submitted_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "refunds" drop column if exists "submitted_at";`);
    this.addSql(`drop table if exists "processor_notifications";`);
  }
}
