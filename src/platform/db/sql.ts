import type { EntityManager } from '@mikro-orm/postgresql';
import type { QueryConfig, QueryResultRow } from 'pg';
import { countStatement } from './sql-counter.js';

interface PgClient {
  query<R extends QueryResultRow>(query: QueryConfig): Promise<{ rows: R[] }>;
}

interface PooledClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
}

/**
 * Runs one statement straight on the pg driver with a connection of the ORM's own pool (no
 * query builder, no hydration, no extra pool): for hot read models only, outside transactions.
 * A named `query` is prepared once per connection. Counted in `sql_statements_total`.
 */
export async function queryRows<R extends QueryResultRow>(em: EntityManager, query: QueryConfig): Promise<R[]> {
  if (em.isInTransaction()) throw new Error('queryRows runs outside transactions; use the EntityManager inside one');
  const pool = em.getConnection().getKnex().client as unknown as PooledClient;
  const connection = await pool.acquireConnection();
  try {
    countStatement();
    return (await connection.query<R>(query)).rows;
  } finally {
    await pool.releaseConnection(connection);
  }
}
