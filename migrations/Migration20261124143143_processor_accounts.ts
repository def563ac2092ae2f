import { Migration } from '@mikro-orm/migrations';

/** Merchants' processor configuration (Adyen): one row per merchant, its API and HMAC keys sealed with SECRETS_KEY. */
export class Migration20261124143143_processor_accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "processor_accounts" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "provider" text check ("provider" in ('adyen')) not null, "merchant_account" varchar(80) not null, "api_key_sealed" text not null, "api_key_last4" varchar(4) not null, "client_key" varchar(255) not null, "hmac_key_sealed" text not null, "hmac_key_last4" varchar(4) not null, "live_url_prefix" varchar(255) null, constraint "processor_accounts_pkey" primary key ("id"));`);
    this.addSql(`alter table "processor_accounts" add constraint "processor_accounts_merchant_id_unique" unique ("merchant_id");`);
    this.addSql(`create index "processor_accounts_merchant_account_idx" on "processor_accounts" ("merchant_account");`);
    this.addSql(`alter table "processor_accounts" add constraint "processor_accounts_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "processor_accounts" cascade;`);
  }
}
