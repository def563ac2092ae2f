import 'reflect-metadata';
import { buildApp } from './app.js';
import { loadConfig, type Config } from './config/config.js';
import { migrate, pendingMigrations, resolveDatabase } from './platform/db/database.js';
import { openOrm } from '../mikro-orm.config.js';
import { ensureDemoMerchant } from './modules/merchants/demo-merchant.js';
import { DEMO_OWNER_EMAIL, inviteFirstOwner } from './modules/team/team.service.js';
import { configureLivePayments, sweeps } from './modules/index.js';
import { checkStoredProcessorSecrets } from './modules/processor-accounts/processor-account.service.js';
import { JobRunner } from './platform/jobs/jobs.js';
import type { EmbeddedDatabase } from './platform/db/embedded-postgres.js';
import { isDatabaseUnavailable } from './platform/db/database-health.js';
import type { FastifyBaseLogger } from 'fastify';
import { stopTracing } from './platform/observability/tracing.js';
import type { Logger } from 'pino';
import { createLogger, logProcessWarnings, scrubText } from './platform/logging.js';

/** The process's logger: every line it writes goes through it (and its redaction), from the start. */
let processLog: Logger | undefined;

/** Starts the database, then the service; a start that fails after PostgreSQL is up stops it again (nothing is left running). */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = (processLog = createLogger(config.LOG_LEVEL));
  logProcessWarnings(log);
  const db = await resolveDatabase(config);
  try {
    await serve(config, db, log);
  } catch (err) {
    await db.stop().catch(() => undefined);
    throw err;
  }
}

/** Wiring only: migrations, demo merchant, HTTP (REST + GraphQL), jobs, graceful shutdown. */
async function serve(config: Config, db: EmbeddedDatabase, log: Logger): Promise<void> {
  const orm = await openOrm(db.url, config.DB_POOL_MAX, {
    poolGuard: config.DB_POOL_GUARD,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS ?? db.direct,
    onPoolViolation: (err) => log.error({ err }, 'a unit of work asked for a second pooled connection'),
    log,
  });
  // Processes starting together migrate one at a time (an advisory lock); with MIGRATE_ON_START=false
  // the deploy runs `npm run migrate` itself and the process waits for it.
  const applied = config.MIGRATE_ON_START ? await migrate(orm) : await waitForMigrations(orm);
  // Stored processor keys need the SECRETS_KEY that sealed them: without it live mode cannot pay.
  configureLivePayments(config);
  await checkStoredProcessorSecrets(orm.em);
  const jobs = new JobRunner(orm, db.url, sweeps);
  const app = await buildApp(config, orm, jobs, log);
  jobs.log = log;
  keepRunningThroughDatabaseErrors(log);
  if (applied.length) log.info({ applied }, 'migrations applied');

  const demo = await ensureDemoMerchant(orm.em);
  if (demo) {
    log.info({ merchant: demo.id }, 'demo merchant created');
    // Only the test key (CONTRACT): the live key and the webhook secret never go to stdout or logs.
    process.stdout.write(`\nDemo merchant ${demo.id} created. Test API key (shown once):\n  ${demo.test_api_key}\n\n`);
    const setup = await inviteFirstOwner(orm.em.fork(), demo.id, DEMO_OWNER_EMAIL);
    process.stdout.write(
      `Console owner ${DEMO_OWNER_EMAIL}: set a password with this one-time link (valid 7 days):\n  ${setup}\n\n`,
    );
  }

  if (config.RUN_JOBS) await jobs.start();
  await app.http.listen({ port: config.PORT, host: config.HOST });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 25_000).unref();
    try {
      await app.http.close(); // stops accepting, waits for in-flight requests
      await app.apollo.stop();
      log.info('http closed');
      await jobs.stop(); // lets running jobs finish
      log.info('jobs stopped');
      await orm.close();
      await db.stop();
      log.info('database closed');
      await stopTracing(); // the last spans are exported
      clearTimeout(force);
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  // embedded-postgres installs exit hooks that stop PostgreSQL at the first signal, under the
  // requests still running; our shutdown stops it last, after the requests and jobs.
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** MIGRATE_ON_START=false: waits (polling every second) until `npm run migrate` has applied every migration this build knows. */
async function waitForMigrations(orm: Awaited<ReturnType<typeof openOrm>>): Promise<string[]> {
  for (let waited = 0; ; waited++) {
    const pending = await pendingMigrations(orm);
    if (!pending.length) return [];
    if (waited % 10 === 0)
      process.stderr.write(
        `waiting for migrations (MIGRATE_ON_START=false; run npm run migrate): ${pending.length} pending\n`,
      );
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * The service never exits because its database went away: every connection of ours handles its
 * errors, and these last-resort handlers keep a stray one (a rejected promise nobody awaited, an
 * 'error' event of a dependency's connection) from ending the process. Any other uncaught
 * exception still ends it (its state can no longer be trusted; the supervisor restarts it).
 */
function keepRunningThroughDatabaseErrors(log: FastifyBaseLogger): void {
  process.on('unhandledRejection', (err) =>
    log.error({ err }, 'unhandled promise rejection (the service keeps running)'),
  );
  process.on('uncaughtException', (err) => {
    if (isDatabaseUnavailable(err)) {
      log.warn({ err }, 'database connection error outside a request (the service keeps running)');
      return;
    }
    log.fatal({ err }, 'uncaught exception: exiting');
    process.exit(1);
  });
}

main().catch((err: unknown) => {
  // Before the configuration is read (an invalid one) there is no level yet: info.
  (processLog ?? createLogger('info')).fatal(
    { err },
    `failed to start: ${scrubText(err instanceof Error ? err.message : String(err))}`,
  );
  process.exit(1);
});
