import { Migration } from '@mikro-orm/migrations';

/** Rate-limit counters hand out leases of tokens: `granted` is the size of the last lease taken. */
export class Migration20261124001200_rate_limit_leases extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "rate_limit_counters" add column "granted" integer not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "rate_limit_counters" drop column "granted";`);
  }
}
