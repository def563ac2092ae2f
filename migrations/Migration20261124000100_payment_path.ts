import { Migration } from '@mikro-orm/migrations';

/** Payment journal written before processor calls; the simulated processor's own ledger. */
export class Migration20261124000100_payment_path extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payment_attempts" rename column "checkout_id" to "subject_id";`);
    this.addSql(`alter table "payment_attempts" drop constraint if exists "payment_attempts_status_check";`);
    this.addSql(`update "payment_attempts" set "status" = 'calling' where "status" = 'in_progress';`);
    this.addSql(`alter table "payment_attempts" alter column "status" set default 'calling';`);
    this.addSql(`alter table "payment_attempts" add constraint "payment_attempts_status_check" check ("status" in ('calling', 'succeeded', 'failed', 'reversing', 'reversed'));`);
    this.addSql(`drop index if exists "payment_attempts_in_progress_idx";`);
    this.addSql(`create index "payment_attempts_open_idx" on "payment_attempts" ("updated_at") where "status" in ('calling', 'reversing');`);
    this.addSql(`create unique index "payment_attempts_one_open_per_subject" on "payment_attempts" ("subject_id") where "status" in ('calling', 'reversing');`);
    this.addSql(`create index "payment_attempts_subject_idx" on "payment_attempts" ("subject_id");`);
    this.addSql(`create table "processor_ledger" ("key" text not null primary key, "operation" text not null, "target" text null, "amount" bigint not null default 0, "ok" boolean not null, "reference" text null, "result" jsonb not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "processor_ledger_target_idx" on "processor_ledger" ("target");`);
    this.addSql(`alter table "refunds" add column "claimed_until" timestamptz null;`);
    this.addSql(`alter table "idempotency_keys" alter column "response_body" drop not null, alter column "response_body" type text using "response_body"::text;`);
    this.addSql(`alter table "idempotency_keys" add column "locked_at" timestamptz not null default now();`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "refunds" drop column if exists "claimed_until";`);
    this.addSql(`drop table if exists "processor_ledger";`);
    this.addSql(`drop index if exists "payment_attempts_subject_idx";`);
    this.addSql(`drop index if exists "payment_attempts_one_open_per_subject";`);
    this.addSql(`drop index if exists "payment_attempts_open_idx";`);
    this.addSql(`alter table "payment_attempts" drop constraint if exists "payment_attempts_status_check";`);
    this.addSql(`alter table "payment_attempts" rename column "subject_id" to "checkout_id";`);
  }
}
