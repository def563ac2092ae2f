import { Migration } from '@mikro-orm/migrations';

/** A subscription whose product needs a letter of medical necessity: its HSA/FSA renewals are held for a review once the shopper's letter has expired. */
export class Migration20261130300000_subscription_requires_lmn extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "subscriptions" add column "requires_lmn" boolean not null default false;`);
    this.addSql(`create index "lmn_reviews_invoice_idx" on "lmn_reviews" ("invoice_id") where "invoice_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "lmn_reviews_invoice_idx";`);
    this.addSql(`alter table "subscriptions" drop column "requires_lmn";`);
  }
}
