import { Migration } from '@mikro-orm/migrations';

/** The console's team members (email, argon2id password, TOTP, lockout), their server-side sessions, and the secret that signs session cookies. */
export class Migration20261128000200_team_members extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "team_members" (
      "id" varchar(255) not null primary key,
      "merchant_id" varchar(255) not null references "merchants" ("id") on update cascade on delete cascade,
      "email" varchar(254) not null unique,
      "role" text check ("role" in ('owner', 'admin', 'developer', 'support', 'viewer')) not null,
      "password_hash" varchar(255) null,
      "setup_token_hash" varchar(255) null,
      "setup_token_expires_at" timestamptz null,
      "totp_secret" varchar(255) null,
      "totp_enabled_at" timestamptz null,
      "totp_last_step" bigint null,
      "recovery_code_hashes" text[] null,
      "failed_sign_ins" int not null default 0,
      "locked_until" timestamptz null,
      "last_sign_in_at" timestamptz null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "team_members_merchant_idx" on "team_members" ("merchant_id");`);
    this.addSql(`create index "team_members_setup_token_idx" on "team_members" ("setup_token_hash");`);
    this.addSql(`create table "console_sessions" ("sid" varchar(255) not null primary key, "data" jsonb not null, "expires_at" timestamptz not null);`);
    this.addSql(`create index "console_sessions_expires_idx" on "console_sessions" ("expires_at");`);
    this.addSql(`create table "service_secrets" ("name" varchar(100) not null primary key, "value" text not null);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "service_secrets";`);
    this.addSql(`drop table "console_sessions";`);
    this.addSql(`drop table "team_members";`);
  }
}
