import { Migration } from '@mikro-orm/migrations';

/** Webhook endpoints, deliveries and their attempts; events remember when they were fanned out. */
export class Migration20261123044000_webhooks extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "webhook_endpoints" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "url" text not null, "events" jsonb not null, "description" varchar(255) null, "metadata" jsonb not null default '{}', "status" text check ("status" in ('enabled', 'disabled')) not null default 'enabled', "secret" varchar(255) not null, "previous_secret" varchar(255) null, "previous_secret_expires_at" timestamptz null, "disabled_at" timestamptz null, constraint "webhook_endpoints_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_scope_created_idx" on "webhook_endpoints" ("merchant_id", "livemode", "created_at", "id");`);
    this.addSql(`create table "webhook_deliveries" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "event_id" varchar(255) not null, "event_type" varchar(255) not null, "endpoint_id" varchar(255) null, "url" text not null, "status" text check ("status" in ('pending', 'succeeded', 'failed', 'dead_letter')) not null default 'pending', "attempt_count" int not null default 0, "next_attempt_at" timestamptz not null, "locked_until" timestamptz null, "last_attempt_at" timestamptz null, "last_response_status" int null, "last_error" text null, "delivered_at" timestamptz null, constraint "webhook_deliveries_pkey" primary key ("id"));`);
    this.addSql(`create unique index "webhook_deliveries_event_endpoint_uq" on "webhook_deliveries" ("event_id", coalesce("endpoint_id", ''));`);
    this.addSql(`create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at") where "status" = 'pending';`);
    this.addSql(`create index "webhook_deliveries_endpoint_created_idx" on "webhook_deliveries" ("endpoint_id", "created_at", "id");`);
    this.addSql(`create table "webhook_delivery_attempts" ("id" varchar(255) not null, "delivery_id" varchar(255) not null, "attempt" int not null, "status" text check ("status" in ('sending', 'succeeded', 'failed', 'interrupted')) not null, "response_status" int null, "error" text null, "duration_ms" int null, "started_at" timestamptz not null, "finished_at" timestamptz null, constraint "webhook_delivery_attempts_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_delivery_attempts_delivery_idx" on "webhook_delivery_attempts" ("delivery_id");`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_foreign" foreign key ("event_id") references "events" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_delivery_attempts" add constraint "webhook_delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "events" add column "dispatched_at" timestamptz null;`);
    this.addSql(`create index "events_undispatched_idx" on "events" ("created_at", "id") where "dispatched_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "events_undispatched_idx";`);
    this.addSql(`alter table "events" drop column "dispatched_at";`);
    this.addSql(`drop table if exists "webhook_delivery_attempts" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
  }

}
