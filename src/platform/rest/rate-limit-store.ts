import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * A @fastify/rate-limit store in PostgreSQL, so the limit per API key holds across every API
 * process (fixed windows aligned to the epoch; one UPSERT per request on an unlogged table).
 */
export function postgresRateLimitStore(orm: MikroORM): FastifyRateLimitStoreCtor {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow?: number): void {
      const window = timeWindow ?? 1000;
      const now = Date.now();
      const windowStart = Math.floor(now / window) * window;
      orm.em
        .getConnection()
        .execute<{ count: number }[]>(
          `insert into rate_limit_counters (key, window_start, count) values (?, ?, 1)
           on conflict (key) do update set
             count = case when rate_limit_counters.window_start = excluded.window_start then rate_limit_counters.count + 1 else 1 end,
             window_start = excluded.window_start
           returning count`,
          [key, windowStart],
        )
        .then(
          ([row]) => callback(null, { current: Number(row.count), ttl: windowStart + window - now }),
          (err: Error) => callback(err),
        );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/** Drops counters of windows long past (run by a periodic sweep). */
export async function purgeRateLimitCounters(orm: MikroORM, now: Date): Promise<void> {
  await orm.em.getConnection().execute('delete from rate_limit_counters where window_start < ?', [now.getTime() - 3_600_000]);
}
