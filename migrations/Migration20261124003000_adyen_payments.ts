import { Migration } from '@mikro-orm/migrations';

/**
 * Live payments through Adyen: what Adyen answered per idempotency key (`processor_calls`, read by
 * reconciliation and by captures and refunds), and payment attempts parked for the shopper's
 * 3-D Secure (`awaiting_until`, with what is left to do in `state`).
 */
export class Migration20261124003000_adyen_payments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "processor_calls" (
      "key" text not null primary key, "merchant_id" text not null, "operation" text not null, "ok" boolean not null,
      "psp_reference" text null, "target" text null, "amount" bigint not null default 0, "currency" text not null default '',
      "result" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "processor_calls_psp_reference_idx" on "processor_calls" ("psp_reference");`);
    this.addSql(`alter table "payment_attempts" add column "awaiting_until" timestamptz null, add column "state" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payment_attempts" drop column if exists "awaiting_until", drop column if exists "state";`);
    this.addSql(`drop table if exists "processor_calls";`);
  }
}
