import { Migration } from '@mikro-orm/migrations';

/**
 * Retention by real time: events are purged by `dispatched_at` (the database clock; a test-mode
 * event's `created_at` is its merchant's test clock, which may be years ahead), and the payment
 * journal and the processors' call logs get purges of their own. BRIN indexes on those time
 * columns (append-mostly tables), as for the other purges.
 */
export class Migration20261130000200_retention_real_time extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "events_dispatched_brin" on "events" using brin ("dispatched_at");`);
    this.addSql(`drop index if exists "events_created_brin";`);
    this.addSql(`create index "payment_attempts_created_brin" on "payment_attempts" using brin ("created_at");`);
    this.addSql(`create index "processor_calls_created_brin" on "processor_calls" using brin ("created_at");`);
    this.addSql(`create index "processor_ledger_created_brin" on "processor_ledger" using brin ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "processor_ledger_created_brin";`);
    this.addSql(`drop index if exists "processor_calls_created_brin";`);
    this.addSql(`drop index if exists "payment_attempts_created_brin";`);
    this.addSql(`create index "events_created_brin" on "events" using brin ("created_at");`);
    this.addSql(`drop index if exists "events_dispatched_brin";`);
  }
}
