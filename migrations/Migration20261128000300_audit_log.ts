import { Migration } from '@mikro-orm/migrations';

/** The audit log: who (member or key, and its name then), what, to which object, when, from which address. */
export class Migration20261128000300_audit_log extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "audit_log_entries" (
      "id" varchar(255) not null primary key,
      "merchant_id" varchar(255) not null references "merchants" ("id") on update cascade on delete cascade,
      "livemode" boolean not null,
      "action" varchar(100) not null,
      "actor_kind" varchar(20) not null,
      "actor_id" varchar(255) null,
      "actor_label" varchar(255) null,
      "ip_address" varchar(64) null,
      "object_id" varchar(255) null,
      "details" jsonb null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "audit_log_entries_page_idx" on "audit_log_entries" ("merchant_id", "livemode", "created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "audit_log_entries";`);
  }
}
