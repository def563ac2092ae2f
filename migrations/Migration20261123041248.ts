import { Migration } from '@mikro-orm/migrations';

export class Migration20261123041248 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" ("id" bigserial primary key, "merchant_id" varchar(255) not null, "livemode" boolean not null, "key" varchar(255) not null, "request_hash" varchar(255) not null, "response_status" int not null, "response_body" jsonb not null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null);`);
    this.addSql(`create index "idempotency_keys_expires_idx" on "idempotency_keys" ("expires_at");`);
    this.addSql(`alter table "idempotency_keys" add constraint "idempotency_keys_scope_key_uq" unique ("merchant_id", "livemode", "key");`);

    this.addSql(`create table "merchants" ("id" varchar(255) not null, "name" varchar(255) not null, "webhook_secret" varchar(255) not null, "test_clock_offset_ms" bigint not null default 0, "created_at" timestamptz not null default now(), constraint "merchants_pkey" primary key ("id"));`);

    this.addSql(`create table "events" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "type" varchar(255) not null, "data" jsonb not null, constraint "events_pkey" primary key ("id"));`);
    this.addSql(`create index "events_scope_created_idx" on "events" ("merchant_id", "livemode", "created_at", "id");`);

    this.addSql(`create table "api_keys" ("id" varchar(255) not null, "merchant_id" varchar(255) not null, "mode" text check ("mode" in ('test', 'live')) not null, "key_hash" varchar(255) not null, "key_prefix" varchar(255) not null, "revoked_at" timestamptz null, "created_at" timestamptz not null default now(), constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);

    this.addSql(`create table "products" ("id" serial primary key, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "name" varchar(255) not null, "tagline" varchar(255) null, "description" text null, "price" int not null, "currency" varchar(3) not null, "merchant_product_id" varchar(255) null, "upc_code_or_gtin" varchar(32) null, "status" text check ("status" in ('active', 'inactive', 'archived')) not null default 'active', "hsa_fsa_eligible" boolean not null, "requires_lmn" boolean not null default false, "eligibility_category" varchar(255) null, "eligibility_source" varchar(255) not null, "eligibility_message" text not null, "eligibility_checked_at" timestamptz not null, "metadata" jsonb not null default '{}');`);
    this.addSql(`create unique index "products_merchant_product_id_uq" on "products" ("merchant_id", "livemode", "merchant_product_id") where "status" <> 'archived';`);
    this.addSql(`create index "products_scope_created_idx" on "products" ("merchant_id", "livemode", "created_at", "id");`);

    this.addSql(`create table "product_images" ("id" serial primary key, "product_id" int not null, "url" text not null, "position" smallint not null);`);
    this.addSql(`create index "product_images_product_idx" on "product_images" ("product_id");`);

    this.addSql(`alter table "events" add constraint "events_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "products" add constraint "products_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "product_images" add constraint "product_images_product_id_foreign" foreign key ("product_id") references "products" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "events" drop constraint "events_merchant_id_foreign";`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_merchant_id_foreign";`);

    this.addSql(`alter table "products" drop constraint "products_merchant_id_foreign";`);

    this.addSql(`alter table "product_images" drop constraint "product_images_product_id_foreign";`);

    this.addSql(`drop table if exists "idempotency_keys" cascade;`);

    this.addSql(`drop table if exists "merchants" cascade;`);

    this.addSql(`drop table if exists "events" cascade;`);

    this.addSql(`drop table if exists "api_keys" cascade;`);

    this.addSql(`drop table if exists "products" cascade;`);

    this.addSql(`drop table if exists "product_images" cascade;`);
  }

}
