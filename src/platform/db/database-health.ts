import pg from 'pg';
import type { Log } from '../context.js';

/** Socket-level failures: PostgreSQL is not there (stopped, restarting, failed over, unreachable). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server going away or not taking connections (class 08, operator intervention, too many connections). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'Unable to acquire a connection',
  'Timeout acquiring a connection',
  'Client was closed and is not queryable',
  'the database system is',
  // knex, for a statement on a transaction whose connection has just died under it.
  'Transaction query already complete',
];

/**
 * Whether `err` says the database could not be reached (rather than refusing a statement): the
 * answer is then 503 `service_unavailable` with `Retry-After`, never a masked 500. Looks through
 * MikroORM's and knex's wrappers (`cause`, copied `code`).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
  if (e.name === 'KnexTimeoutError' || e.name === 'ConnectionException') return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  // AggregateError from a dual-stack connect (127.0.0.1 and ::1 both refused).
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** How often an unreachable database is probed, and how long one probe may take. */
const PROBE_EVERY_MS = 250;
const PROBE_TIMEOUT_MS = 1000;

/**
 * This process's view of whether PostgreSQL is reachable. Anyone who sees it go away (the
 * LISTEN connection dropping, a request failing to connect) calls `suspect()`: one probe on a
 * connection of its own (never the request pool) decides. While it is down, requests are
 * answered 503 at once instead of each trying to connect, and the probe runs every 250 ms;
 * the first probe that succeeds brings it back and tells `onAvailable` listeners (the LISTEN
 * connection reconnects at once rather than at its next backoff).
 */
export class DatabaseHealth {
  private down = false;
  private probing?: Promise<boolean>;
  private timer?: NodeJS.Timeout;
  private closed = false;
  private readonly availableHandlers: (() => void)[] = [];

  constructor(
    private readonly connectionString: string,
    private readonly log: Log,
  ) {}

  /** False while the database is known to be unreachable (requests answer 503 without trying). */
  get available(): boolean {
    return !this.down;
  }

  /** Calls `handler` each time the database comes back after being down. */
  onAvailable(handler: () => void): this {
    this.availableHandlers.push(handler);
    return this;
  }

  /** Something failed to reach the database: probe now; mark it down if the probe fails. */
  suspect(err?: unknown): void {
    if (this.closed || this.down || this.probing) return;
    this.probing = this.probe().finally(() => (this.probing = undefined));
    void this.probing.then((ok) => {
      if (ok || this.closed || this.down) return;
      this.down = true;
      this.log.warn({ err }, 'database unreachable: answering 503 until it is back');
      this.schedule();
    });
  }

  /** One probe on a fresh connection: true if PostgreSQL answers `select 1` within a second. */
  async probe(): Promise<boolean> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: PROBE_TIMEOUT_MS,
      application_name: 'commerce-health',
    });
    client.on('error', () => undefined); // a failed probe is an answer, not a crash
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS)));
    const attempt = (async () => {
      await client.connect();
      await client.query('select 1');
      return true;
    })().catch(() => false);
    try {
      return await Promise.race([attempt, timeout]);
    } finally {
      clearTimeout(timer);
      void client.end().catch(() => undefined);
    }
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.probe().then((ok) => {
        if (this.closed) return;
        if (!ok) return this.schedule();
        this.down = false;
        this.log.info('database reachable again');
        for (const handler of this.availableHandlers) {
          try {
            handler();
          } catch (err) {
            this.log.error({ err }, 'database-available handler failed');
          }
        }
      });
    }, PROBE_EVERY_MS);
    this.timer.unref();
  }

  /** Stops probing. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}

/** Logs a failed background step: a warning while the database is unreachable (expected, transient), an error otherwise. */
export function logFailure(log: Log, err: unknown, msg: string, fields: Record<string, unknown> = {}): void {
  if (isDatabaseUnavailable(err)) log.warn({ err, ...fields }, `${msg} (database unreachable)`);
  else log.error({ err, ...fields }, msg);
}
