import { Migration } from '@mikro-orm/migrations';

/**
 * The table Agenda's PostgreSQL backend works on (as @agendajs/postgres-backend 3.0 defines it),
 * created here so that the backend never changes the schema at run time (ensureSchema: false).
 */
export class Migration20261123041300_agenda_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "agenda_jobs" (
      id uuid primary key default gen_random_uuid(),
      name varchar(255) not null,
      priority integer not null default 0,
      next_run_at timestamptz,
      type varchar(10) not null default 'normal' check (type in ('normal', 'single')),
      locked_at timestamptz,
      last_finished_at timestamptz,
      failed_at timestamptz,
      fail_count integer default null,
      fail_reason text,
      repeat_timezone varchar(100),
      last_run_at timestamptz,
      repeat_interval varchar(255),
      data jsonb default '{}'::jsonb,
      repeat_at varchar(255),
      disabled boolean default false,
      progress real,
      fork boolean default false,
      last_modified_by varchar(255),
      debounce_started_at timestamptz,
      start_date timestamptz,
      end_date timestamptz,
      skip_days jsonb,
      created_at timestamptz default now(),
      updated_at timestamptz default now()
    );`);
    this.addSql(`create index if not exists "agenda_jobs_find_and_lock_idx" on "agenda_jobs" (name, next_run_at, priority desc, locked_at, disabled) where disabled = false;`);
    this.addSql(`create unique index if not exists "agenda_jobs_single_job_idx" on "agenda_jobs" (name) where type = 'single';`);
    this.addSql(`create index if not exists "agenda_jobs_locked_at_idx" on "agenda_jobs" (locked_at) where locked_at is not null;`);
    this.addSql(`create index if not exists "agenda_jobs_next_run_at_idx" on "agenda_jobs" (next_run_at) where next_run_at is not null;`);
    this.addSql(`create or replace function update_agenda_jobs_updated_at() returns trigger as $$ begin new.updated_at = now(); return new; end; $$ language plpgsql;`);
    this.addSql(`create trigger "agenda_jobs_updated_at_trigger" before update on "agenda_jobs" for each row execute function update_agenda_jobs_updated_at();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "agenda_jobs" cascade;`);
    this.addSql(`drop function if exists update_agenda_jobs_updated_at();`);
  }
}
