import pg from 'pg';
import type { Log } from '../context.js';
import { randomBase62 } from '../db/ids.js';

type Handler = (payload: string) => void;

/** The channel on which the listener sends itself a notification to prove that it hears. */
const PROBE_CHANNEL = 'listener_probe';
/** How long a probe notification may take to come back before the listener counts as deaf. */
const PROBE_WAIT_MS = 2000;
/** How often a deaf listener probes again. */
const REPROBE_MS = 5000;

/** Sends a notification the way the rest of the service does (through the request pool: see `PgListener`). */
export type Notify = (channel: string, payload: string) => Promise<unknown>;

/**
 * One dedicated PostgreSQL connection LISTENing on a few channels, reconnecting (with backoff)
 * when it drops. NOTIFY is transactional, so a handler only ever hears of committed work. A
 * notification sent while the connection is down is not replayed: handlers are hints (the sweeps
 * find the work anyway) or live streams (best effort, the events table is the record).
 *
 * LISTEN needs a connection of its own to the server (`DATABASE_LISTEN_URL`): through a pooler
 * in transaction mode it silently hears nothing. So at start and after every reconnect the
 * listener proves that it hears: it sends a notification with `notify` (the path every other
 * notification takes) and waits for it. Until one comes back it is deaf (`hearing` false, an error
 * logged, probed again every 5 s), and the `onMissed` handlers run every `missedPollMs` in place
 * of the notifications it may be missing.
 */
export class PgListener {
  private client?: pg.Client;
  private closed = false;
  private retryMs = 250;
  private retryTimer?: NodeJS.Timeout;
  private connecting = false;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly missedHandlers: (() => void)[] = [];
  /** Whether the current connection heard its own probe. */
  private heard = false;
  private probing?: Promise<boolean>;
  private readonly awaitedProbes = new Map<string, () => void>();
  private reprobeTimer?: NodeJS.Timeout;
  private readonly missedTimer: NodeJS.Timeout;

  constructor(
    private readonly connectionString: string,
    private readonly log: Log,
    private readonly opts: { notify?: Notify; missedPollMs?: number } = {},
  ) {
    this.on(PROBE_CHANNEL, (payload) => this.awaitedProbes.get(payload)?.());
    this.missedTimer = setInterval(() => {
      if (!this.hearing) this.missed();
    }, opts.missedPollMs ?? 500).unref();
  }

  /** Whether notifications reach this process now: connected, and its own probe came back. */
  get hearing(): boolean {
    return this.client !== undefined && this.heard;
  }

  /**
   * Calls `handler` whenever notifications may have been missed: at every (re)connection and, while
   * the listener is not hearing, every `missedPollMs` (a cache is dropped, a stream read again).
   */
  onMissed(handler: () => void): this {
    this.missedHandlers.push(handler);
    return this;
  }

  private missed(): void {
    for (const handler of this.missedHandlers) {
      try {
        handler();
      } catch (err) {
        this.log.error({ err }, 'missed-notification handler failed');
      }
    }
  }

  /**
   * Sends a notification on the probe channel and waits (2 s at most) to hear it; records and
   * returns whether it came back. Concurrent calls share one probe.
   */
  probe(): Promise<boolean> {
    this.probing ??= this.sendProbe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  private async sendProbe(): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    const token = randomBase62(16);
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.awaitedProbes.set(token, () => resolve(true));
      timer = setTimeout(() => resolve(false), PROBE_WAIT_MS);
    });
    const notify =
      this.opts.notify ??
      ((channel: string, payload: string) => client.query('select pg_notify($1, $2)', [channel, payload]));
    let sent = true;
    const ok = await notify(PROBE_CHANNEL, token)
      .then(() => heard)
      .catch((err: unknown) => {
        sent = false;
        this.log.warn({ err }, 'LISTEN probe could not be sent');
        return false;
      })
      .finally(() => {
        clearTimeout(timer);
        this.awaitedProbes.delete(token);
      });
    if (this.client !== client || this.closed) return ok;
    const was = this.heard;
    this.heard = ok;
    if (ok && !was) this.log.info('LISTEN connection hears notifications');
    if (!ok) {
      // Deaf only when its own notification went out and never came back; one that could not be sent (the
      // database still away for the request pool, as just after a failover) proves nothing: probed again.
      if (sent) {
        this.log.error(
          'LISTEN connection does not hear its own notification: cross-process updates fall back to polling. Point DATABASE_LISTEN_URL at PostgreSQL directly (not through a pooler in transaction mode).',
        );
      }
      this.scheduleReprobe();
    }
    return ok;
  }

  private scheduleReprobe(): void {
    if (this.closed || this.reprobeTimer) return;
    this.reprobeTimer = setTimeout(() => {
      this.reprobeTimer = undefined;
      if (!this.closed && this.client && !this.heard) void this.probe();
    }, REPROBE_MS).unref();
  }

  /** Calls `handler` with the payload of every notification on `channel` (register before `start`). */
  on(channel: string, handler: Handler): this {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
    const set = this.handlers.get(channel) ?? new Set<Handler>();
    set.add(handler);
    this.handlers.set(channel, set);
    return this;
  }

  /** Connects, LISTENs and probes (a deaf listener is logged, not thrown); throws if PostgreSQL cannot be reached. */
  async start(): Promise<void> {
    await this.connect();
    await this.probe();
  }

  /** Whether the LISTEN connection is up now. */
  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Reconnects now instead of at the next backoff step (the database is known to be back). */
  reconnectNow(): void {
    if (this.closed || this.client || this.connecting) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.retryMs = 250;
    this.attempt();
  }

  private attempt(): void {
    this.connecting = true;
    this.connect()
      .then(() => void this.probe())
      .catch((err: unknown) => {
        this.log.warn({ err }, 'LISTEN reconnect failed');
        this.reconnectLater();
      })
      .finally(() => (this.connecting = false));
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'commerce-listener' });
    client.on('notification', (msg) => {
      for (const handler of this.handlers.get(msg.channel) ?? []) {
        try {
          handler(msg.payload ?? '');
        } catch (err) {
          this.log.error({ err, channel: msg.channel }, 'notification handler failed');
        }
      }
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`listen ${channel}`);
    } catch (err) {
      client.end().catch(() => undefined);
      throw err;
    }
    this.client = client;
    this.heard = false;
    this.retryMs = 250;
    this.missed();
    if (this.closed) await client.end();
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.log.warn({ err }, 'LISTEN connection lost; reconnecting');
    client.end().catch(() => undefined);
    for (const handler of this.lostHandlers) handler(err);
    this.reconnectLater();
  }

  private readonly lostHandlers: ((err?: Error) => void)[] = [];

  /** Calls `handler` when the connection drops (the database may be going away). */
  onLost(handler: (err?: Error) => void): this {
    this.lostHandlers.push(handler);
    return this;
  }

  /** Backoff from 250 ms to 2 s: a restarted database is listened to again within seconds. */
  private reconnectLater(): void {
    if (this.closed || this.retryTimer) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 2_000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed || this.client) return;
      this.attempt();
    }, delay);
    this.retryTimer.unref();
  }

  /**
   * Checks the database over this dedicated connection (`/healthz`): it never waits behind the
   * request pool, so a busy pool cannot make the service look dead. False if down or slow.
   */
  async ping(timeoutMs = 800): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const query = client.query('select 1').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops listening and closes the connection. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.missedTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.reprobeTimer) clearTimeout(this.reprobeTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
