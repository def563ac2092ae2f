import { Migration } from '@mikro-orm/migrations';

/** The delivery log keeps what each receiver answered: the first 4 KiB (4,096 bytes) of the body, as text. */
export class Migration20261129000200_webhook_attempt_response_body extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_delivery_attempts" add column "response_body" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_delivery_attempts" drop column "response_body";`);
  }
}
