import { Migration } from '@mikro-orm/migrations';

export class Migration20261123051158 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "payment_attempts" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "checkout_id" varchar(255) not null, "status" text check ("status" in ('in_progress', 'succeeded', 'failed', 'reversed')) not null default 'in_progress', "steps" jsonb not null, "order_id" varchar(255) null, constraint "payment_attempts_pkey" primary key ("id"));`);
    this.addSql(`create index "payment_attempts_in_progress_idx" on "payment_attempts" ("updated_at") where "status" = 'in_progress';`);

    this.addSql(`alter table "payment_attempts" add constraint "payment_attempts_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payment_attempts" cascade;`);
  }

}
