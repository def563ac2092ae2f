import type { MikroORM } from '@mikro-orm/postgresql';
import { dbPoolConnections, dbPoolMax, dbPoolWaiting, dbTransactionDuration } from './metrics.js';

interface TransactionalConnection {
  transactional<T>(cb: (trx: unknown) => Promise<T>, options?: { ctx?: unknown }): Promise<T>;
  getKnex(): { client: { pool?: TarnPool; config: { pool?: { max?: number } } } };
}

/** The part of knex's pool (tarn) read at scrape time. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/**
 * Times every root transaction of `orm` (`commerce_db_transaction_duration_seconds`, by commit or
 * rollback); nested ones (savepoints) are part of theirs.
 */
export function instrumentTransactions(orm: MikroORM): void {
  const connection = orm.em.getConnection() as unknown as TransactionalConnection;
  const transactional = connection.transactional.bind(connection);
  connection.transactional = async (cb, options = {}) => {
    if (options.ctx) return transactional(cb, options);
    const start = performance.now();
    let outcome = 'rollback';
    try {
      const result = await transactional(cb, options);
      outcome = 'commit';
      return result;
    } finally {
      dbTransactionDuration.observe({ outcome }, (performance.now() - start) / 1000);
    }
  };
}

/** Reads the request pool's state into its gauges (a scrape sampler): connections in use and idle, units of work waiting, the maximum. */
export function poolSampler(orm: MikroORM): () => void {
  const client = (orm.em.getConnection() as unknown as TransactionalConnection).getKnex().client;
  return () => {
    const pool = client.pool;
    if (!pool) return;
    dbPoolConnections.set({ state: 'in_use' }, pool.numUsed());
    dbPoolConnections.set({ state: 'idle' }, pool.numFree());
    dbPoolWaiting.set(pool.numPendingAcquires());
    dbPoolMax.set(client.config.pool?.max ?? 0);
  };
}
