import { Migration } from '@mikro-orm/migrations';

/**
 * Disputes of captured payments (one per payment), driven by the processor's chargeback
 * notifications; the subscription cycle of an order is found by its order id.
 */
export class Migration20261125000100_disputes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "disputes" (
      "id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      "merchant_id" varchar(255) not null, "livemode" boolean not null, "order_id" varchar(255) not null, "payment_id" varchar(255) not null,
      "payment_psp_reference" varchar(255) not null, "psp_reference" varchar(255) not null,
      "stage" text check ("stage" in ('notification', 'confirmed', 'reversed')) not null, "amount" int not null, "currency" varchar(3) not null,
      "reason" text null, "event_code" varchar(255) not null, "defense_due_at" timestamptz null, "defendable" boolean null,
      "accepted_at" timestamptz null, "defended_at" timestamptz null, "defense_reason_code" varchar(255) null,
      constraint "disputes_pkey" primary key ("id"));`);
    this.addSql(`alter table "disputes" add constraint "disputes_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "disputes" add constraint "disputes_payment_uq" unique ("payment_id");`);
    this.addSql(`create index "disputes_order_idx" on "disputes" ("order_id", "created_at");`);
    this.addSql(`create index "payments_capture_id_idx" on "payments" ("capture_id");`);
    this.addSql(`create index "subscription_invoices_order_idx" on "subscription_invoices" ("order_id") where "order_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "subscription_invoices_order_idx";`);
    this.addSql(`drop index if exists "payments_capture_id_idx";`);
    this.addSql(`drop table if exists "disputes";`);
  }
}
