import { Migration } from '@mikro-orm/migrations';

/** The merchant's business address and phone (Settings → Branding): on receipts and in every message's footer. */
export class Migration20261130300100_branding_contact extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "email_settings" add column "business_address" text null, add column "phone" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "email_settings" drop column "business_address", drop column "phone";`);
  }
}
