import { Migration } from '@mikro-orm/migrations';

/** Settings of the running service that its commands read too (the public URL its links use). */
export class Migration20261130000100_service_settings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "service_settings" ("name" text primary key, "value" text not null, "updated_at" timestamptz not null default now());`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "service_settings";`);
  }
}
