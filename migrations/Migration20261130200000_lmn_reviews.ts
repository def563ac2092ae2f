import { Migration } from '@mikro-orm/migrations';

/** Letters of medical necessity: reviews a clinician decides (the HSA/FSA hold they keep), the letters issued, and the clinician's details on a team member. */
export class Migration20261130200000_lmn_reviews extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "lmn_reviews" (
      "id" varchar(255) not null primary key,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      "merchant_id" varchar(255) not null references "merchants" ("id") on update cascade on delete cascade,
      "livemode" boolean not null,
      "status" text check ("status" in ('pending', 'approved', 'declined', 'expired')) not null default 'pending',
      "answers" jsonb not null, "items" jsonb not null, "customer" jsonb not null, "customer_email" varchar(255) not null,
      "order_id" varchar(255) not null, "invoice_id" varchar(255) null, "hold" jsonb not null,
      "expires_at" timestamptz not null, "decided_at" timestamptz null, "decided_by" jsonb null,
      "condition" text null, "reason" text null, "letter_id" varchar(255) null, "deciding_at" timestamptz null);`);
    this.addSql(`create index "lmn_reviews_scope_created_idx" on "lmn_reviews" ("merchant_id", "livemode", "created_at", "id");`);
    this.addSql(`create index "lmn_reviews_pending_expiry_idx" on "lmn_reviews" ("expires_at") where "status" = 'pending';`);
    this.addSql(`create index "lmn_reviews_order_idx" on "lmn_reviews" ("order_id");`);
    this.addSql(`create table "lmn_letters" (
      "id" varchar(255) not null primary key,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      "merchant_id" varchar(255) not null references "merchants" ("id") on update cascade on delete cascade,
      "livemode" boolean not null,
      "customer" jsonb not null, "customer_email" varchar(255) not null, "condition" text not null, "items" jsonb not null,
      "clinician" jsonb not null, "review_id" varchar(255) not null, "issued_at" timestamptz not null, "expires_at" timestamptz not null);`);
    this.addSql(`create index "lmn_letters_scope_created_idx" on "lmn_letters" ("merchant_id", "livemode", "created_at", "id");`);
    this.addSql(`create index "lmn_letters_customer_idx" on "lmn_letters" ("merchant_id", "livemode", "customer_email", "expires_at");`);
    this.addSql(`alter table "team_members" drop constraint if exists "team_members_role_check";`);
    this.addSql(`alter table "team_members" add constraint "team_members_role_check" check ("role" in ('owner', 'admin', 'developer', 'support', 'viewer', 'clinician'));`);
    this.addSql(`alter table "team_members" add column "name" varchar(255) null, add column "credential" varchar(64) null, add column "npi" varchar(10) null, add column "licensed_states" text[] null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "team_members" drop column "name", drop column "credential", drop column "npi", drop column "licensed_states";`);
    this.addSql(`alter table "team_members" drop constraint if exists "team_members_role_check";`);
    this.addSql(`alter table "team_members" add constraint "team_members_role_check" check ("role" in ('owner', 'admin', 'developer', 'support', 'viewer'));`);
    this.addSql(`drop table "lmn_letters";`);
    this.addSql(`drop table "lmn_reviews";`);
  }
}
