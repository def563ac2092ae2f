import type { EntityManager } from '@mikro-orm/postgresql';
import { insideTransaction } from '../context.js';
import type { QueryConfig, QueryResultRow } from 'pg';
import { countStatement } from './sql-counter.js';

interface PgClient {
  query<R extends QueryResultRow>(query: QueryConfig): Promise<{ rows: R[] }>;
}

interface PooledClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
}

/** Whether this unit of work holds no transaction, so it may take a pooled connection (`queryRows`). */
export function outsideTransaction(em: EntityManager): boolean {
  // The base EntityManager sees a transaction opened with `em.transactional` (MikroORM's own context); ours is flagged.
  return !em.isInTransaction() && !insideTransaction.getStore();
}

/**
 * Runs one statement straight on the pg driver with a connection of the ORM's own pool (no
 * query builder, no hydration, no extra pool, no fork of the caller's EntityManager): for hot
 * read models only, outside transactions. `on` is a service context (its `base` EntityManager)
 * or an EntityManager. A named `query` is prepared once per connection. Counted in
 * `sql_statements_total`.
 */
export async function queryRows<R extends QueryResultRow>(on: { base: EntityManager } | EntityManager, query: QueryConfig): Promise<R[]> {
  const em = 'base' in on ? on.base : on;
  if (!outsideTransaction(em)) throw new Error('queryRows runs outside transactions; use the EntityManager inside one');
  const pool = em.getConnection().getKnex().client as unknown as PooledClient;
  const connection = await pool.acquireConnection();
  try {
    countStatement();
    return (await connection.query<R>(query)).rows;
  } finally {
    await pool.releaseConnection(connection);
  }
}

/** SQL for a timestamp column as epoch milliseconds (float8: the driver parses no date string). */
export const epochMs = (column: string): string => `floor(extract(epoch from ${column}) * 1000)::float8`;

/** A read model's row as PostgreSQL sends it: the `Dates` fields as epoch milliseconds (`epochMs`). */
export type EpochRow<T, Dates extends keyof T> = Omit<T, Dates> & { [K in Dates]: null extends T[K] ? number | null : number };

/** Turns the `dates` fields of `row` (epoch ms, or null) into `Date`s in place; the row becomes the record `T`. */
export function withDates<T>(row: object, dates: readonly (keyof T & string)[]): T {
  const record = row as Record<string, unknown>;
  for (const key of dates) {
    const value = record[key] as number | null;
    record[key] = value == null ? null : new Date(value);
  }
  return record as T;
}
