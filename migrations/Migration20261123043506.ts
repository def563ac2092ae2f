import { Migration } from '@mikro-orm/migrations';

export class Migration20261123043506 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "checkout_sessions" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "access_token" varchar(255) not null, "reference_id" varchar(255) not null, "status" text check ("status" in ('open', 'paid', 'expired')) not null default 'open', "type" text check ("type" in ('eligible', 'split', 'regular')) not null, "customer" jsonb not null, "shipping_info" jsonb not null, "billing_info" jsonb not null, "line_items" jsonb not null, "amounts" jsonb not null, "currency" varchar(3) not null, "success_url" text not null, "failure_url" text not null, "metadata" jsonb not null, "payment_type" text check ("payment_type" in ('one_time', 'subscription')) not null default 'one_time', "subscription" jsonb null, "expires_at" timestamptz not null, "paid_at" timestamptz null, "order_id" varchar(255) null, constraint "checkout_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "checkout_sessions_open_expiry_idx" on "checkout_sessions" ("expires_at") where "status" = 'open';`);
    this.addSql(`create index "checkout_sessions_scope_created_idx" on "checkout_sessions" ("merchant_id", "livemode", "created_at", "id");`);

    this.addSql(`create table "orders" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "order_number" varchar(255) not null, "checkout_id" varchar(255) null, "reference_id" varchar(255) null, "payment_link_id" varchar(255) null, "client_reference_id" varchar(255) null, "status" text check ("status" in ('pending', 'processing', 'completed', 'failed', 'cancelled', 'refunded', 'disputed')) not null, "payment_status" text check ("payment_status" in ('pending', 'authorized', 'captured', 'failed', 'partially_refunded', 'refunded', 'disputed')) not null, "is_recurring" boolean not null default false, "amount" int not null, "currency" varchar(3) not null, "customer" jsonb not null, "customer_email" varchar(255) not null, "line_items" jsonb not null, "amounts" jsonb not null, "status_history" jsonb not null, "lmn" jsonb null, "failure_reason" text null, "metadata" jsonb not null, "completed_at" timestamptz null, constraint "orders_pkey" primary key ("id"));`);
    this.addSql(`alter table "orders" add constraint "orders_order_number_unique" unique ("order_number");`);
    this.addSql(`create index "orders_customer_email_idx" on "orders" ("customer_email");`);
    this.addSql(`create unique index "orders_one_paid_per_checkout_uq" on "orders" ("checkout_id") where "payment_status" <> 'failed';`);
    this.addSql(`create index "orders_checkout_idx" on "orders" ("checkout_id");`);
    this.addSql(`create index "orders_scope_created_idx" on "orders" ("merchant_id", "livemode", "created_at", "id");`);

    this.addSql(`create table "payments" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "order_id" varchar(255) not null, "payment_method" text check ("payment_method" in ('hsa_fsa_card', 'card')) not null, "brand" varchar(255) not null, "last4" varchar(4) not null, "amount" int not null, "currency" varchar(3) not null, "processor_token" varchar(255) not null, "capture_id" varchar(255) not null, "refunded_amount" int not null default 0, "captured_at" timestamptz not null, constraint "payments_pkey" primary key ("id"));`);
    this.addSql(`create index "payments_order_idx" on "payments" ("order_id");`);

    this.addSql(`alter table "checkout_sessions" add constraint "checkout_sessions_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "orders" add constraint "orders_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "payments" add constraint "payments_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "merchants" add column "signing_key" varchar(255) not null default md5(random()::text || clock_timestamp()::text);`);
    this.addSql(`alter table "merchants" alter column "signing_key" drop default;`);
    this.addSql(`create sequence if not exists "order_number_seq" start 1001;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "checkout_sessions" cascade;`);

    this.addSql(`drop table if exists "orders" cascade;`);

    this.addSql(`drop table if exists "payments" cascade;`);

    this.addSql(`alter table "merchants" drop column "signing_key";`);
    this.addSql(`drop sequence if exists "order_number_seq";`);
  }

}
