import pg from 'pg';
import type { Log } from '../context.js';

type Handler = (payload: string) => void;

/**
 * One dedicated PostgreSQL connection LISTENing on a few channels, reconnecting (with backoff)
 * when it drops. NOTIFY is transactional, so a handler only ever hears of committed work. A
 * notification sent while the connection is down is not replayed: handlers are hints (the sweeps
 * find the work anyway) or live streams (best effort, the events table is the record).
 */
export class PgListener {
  private client?: pg.Client;
  private closed = false;
  private retryMs = 250;
  private retryTimer?: NodeJS.Timeout;
  private connecting = false;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly connectHandlers: (() => void)[] = [];

  constructor(
    private readonly connectionString: string,
    private readonly log: Log,
  ) {}

  /** Calls `handler` with the payload of every notification on `channel` (register before `start`). */
  on(channel: string, handler: Handler): this {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
    const set = this.handlers.get(channel) ?? new Set<Handler>();
    set.add(handler);
    this.handlers.set(channel, set);
    return this;
  }

  /** Calls `handler` each time the connection is (re)established: notifications sent while it was down are lost. */
  onConnect(handler: () => void): this {
    this.connectHandlers.push(handler);
    return this;
  }

  /** Connects and LISTENs; throws if PostgreSQL cannot be reached. */
  async start(): Promise<void> {
    await this.connect();
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
    this.retryMs = 250;
    for (const handler of this.connectHandlers) handler();
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
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
