import { Migration } from '@mikro-orm/migrations';

/**
 * The dead letter is counted at every metrics scrape (`commerce_webhook_dead_letter_deliveries`):
 * a partial index on its few rows rather than a scan of every delivery kept.
 */
export class Migration20261130100000_webhook_dead_letter_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "webhook_deliveries_dead_letter_idx" on "webhook_deliveries" ("status") where "status" in ('failed', 'dead_letter');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "webhook_deliveries_dead_letter_idx";`);
  }
}
