import { Migration } from '@mikro-orm/migrations';

/**
 * `random_base62(n)`: n characters of 0-9A-Za-z, for ids written by a single statement (the
 * webhook fan-out makes its deliveries' `wd_…` ids in SQL). Not for secrets: `random()` is not a
 * cryptographic generator, and these ids are names, never capabilities.
 */
export class Migration20261129000100_random_base62 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "random_base62"(n int) returns text language sql volatile parallel safe as $$
  select string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 1 + floor(random() * 62)::int, 1), '') from generate_series(1, n)
$$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists "random_base62"(int);`);
  }
}
