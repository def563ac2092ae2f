import { Migration } from '@mikro-orm/migrations';

export class Migration20261123044510 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "refunds" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "order_id" varchar(255) not null, "amount" int not null, "hsa_amount" int not null, "regular_amount" int not null, "currency" varchar(3) not null, "reason" text check ("reason" in ('customer_request', 'duplicate', 'fraudulent', 'product_unavailable', 'damaged_product', 'wrong_product', 'other')) not null, "notes" varchar(500) null, "status" text check ("status" in ('pending', 'succeeded', 'failed', 'cancelled')) not null default 'pending', "parts" jsonb not null, "failure_reason" text null, "metadata" jsonb not null, "processed_at" timestamptz null, constraint "refunds_pkey" primary key ("id"));`);
    this.addSql(`create index "refunds_pending_idx" on "refunds" ("created_at") where "status" = 'pending';`);
    this.addSql(`create index "refunds_order_idx" on "refunds" ("order_id", "created_at");`);
    this.addSql(`create index "refunds_scope_created_idx" on "refunds" ("merchant_id", "livemode", "created_at", "id");`);

    this.addSql(`alter table "refunds" add constraint "refunds_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "refunds" cascade;`);
  }

}
