import { Migration } from '@mikro-orm/migrations';

/**
 * `NOTIFY events` becomes a bare wake-up, once per inserting statement: listeners read the
 * events from the table in log order (see event-log.ts), so the payload is no longer needed, and a
 * bulk insert (catalog import: 50,000 events) no longer queues 50,000 payloads at commit.
 */
export class Migration20261124001301_events_notify_hint extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger if exists "events_notify" on "events";`);
    this.addSql(`create or replace function "events_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('events', '');
        return null;
      end $$;`);
    this.addSql(`create trigger "events_notify" after insert on "events" for each statement execute function "events_notify"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "events_notify" on "events";`);
    this.addSql(`create or replace function "events_notify"() returns trigger language plpgsql as $$
      declare payload text;
      begin
        payload := json_build_object('id', new.id, 'merchant_id', new.merchant_id, 'livemode', new.livemode, 'type', new.type, 'created_at', new.created_at, 'data', new.data)::text;
        if octet_length(payload) > 7900 then
          payload := json_build_object('id', new.id, 'merchant_id', new.merchant_id, 'livemode', new.livemode, 'type', new.type)::text;
        end if;
        perform pg_notify('events', payload);
        return null;
      end $$;`);
    this.addSql(`create trigger "events_notify" after insert on "events" for each row execute function "events_notify"();`);
  }
}
