import { Migration } from '@mikro-orm/migrations';

/** Card setup links and card-update links: one-time hosted pages (24 h) where a shopper stores a card for a customer (and its subscription). */
export class Migration20261126000100_payment_method_setup_links extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "payment_method_setup_links" (
      "id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      "merchant_id" varchar(255) not null, "livemode" boolean not null, "access_token" varchar(255) not null,
      "customer_id" varchar(255) not null, "subscription_id" varchar(255) null,
      "status" text check ("status" in ('open', 'used')) not null default 'open', "expires_at" timestamptz not null,
      "used_at" timestamptz null, "payment_method_id" varchar(255) null,
      constraint "payment_method_setup_links_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "payment_method_setup_links" add constraint "payment_method_setup_links_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "payment_method_setup_links_customer_idx" on "payment_method_setup_links" ("customer_id", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payment_method_setup_links";`);
  }
}
