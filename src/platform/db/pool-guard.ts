import { AsyncLocalStorage } from 'node:async_hooks';
import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * What to do when a unit of work asks the pool for a second connection while its transaction
 * holds one: `throw` (tests: the path fails at once and visibly), `log` (production default: the
 * path still works, the log names it), `off`.
 */
export type PoolGuardMode = 'throw' | 'log' | 'off';

/** The guard's complaint, thrown in `throw` mode. */
export class PoolDisciplineError extends Error {
  constructor() {
    super(
      'pool discipline: a second pooled connection was requested while this unit of work holds one in a transaction (nest in the open transaction, or run the work after it commits)',
    );
    this.name = 'PoolDisciplineError';
  }
}

interface Holding {
  /** True while the transaction's callback runs (its connection is held). */
  open: boolean;
}

const holding = new AsyncLocalStorage<Holding>();

interface TransactionalConnection {
  transactional<T>(cb: (trx: unknown) => Promise<T>, options?: { ctx?: unknown }): Promise<T>;
  getKnex(): { client: { acquireConnection(): Promise<unknown> } };
}

/**
 * A request, websocket operation or job holds at most one pooled connection at a time: two per
 * unit of work deadlock the pool under load (every connection holds a transaction and waits for
 * another). This marks the callback of every root transaction of `orm` and checks each
 * acquisition from the pool against the mark. Nested transactions (savepoints) reuse the held
 * connection and pass. Work started inside a transaction but still running after it ended (a
 * detached promise) is not flagged: the mark is cleared when the callback returns.
 */
export function installPoolGuard(
  orm: MikroORM,
  mode: PoolGuardMode,
  log: (err: Error) => void = () => undefined,
): void {
  if (mode === 'off') return;
  /** Checks the unit of work holds no transaction; the complaint to fail with (`throw` mode), else undefined after logging it. */
  const violation = (): PoolDisciplineError | undefined => {
    if (!holding.getStore()?.open) return undefined;
    const err = new PoolDisciplineError();
    if (mode === 'throw') return err;
    log(err);
    return undefined;
  };
  const connection = orm.em.getConnection() as unknown as TransactionalConnection;
  const transactional = connection.transactional.bind(connection);
  connection.transactional = async (cb, options = {}) => {
    if (options.ctx) return transactional(cb, options); // a savepoint on the held connection
    const refused = violation();
    if (refused) throw refused;
    const mark: Holding = { open: false };
    return holding.run(mark, () =>
      transactional(async (trx) => {
        mark.open = true;
        try {
          return await cb(trx);
        } finally {
          mark.open = false;
        }
      }, options),
    );
  };
  // Transactions' own clients answer acquireConnection with their connection; only the pool's is checked.
  const client = connection.getKnex().client;
  const acquire = client.acquireConnection.bind(client);
  // Not async: the pool's own promise is answered (one promise less on every pooled statement).
  client.acquireConnection = () => {
    const refused = violation();
    return refused ? Promise.reject(refused) : acquire();
  };
}
