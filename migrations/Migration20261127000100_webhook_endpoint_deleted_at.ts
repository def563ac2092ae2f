import { Migration } from '@mikro-orm/migrations';

/** A deleted webhook endpoint stays as the history of its deliveries, disabled and hidden (`deleted_at`). */
export class Migration20261127000100_webhook_endpoint_deleted_at extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add column "deleted_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" drop column "deleted_at";`);
  }
}
