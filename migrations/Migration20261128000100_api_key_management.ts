import { Migration } from '@mikro-orm/migrations';

/**
 * Several named keys per mode (Settings → API keys): a restricted key's `permissions`, a rolled
 * key's `expires_at` (the overlap), `last_used_at`, and who created it.
 */
export class Migration20261128000100_api_key_management extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "api_keys" add column "name" varchar(100) not null default 'Secret key', add column "permissions" text[] null, add column "expires_at" timestamptz null, add column "last_used_at" timestamptz null, add column "created_by" varchar(255) null;`,
    );
    this.addSql(`create index "api_keys_merchant_mode_idx" on "api_keys" ("merchant_id", "mode", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "api_keys_merchant_mode_idx";`);
    this.addSql(`alter table "api_keys" drop column "name", drop column "permissions", drop column "expires_at", drop column "last_used_at", drop column "created_by";`);
  }
}
