import { PostgresBackend } from '@agendajs/postgres-backend';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Agenda } from 'agenda';
import pg from 'pg';
import type { Log } from '../context.js';
import { logFailure } from '../db/database-health.js';
import { jobLag, jobRunDuration, jobRuns, onScrape } from '../observability/metrics.js';
import { inSpan } from '../observability/spans.js';

/**
 * A recurring sweep: due work lives in domain tables (`expires_at`, `next_attempt_at`, …) and a
 * sweep claims due rows in batches (`FOR UPDATE SKIP LOCKED`), so any number of workers share it.
 * `now` is the time to sweep at: real time from Agenda, a test clock from the test helpers.
 */
export interface Sweep {
  name: string;
  /** Agenda interval, e.g. '10 seconds', '1 hour'. */
  every: string;
  run(orm: MikroORM, now: Date, log: Log): Promise<void>;
  /**
   * What a prompt kick runs (`kick(name, 'prompt')`: a hint that new work was committed), when
   * that needs less than a whole run; `run` otherwise. The scheduled runs stay whole.
   */
  prompt?(orm: MikroORM, now: Date, log: Log): Promise<void>;
  /**
   * Least milliseconds between a kicked run and a prompt run after it: prompt kicks within it
   * wait and share one run, so under load the sweep's prompt runs for many commits at once instead
   * of once per commit (a latency of at most this for prompt work). Whole runs are not paced. None:
   * one run at a time, back to back.
   */
  kickPaceMs?: number;
}

/** Runs one job run of `name`, counted (`commerce_job_runs_total`), timed and in a span of its own (`job <name>`). */
async function observedRun(name: string, trigger: 'scheduled' | 'kicked', run: () => Promise<void>): Promise<void> {
  const start = performance.now();
  let outcome = 'failure';
  try {
    await inSpan(`job ${name}`, { 'job.name': name, 'job.trigger': trigger }, run);
    outcome = 'success';
  } finally {
    jobRuns.inc({ job: name, trigger, outcome });
    jobRunDuration.observe({ job: name }, (performance.now() - start) / 1000);
  }
}

/** Reads how far behind schedule each recurring job is, from Agenda's table (every worker's view). */
async function sampleJobLag(orm: MikroORM): Promise<void> {
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute<{ name: string; lag: number }[]>(
      `select name, greatest(0, extract(epoch from now() - min(next_run_at)))::float8 as lag from agenda_jobs where disabled = false and next_run_at is not null group by name`,
    );
  for (const row of rows) jobLag.set({ job: row.name }, row.lag);
}

const noop = () => undefined;
const silentLog: Log = { info: noop, warn: noop, error: noop, debug: noop };

/** Agenda (on the same PostgreSQL) running the registered sweeps. */
export class JobRunner {
  private agenda?: Agenda;
  private pool?: pg.Pool;
  private stopSampling?: () => void;

  constructor(
    private readonly orm: MikroORM,
    private readonly databaseUrl: string,
    private readonly sweeps: Sweep[],
    public log: Log = silentLog,
  ) {}

  /** Defines every sweep and starts processing (call once per worker process). */
  async start(): Promise<void> {
    // Our own pool, so a connection PostgreSQL drops (restart, failover) is an error logged, never an
    // unhandled 'error' event that ends the process. No Agenda LISTEN channel: sweeps are recurring
    // and prompted by our own listener (`kick`), and Agenda's channel gives up reconnecting.
    const pool = new pg.Pool({ connectionString: this.databaseUrl, max: 2, application_name: 'commerce-jobs' });
    pool.on('error', (err) => this.log.warn({ err }, 'jobs: idle database connection lost'));
    this.pool = pool;
    const agenda = new Agenda({
      backend: new PostgresBackend({ pool, ensureSchema: false, disableNotifications: true }),
      processEvery: '5 seconds',
      defaultLockLifetime: 10 * 60_000,
    });
    for (const sweep of this.sweeps) {
      agenda.define(
        sweep.name,
        async () => observedRun(sweep.name, 'scheduled', () => sweep.run(this.orm, new Date(), this.log)),
        { concurrency: 1 },
      );
    }
    agenda.on('error', (err: unknown) => logFailure(this.log, err, 'agenda error'));
    await agenda.start();
    for (const sweep of this.sweeps) await agenda.every(sweep.every, sweep.name);
    this.agenda = agenda;
    this.stopSampling = onScrape('jobs', () => sampleJobLag(this.orm));
  }

  /** Runs every sweep once at `now`, in this process (the test clock and `drain` helpers). */
  async runDue(now: Date): Promise<void> {
    for (const sweep of this.sweeps) await sweep.run(this.orm, now, this.log);
  }

  /** Stops taking jobs and waits for running ones to finish. */
  async stop(): Promise<void> {
    if (!this.agenda) return;
    this.stopSampling?.();
    await this.agenda.drain(20_000);
    await this.agenda.stop();
    this.agenda = undefined;
    await Promise.allSettled([...this.kicked.values()]);
    await this.pool?.end().catch(() => undefined);
    this.pool = undefined;
  }

  private readonly kicked = new Map<string, Promise<void>>();
  /** Sweeps kicked again while running, with whether a whole run was asked for. */
  private readonly kickedAgain = new Map<string, boolean>();
  /** When each sweep's last kicked run started (performance.now()), for `kickPaceMs`. */
  private readonly kickedAt = new Map<string, number>();

  /**
   * Runs sweep `name` now in this process, if this process runs jobs (started): a prompt hint
   * after a commit (say a new event), never needed for correctness. `'prompt'` runs the sweep's
   * lighter `prompt` when it has one. Coalesced: one run at a time per sweep, plus one more when
   * kicked during it (whole if any of those kicks asked for a whole run), a prompt run starting at
   * least the sweep's `kickPaceMs` after the one before.
   */
  kick(name: string, kind: 'run' | 'prompt' = 'run'): void {
    const sweep = this.sweeps.find((s) => s.name === name);
    if (!this.agenda || !sweep) return;
    const whole = kind === 'run' || !sweep.prompt;
    if (this.kicked.has(name)) {
      this.kickedAgain.set(name, whole || this.kickedAgain.get(name) === true);
      return;
    }
    const run = (async () => {
      for (let wholeRun = whole; ;) {
        // Only prompt runs are paced: a whole run asked for (more work known to be due) goes at once.
        const wait = wholeRun
          ? 0
          : (this.kickedAt.get(name) ?? -Infinity) + (sweep.kickPaceMs ?? 0) - performance.now();
        if (wait > 0) {
          await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
          wholeRun ||= this.kickedAgain.get(name) === true;
          this.kickedAgain.delete(name);
        }
        if (!this.agenda) break;
        this.kickedAt.set(name, performance.now());
        await observedRun(name, 'kicked', () =>
          wholeRun ? sweep.run(this.orm, new Date(), this.log) : sweep.prompt!(this.orm, new Date(), this.log),
        ).catch((err: unknown) => logFailure(this.log, err, 'kicked sweep failed', { sweep: name }));
        const again = this.kickedAgain.get(name);
        this.kickedAgain.delete(name);
        if (again === undefined || !this.agenda) break;
        wholeRun = again;
      }
    })().finally(() => this.kicked.delete(name));
    this.kicked.set(name, run);
  }
}
