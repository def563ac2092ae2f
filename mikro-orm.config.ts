import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './src/modules/entities.js';
import { sqlLogger } from './src/platform/db/sql-counter.js';
import { migrationsList } from './migrations/index.js';
import { installPoolGuard, type PoolGuardMode } from './src/platform/db/pool-guard.js';
import { instrumentTransactions } from './src/platform/observability/db-metrics.js';
import { createLogger, knexLogOptions } from './src/platform/logging.js';
import type { Logger } from 'pino';
import { usePreparedStatements } from './src/platform/db/sql.js';

/**
 * MikroORM options for `clientUrl`; migrations are listed explicitly in migrations/index.ts. What
 * the ORM and knex would print themselves goes to `log` (pino, redacted), never to the console.
 */
export function ormConfig(clientUrl: string, poolMax = 10, log: Logger = createLogger('warn')) {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    // Every unit of work uses its own fork; touching the global EntityManager is a bug.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: ['query'],
    loggerFactory: sqlLogger,
    // The ORM's own lines (SQL_DEBUG=true: the statements, their values replaced) as log entries.
    logger: (message: string) => log.info({ source: 'orm' }, message),
    colors: false,
    // A request that cannot get a connection within 10 s answers 503 (Retry-After) rather than hang for knex's 60 s.
    pool: { min: 0, max: poolMax, acquireTimeoutMillis: 10_000 },
    driverOptions: { log: knexLogOptions(log) },
    dataloader: true,
    // Tables created by our migrations but not mapped to entities (Agenda's, rate-limit counters, the simulated processor's ledger).
    schemaGenerator: { skipTables: ['agenda_jobs', 'rate_limit_counters', 'processor_ledger'] },
    migrations: {
      tableName: 'mikro_orm_migrations',
      path: 'migrations',
      migrationsList,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
    },
  });
}

/**
 * Connects MikroORM to `url` with every module's entities. `poolGuard` checks that no unit of
 * work asks for a second pooled connection while its transaction holds one (see pool-guard.ts).
 * `preparedStatements` keeps hot statements prepared per connection (`DATABASE_PREPARED_STATEMENTS`;
 * off by default: works behind any transaction pooler).
 */
export async function openOrm(
  url: string,
  poolMax = 10,
  opts: {
    poolGuard?: PoolGuardMode;
    onPoolViolation?: (err: Error) => void;
    log?: Logger;
    preparedStatements?: boolean;
  } = {},
): Promise<MikroORM> {
  const orm = await MikroORM.init(ormConfig(url, poolMax, opts.log));
  installPoolGuard(orm, opts.poolGuard ?? 'off', opts.onPoolViolation);
  instrumentTransactions(orm);
  usePreparedStatements(orm, opts.preparedStatements ?? false);
  return orm;
}

export default ormConfig(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/commerce');
