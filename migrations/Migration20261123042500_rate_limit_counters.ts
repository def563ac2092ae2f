import { Migration } from '@mikro-orm/migrations';

/** Shared rate-limit counters: unlogged (a lost counter after a crash only resets a window). */
export class Migration20261123042500_rate_limit_counters extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create unlogged table "rate_limit_counters" ("key" varchar(255) primary key, "window_start" bigint not null, "count" integer not null);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rate_limit_counters";`);
  }
}
