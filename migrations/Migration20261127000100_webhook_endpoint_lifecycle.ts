import { Migration } from '@mikro-orm/migrations';

/**
 * A deleted webhook endpoint stays as the history of its deliveries, disabled and hidden
 * (`deleted_at`); `failing_since` starts an endpoint's run of failed attempts (3 days of it disable it).
 */
export class Migration20261127000100_webhook_endpoint_lifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add column "deleted_at" timestamptz null, add column "failing_since" timestamptz null;`);
    this.addSql(`create index "webhook_endpoints_failing_idx" on "webhook_endpoints" ("failing_since") where "failing_since" is not null and "status" = 'enabled';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "webhook_endpoints_failing_idx";`);
    this.addSql(`alter table "webhook_endpoints" drop column "deleted_at", drop column "failing_since";`);
  }
}
