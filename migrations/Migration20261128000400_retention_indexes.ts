import { Migration } from '@mikro-orm/migrations';

/**
 * The retention sweeps find old rows by time: BRIN indexes (a few pages for millions of rows,
 * nearly free to keep up on append-mostly tables) on events and processor notifications.
 */
export class Migration20261128000400_retention_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "events_created_brin" on "events" using brin ("created_at");`);
    this.addSql(`create index "processor_notifications_received_brin" on "processor_notifications" using brin ("received_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "processor_notifications_received_brin";`);
    this.addSql(`drop index "events_created_brin";`);
  }
}
