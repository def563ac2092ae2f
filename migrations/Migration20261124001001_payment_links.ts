import { Migration } from '@mikro-orm/migrations';

export class Migration20261124001001_payment_links extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "payment_links" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "status" text check ("status" in ('active', 'paid', 'expired', 'cancelled')) not null default 'active', "payment_type" text check ("payment_type" in ('one_time', 'subscription')) not null, "amount" int not null, "currency" varchar(3) not null, "description" text null, "customer" jsonb null, "customer_email" varchar(255) null, "customer_id" varchar(255) null, "products" jsonb not null, "subscription" jsonb null, "checkout_id" varchar(255) not null, "success_url" text null, "cancel_url" text null, "metadata" jsonb not null, "expires_at" timestamptz not null, "paid_at" timestamptz null, "order_id" varchar(255) null, "cancelled_at" timestamptz null, "cancellation_reason" varchar(500) null, constraint "payment_links_pkey" primary key ("id"));`);
    this.addSql(`create index "payment_links_scope_created_idx" on "payment_links" ("merchant_id", "livemode", "created_at", "id");`);
    this.addSql(`create index "payment_links_active_expiry_idx" on "payment_links" ("expires_at") where "status" = 'active';`);
    this.addSql(`create index "payment_links_customer_email_idx" on "payment_links" ("merchant_id", "livemode", "customer_email");`);
    this.addSql(`alter table "payment_links" add constraint "payment_links_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "checkout_sessions" add column "payment_link_id" varchar(255) null;`);
    this.addSql(`create index "orders_payment_link_idx" on "orders" ("payment_link_id") where "payment_link_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "orders_payment_link_idx";`);
    this.addSql(`alter table "checkout_sessions" drop column "payment_link_id";`);
    this.addSql(`drop table if exists "payment_links" cascade;`);
  }

}
