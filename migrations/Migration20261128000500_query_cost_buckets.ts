import { Migration } from '@mikro-orm/migrations';

/**
 * Each API key's GraphQL query-cost bucket, shared by every API process: the points left at
 * `updated_ms` (PostgreSQL's clock, epoch ms), restored from then on; `granted` is the last lease.
 * Unlogged: a bucket lost in a crash comes back full.
 */
export class Migration20261128000500_query_cost_buckets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create unlogged table "query_cost_buckets" ("key" varchar(255) primary key, "available" double precision not null, "granted" double precision not null default 0, "updated_ms" double precision not null);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "query_cost_buckets";`);
  }
}
