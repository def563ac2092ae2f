import type { MikroORM } from '@mikro-orm/postgresql';
import type { Log } from '../context.js';
import { outsideTransaction, queryRows } from '../db/sql.js';

/** A key's bucket as a response reports it (Shopify's `throttleStatus`). */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/** What `take` decided: admitted, or refused with the seconds to wait for enough points. */
export type Admission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/** Points a process asks for at once: a tenth of the bucket (at least 1). */
export function costLeaseSize(maximum: number): number {
  return Math.max(1, Math.floor(maximum / 10));
}

const ADMITTED: Admission = Object.freeze({ admitted: true });

/** A lease older than this is handed back at the next request, so a busy process re-reads the shared bucket every second. */
const LEASE_TTL_MS = 1000;

// $1 key, $2 points handed back (negative: spent on credit), $3 wanted, $4 needed, $5 maximum,
// $6 restore per millisecond. The bucket restores from its last update to now (PostgreSQL's
// clock, one for every process), takes back what the process returns, and grants the wanted
// lease (never more than a quarter of what is left, never less than what is needed) or nothing.
const NOW_MS = `(extract(epoch from now()) * 1000)`;
const lease = (available: string) => ({
  available,
  granted: `(case when ${available} >= $4::float8 then least(floor(${available}), greatest($4::float8, least($3::float8, ceil(${available} / 4.0)))) else 0 end)`,
});
const NEW = lease(`least($5::float8, $5::float8 + $2::float8)`);
const OLD = lease(`least($5::float8, b.available + greatest(0, ${NOW_MS} - b.updated_ms) * $6::float8 + $2::float8)`);
const LEASE_SQL = `insert into query_cost_buckets as b (key, available, granted, updated_ms)
  values ($1, ${NEW.available} - ${NEW.granted}, ${NEW.granted}, ${NOW_MS})
  on conflict (key) do update set
    available = ${OLD.available} - ${OLD.granted},
    granted = ${OLD.granted},
    updated_ms = greatest(b.updated_ms, ${NOW_MS})
  returning available, granted`;

interface KeyState {
  /** Points this process took from the shared bucket and has not spent (negative: spent on credit). */
  tokens: number;
  /** The shared bucket's points after this process's last lease, and when (this process's clock). */
  shared: number;
  seenAt: number;
  pending?: Promise<void>;
}

/**
 * The query-cost bucket of every API key (Shopify's leaky bucket): `maximum` points, restored at
 * `restoreRate` points a second, each operation taking its estimated cost before it runs and
 * giving back what it did not use after. The bucket lives in PostgreSQL (`query_cost_buckets`),
 * so it holds across every API process, without a statement per request: a process takes points
 * in leases (one UPSERT hands back what it held and takes up to a tenth of the bucket, never more
 * than a quarter of what is left) and spends them in memory; a lease is renewed after a second.
 * Inside a transaction (an idempotent mutation) no statement may run: the operation is admitted
 * against this process's view of the bucket and its points are settled at the next lease.
 */
export class CostBuckets {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly orm: MikroORM,
    readonly maximum: number,
    readonly restoreRate: number,
    private readonly log?: Log,
  ) {}

  /**
   * Takes `cost` points from `key`'s bucket, or says how long to wait for them: at once while
   * this process holds the points (nearly every request), else after a lease.
   */
  take(key: string, cost: number): Admission | Promise<Admission> {
    return this.attempt(key, cost, 0) ?? this.leaseAndTake(key, cost);
  }

  /** One round of `take`: its answer, or undefined when a lease must be asked for first. */
  private attempt(key: string, cost: number, round: number): Admission | undefined {
    if (cost <= 0) return ADMITTED;
    const state = this.keys.get(key);
    const now = Date.now();
    if (state && state.tokens >= cost && now - state.seenAt < LEASE_TTL_MS) {
      state.tokens -= cost;
      return ADMITTED;
    }
    // Not enough as far as this process knows (other processes only ever take): refuse without asking.
    if (state && this.estimate(state, now) < cost) return this.refusal(state, cost, now);
    if (round > 1 || !outsideTransaction(this.orm.em)) return this.onCredit(key, state, cost, now);
    return undefined;
  }

  private async leaseAndTake(key: string, cost: number): Promise<Admission> {
    for (let round = 1; ; round++) {
      await this.lease(key, cost);
      const admission = this.attempt(key, cost, round);
      if (admission) return admission;
    }
  }

  /** Gives back the points an operation took but did not use (its estimate minus its actual cost). */
  refund(key: string, points: number): void {
    const state = this.keys.get(key);
    if (state && points > 0) state.tokens += points;
  }

  /** The key's bucket as this process sees it (the shared bucket at its last lease, restored since, and its own points). */
  status(key: string): ThrottleStatus {
    const state = this.keys.get(key);
    const available = state ? Math.max(0, Math.floor(this.estimate(state, Date.now()))) : this.maximum;
    return { maximumAvailable: this.maximum, currentlyAvailable: available, restoreRate: this.restoreRate };
  }

  private estimate(state: KeyState, now: number): number {
    return Math.min(this.maximum, state.shared + ((now - state.seenAt) / 1000) * this.restoreRate + state.tokens);
  }

  private refusal(state: KeyState, cost: number, now: number): Admission {
    return {
      admitted: false,
      retryAfterSeconds: Math.max(1, Math.ceil((cost - this.estimate(state, now)) / this.restoreRate)),
    };
  }

  /** Admits on this process's view of the bucket, without a statement; the debt goes back with the next lease. */
  private onCredit(key: string, state: KeyState | undefined, cost: number, now: number): Admission {
    if (!state) this.keys.set(key, (state = { tokens: 0, shared: this.maximum, seenAt: now }));
    if (this.estimate(state, now) < cost) return this.refusal(state, cost, now);
    state.tokens -= cost;
    return ADMITTED;
  }

  /** One lease statement per key at a time: concurrent requests wait for it and spend what it brings. */
  private async lease(key: string, cost: number): Promise<void> {
    let state = this.keys.get(key);
    if (!state) {
      if (this.keys.size > 10_000) this.forgetIdle();
      this.keys.set(key, (state = { tokens: 0, shared: this.maximum, seenAt: 0 }));
    }
    const current = state;
    current.pending ??= this.renew(key, current, cost).finally(() => {
      current.pending = undefined;
    });
    await current.pending;
  }

  private async renew(key: string, state: KeyState, cost: number): Promise<void> {
    const returned = state.tokens;
    try {
      const [row] = await queryRows<{ available: number; granted: number }>(this.orm.em, {
        name: 'query_cost_lease',
        text: LEASE_SQL,
        values: [
          key,
          returned,
          Math.max(cost, costLeaseSize(this.maximum)),
          cost,
          this.maximum,
          this.restoreRate / 1000,
        ],
      });
      state.tokens += Number(row.granted) - returned; // spent meanwhile stays spent
      state.shared = Number(row.available);
      state.seenAt = Date.now();
    } catch (err) {
      // The bucket is not worth failing a request for: the database gate answers outages. Credit it.
      this.log?.warn({ err }, 'query cost bucket unavailable; admitting on this process’s count');
      state.seenAt = Date.now();
    }
  }

  private forgetIdle(): void {
    const before = Date.now() - 60_000;
    for (const [key, state] of this.keys) if (state.seenAt < before && !state.pending) this.keys.delete(key);
  }
}

/** Drops buckets untouched for an hour (on PostgreSQL's clock): they have refilled, and a missing bucket is a full one (run by a periodic sweep). */
export async function purgeCostBuckets(orm: MikroORM): Promise<void> {
  await orm.em.getConnection().execute(`delete from query_cost_buckets where updated_ms < ${NOW_MS} - 3600000`);
}
