import { Migration } from '@mikro-orm/migrations';

/**
 * A stable position for every event: the inserting transaction's id (`xid8`) and an insert
 * sequence. Readers of the log see only events of transactions older than every transaction still
 * running (`pg_snapshot_xmin`), so an event that commits later always sorts after every position
 * already handed out: a client resuming after a cursor misses nothing and sees nothing twice.
 */
export class Migration20261124001300_events_log_position extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "events" add column "seq" bigserial not null, add column "xid" xid8 not null default pg_current_xact_id();`);
    this.addSql(`create index "events_log_idx" on "events" ("merchant_id", "livemode", "xid", "seq");`);
    this.addSql(`create index "events_position_idx" on "events" ("xid", "seq");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "events_position_idx";`);
    this.addSql(`drop index if exists "events_log_idx";`);
    this.addSql(`alter table "events" drop column "xid", drop column "seq";`);
  }
}
