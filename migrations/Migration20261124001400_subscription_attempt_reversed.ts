import { Migration } from '@mikro-orm/migrations';

/**
 * A subscription cycle's attempt may end `reversed`: charged, but the cycle was cancelled before
 * the charge settled, so its capture is refunded (see subscription-billing.ts).
 */
export class Migration20261124001400_subscription_attempt_reversed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "subscription_invoice_attempts" drop constraint if exists "subscription_invoice_attempts_status_check";`);
    this.addSql(`alter table "subscription_invoice_attempts" add constraint "subscription_invoice_attempts_status_check" check ("status" in ('calling', 'succeeded', 'failed', 'reversed'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "subscription_invoice_attempts" drop constraint if exists "subscription_invoice_attempts_status_check";`);
    this.addSql(`alter table "subscription_invoice_attempts" add constraint "subscription_invoice_attempts_status_check" check ("status" in ('calling', 'succeeded', 'failed'));`);
  }
}
