import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { MikroORM } from '@mikro-orm/postgresql';
import { queryRows } from '../db/sql.js';

/** Tokens a process asks for at once: a tenth of the window's budget (1 to 1,000). */
export function leaseSize(max: number): number {
  return Math.min(1000, Math.max(1, Math.floor(max / 10)));
}

// $1 key, $2 window start, $3 tokens wanted, $4 max. Grants at most a quarter of what is left; a
// row of a later window counts as this one (process clocks may differ a little).
const LEASE_SQL = `insert into rate_limit_counters as c (key, window_start, count, granted)
  values ($1, $2::bigint, least($3::int, ceil($4::int / 4.0)::int), least($3::int, ceil($4::int / 4.0)::int))
  on conflict (key) do update set
    granted = case when c.window_start >= excluded.window_start then greatest(0, least($3::int, ceil(($4::int - c.count) / 4.0)::int)) else excluded.granted end,
    count = case when c.window_start >= excluded.window_start then c.count + greatest(0, least($3::int, ceil(($4::int - c.count) / 4.0)::int)) else excluded.count end,
    window_start = greatest(c.window_start, excluded.window_start)
  returning count, granted`;

interface Lease {
  windowStart: number;
  /** Tokens this process holds and has not spent. */
  tokens: number;
  /** The shared count after this process's last lease (every process's grants). */
  granted: number;
  /** The shared budget of this window is spent: refuse without asking again. */
  exhausted: boolean;
  pending?: Promise<void>;
}

/**
 * A @fastify/rate-limit store whose budget per key and fixed window (aligned to the epoch) lives
 * in PostgreSQL, so the limit holds across every API process, without a statement per request:
 * each process takes tokens from the shared budget in leases (one UPSERT hands out up to
 * `leaseSize(max)`, and never more than a quarter of what is left, so the last tokens of a window
 * are spread thinly) and spends them in memory. The shared count never exceeds `max` within a
 * window (no overshoot); tokens a process leased but did not spend before the window ended are
 * lost (see README: worst case). Once the budget is spent, a process refuses until the window ends
 * without asking again.
 */
export function postgresRateLimitStore(orm: MikroORM): FastifyRateLimitStoreCtor {
  return class LeasedRateLimitStore implements FastifyRateLimitStore {
    private readonly leases = new Map<string, Lease>();

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow = 1000,
      max = 1,
    ): void {
      // A token in hand (nearly every request) answers at once, without a promise.
      const spent = this.spend(key, timeWindow, max);
      if (spent) return callback(null, spent);
      this.take(key, timeWindow, max).then(
        (result) => callback(null, result),
        (err: Error) => callback(err),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }

    /** Spends a token of this process's lease of the current window; undefined when the lease must be refilled first. */
    private spend(key: string, window: number, max: number): { current: number; ttl: number } | undefined {
      const now = Date.now();
      const windowStart = now - (now % window);
      let lease = this.leases.get(key);
      if (!lease || lease.windowStart !== windowStart) {
        if (this.leases.size > 10_000) this.forgetPast(now, window);
        lease = { windowStart, tokens: 0, granted: 0, exhausted: false };
        this.leases.set(key, lease);
      }
      const ttl = windowStart + window - now;
      if (lease.tokens > 0) {
        lease.tokens--;
        return { current: lease.granted - lease.tokens, ttl };
      }
      if (lease.exhausted) return { current: max + 1, ttl };
      return undefined;
    }

    private async take(key: string, window: number, max: number): Promise<{ current: number; ttl: number }> {
      for (;;) {
        const spent = this.spend(key, window, max);
        if (spent) return spent;
        const lease = this.leases.get(key)!;
        lease.pending ??= this.refill(key, lease, max).finally(() => {
          lease.pending = undefined;
        });
        await lease.pending;
      }
    }

    /** Takes a lease from the shared budget of the lease's window. */
    private async refill(key: string, lease: Lease, max: number): Promise<void> {
      const [row] = await queryRows<{ count: number; granted: number }>(orm.em, {
        name: 'rate_limit_lease',
        text: LEASE_SQL,
        values: [key, lease.windowStart, leaseSize(max), max],
      });
      const granted = Number(row.granted);
      lease.granted = Number(row.count);
      lease.tokens += granted;
      if (granted === 0) lease.exhausted = true;
    }

    private forgetPast(now: number, window: number): void {
      for (const [key, lease] of this.leases) if (lease.windowStart + window <= now) this.leases.delete(key);
    }
  };
}

/** Drops counters of windows long past (run by a periodic sweep). */
export async function purgeRateLimitCounters(orm: MikroORM, now: Date): Promise<void> {
  await orm.em
    .getConnection()
    .execute('delete from rate_limit_counters where window_start < ?', [now.getTime() - 3_600_000]);
}
