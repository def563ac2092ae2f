import { Migration } from '@mikro-orm/migrations';

/**
 * The eligibility engine versions every stored product has been checked against
 * (`eligibility.recheck`): a deploy with another engine checks the products again, once.
 */
export class Migration20261126000300_eligibility_engine_rechecks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "eligibility_engine_rechecks" ("engine_version" text not null primary key, "finished_at" timestamptz not null default now());`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "eligibility_engine_rechecks";`);
  }
}
