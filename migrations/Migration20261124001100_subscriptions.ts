import { Migration } from '@mikro-orm/migrations';

export class Migration20261124001100_subscriptions extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "subscriptions" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "customer_id" varchar(255) not null, "payment_method_id" varchar(255) not null, "product_id" int null, "merchant_product_id" varchar(255) null, "description" varchar(255) not null, "hsa_fsa_eligible" boolean not null default false, "amount_cents" int not null, "currency" varchar(3) not null, "interval" text check ("interval" in ('daily', 'weekly', 'monthly', 'yearly')) not null, "interval_count" int not null default 1, "trial_period_days" int null, "trial_end" timestamptz null, "status" text check ("status" in ('trialing', 'active', 'past_due', 'action_required', 'unpaid', 'disputed', 'cancelled')) not null, "anchor_at" timestamptz not null, "period_index" int not null, "current_period_start" timestamptz not null, "current_period_end" timestamptz not null, "next_charge_at" timestamptz null, "billing_lease_until" timestamptz null, "open_invoice_id" varchar(255) null, "latest_invoice_id" varchar(255) null, "cancel_at_period_end" boolean not null default false, "cancelled_at" timestamptz null, "cancellation_reason" varchar(500) null, "ended_at" timestamptz null, "prior_status" text check ("prior_status" in ('trialing', 'active', 'past_due', 'action_required', 'unpaid', 'disputed', 'cancelled')) null, "prior_next_charge_at" timestamptz null, "checkout_id" varchar(255) null, "metadata" jsonb not null, constraint "subscriptions_pkey" primary key ("id"));`);
    this.addSql(`create index "subscriptions_due_idx" on "subscriptions" ("next_charge_at") where "next_charge_at" is not null;`);
    this.addSql(`create index "subscriptions_customer_idx" on "subscriptions" ("customer_id");`);
    this.addSql(`create index "subscriptions_scope_created_idx" on "subscriptions" ("merchant_id", "livemode", "created_at", "id");`);

    this.addSql(`create table "subscription_invoices" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "subscription_id" varchar(255) not null, "period_index" int not null, "period_start" timestamptz not null, "period_end" timestamptz not null, "amount" int not null, "currency" varchar(3) not null, "status" text check ("status" in ('open', 'paid', 'uncollectible', 'void')) not null default 'open', "attempt_count" int not null default 0, "next_retry_at" timestamptz null, "order_id" varchar(255) null, "psp_reference" varchar(255) null, "paid_at" timestamptz null, "last_disposition" text check ("last_disposition" in ('retry', 'action_required', 'terminal')) null, "last_refusal_code" varchar(255) null, "dispute_stage" varchar(255) null, constraint "subscription_invoices_pkey" primary key ("id"));`);
    this.addSql(`alter table "subscription_invoices" add constraint "subscription_invoices_period_uq" unique ("subscription_id", "period_start");`);

    this.addSql(`create table "subscription_invoice_attempts" ("id" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "merchant_id" varchar(255) not null, "livemode" boolean not null, "invoice_id" varchar(255) not null, "attempt" int not null, "amount" int not null, "payment_method_id" varchar(255) not null, "status" text check ("status" in ('calling', 'succeeded', 'failed')) not null default 'calling', "psp_reference" varchar(255) null, "disposition" text check ("disposition" in ('retry', 'action_required', 'terminal')) null, "refusal_code" varchar(255) null, constraint "subscription_invoice_attempts_pkey" primary key ("id"));`);
    this.addSql(`alter table "subscription_invoice_attempts" add constraint "subscription_invoice_attempts_uq" unique ("invoice_id", "attempt");`);

    this.addSql(`alter table "subscriptions" add constraint "subscriptions_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "subscription_invoices" add constraint "subscription_invoices_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "subscription_invoice_attempts" add constraint "subscription_invoice_attempts_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "subscriptions" cascade;`);

    this.addSql(`drop table if exists "subscription_invoices" cascade;`);

    this.addSql(`drop table if exists "subscription_invoice_attempts" cascade;`);
  }

}
