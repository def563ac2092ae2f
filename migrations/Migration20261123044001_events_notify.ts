import { Migration } from '@mikro-orm/migrations';

/**
 * `NOTIFY events` for every inserted event. NOTIFY is transactional: it is sent when the
 * inserting transaction commits and never for a rolled-back one. The payload carries the event
 * itself when it fits PostgreSQL's 8000-byte limit, otherwise only its id (listeners then read
 * the row). Listeners are hints only: webhook delivery never depends on them (see webhook-dispatch.ts).
 */
export class Migration20261123044001_events_notify extends Migration {
  override async up(): Promise<void> {
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

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "events_notify" on "events";`);
    this.addSql(`drop function if exists "events_notify"();`);
  }
}
