import { Migration } from '@mikro-orm/migrations';

export class Migration20261124001000_customers extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "customers" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "email" varchar(255) not null, "first_name" varchar(255) not null, "last_name" varchar(255) not null, "phone" varchar(32) null, "metadata" jsonb not null default '{}', constraint "customers_pkey" primary key ("id"));`);
    this.addSql(`create index "customers_scope_created_idx" on "customers" ("merchant_id", "livemode", "created_at", "id");`);
    this.addSql(`create index "customers_scope_email_idx" on "customers" ("merchant_id", "livemode", lower("email"));`);
    this.addSql(`alter table "customers" add constraint "customers_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "payment_methods" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "customer_id" varchar(255) not null, "type" text check ("type" in ('hsa_fsa_card', 'card')) not null, "brand" varchar(255) not null, "last4" varchar(4) not null, "exp_month" smallint not null, "exp_year" smallint not null, "processor_token" varchar(255) not null, "detached_at" timestamptz null, constraint "payment_methods_pkey" primary key ("id"));`);
    this.addSql(`create index "payment_methods_customer_created_idx" on "payment_methods" ("customer_id", "created_at", "id");`);
    this.addSql(`alter table "payment_methods" add constraint "payment_methods_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "payment_methods" add constraint "payment_methods_customer_id_foreign" foreign key ("customer_id") references "customers" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payment_methods" cascade;`);
    this.addSql(`drop table if exists "customers" cascade;`);
  }

}
