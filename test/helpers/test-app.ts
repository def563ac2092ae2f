import 'reflect-metadata';
import type { MikroORM } from '@mikro-orm/postgresql';
import { buildApp, type App } from '../../src/app.js';
import { client, type Client } from './http.js';
import { loadConfig } from '../../src/config/config.js';
import { openOrm } from '../../mikro-orm.config.js';
import { JobRunner } from '../../src/platform/jobs/jobs.js';
import { setPublicUrl } from '../../src/platform/links.js';
import { sweeps } from '../../src/modules/index.js';
import { createMerchant, type CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';

export interface TestApp {
  url: string;
  orm: MikroORM;
  app: App;
  /** A new merchant with its keys. */
  merchant(name?: string): Promise<CreatedMerchant>;
  /** Empties every table. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the real service on a random port against the test file's database (DATABASE_URL, test/database-per-file.mjs). */
export async function startTestApp(env: Record<string, string> = {}, opts: { port?: number } = {}): Promise<TestApp> {
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_WINDOW_MS: '3600000',
    GRAPHQL_COST_BUCKET: '100000000',
    GRAPHQL_COST_RESTORE_RATE: '100000000',
    ...env,
  });
  const orm = await openOrm(config.DATABASE_URL!, config.DB_POOL_MAX, {
    poolGuard: config.DB_POOL_GUARD,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS ?? false,
  });
  const app = await buildApp(config, orm, new JobRunner(orm, config.DATABASE_URL!, sweeps));
  await app.http.listen({ port: opts.port ?? 0, host: '127.0.0.1' }); // a fixed port: a restart of the same service
  const address = app.http.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  setPublicUrl(`http://127.0.0.1:${port}`); // links the service hands out (receipts, checkout pages) point here
  return {
    url: `http://127.0.0.1:${port}`,
    orm,
    app,
    merchant: (name = 'Test Merchant') => createMerchant(orm.em.fork(), name),
    // service_secrets stays: a running service signs its session cookies with the secret it read there at start.
    reset: () => emptyTables(orm),
    close: async () => {
      await app.http.close();
      await orm.close();
    },
  };
}

/**
 * Deletes every row but the migrations' and the service secrets', referencing tables before the
 * tables they reference, in one implicit transaction: on a test's few rows this takes milliseconds
 * where TRUNCATE, which gives every table new files, takes a quarter of a second.
 */
async function emptyTables(orm: MikroORM): Promise<void> {
  const connection = orm.em.getConnection();
  const tables = await connection.execute<{ name: string; refs: string[] }[]>(
    `select t.tablename as name,
            coalesce(array_agg(distinct r.relname::text) filter (where r.relname <> t.tablename), '{}') as refs
       from pg_tables t
       left join pg_constraint c on c.conrelid = format('%I.%I', t.schemaname, t.tablename)::regclass and c.contype = 'f'
       left join pg_class r on r.oid = c.confrelid
      where t.schemaname = 'public' and t.tablename not in ('mikro_orm_migrations', 'service_secrets')
      group by t.tablename`,
  );
  const order: string[] = [];
  const referencedBy = new Map(tables.map((t) => [t.name, tables.filter((u) => u.refs.includes(t.name)).length]));
  const ready = tables.filter((t) => referencedBy.get(t.name) === 0);
  for (let table = ready.pop(); table; table = ready.pop()) {
    order.push(table.name);
    for (const ref of table.refs) {
      const left = referencedBy.get(ref)! - 1;
      referencedBy.set(ref, left);
      if (left === 0) ready.push(tables.find((t) => t.name === ref)!);
    }
  }
  if (order.length !== tables.length) throw new Error('emptyTables: the foreign keys between tables form a cycle');
  await connection.execute(order.map((name) => `delete from "${name}";`).join(' '));
}

/** A merchant and a client with its test key. */
export interface MerchantClient {
  keys: CreatedMerchant;
  api: Client;
}

/**
 * A new merchant of a started service, with its own data and its own test clock at zero: a scenario
 * that advances the clock (or counts the merchant's rows) starts with one so nothing leaks between tests.
 */
export async function newMerchant(t: TestApp, name?: string): Promise<MerchantClient> {
  const keys = await t.merchant(name);
  return { keys, api: client(t.url, keys.test_api_key) };
}

/** The usual start of a test file: a fresh service on emptied tables, one merchant, a client with its test key. */
export async function startWithMerchant(name?: string): Promise<MerchantClient & { t: TestApp }> {
  const t = await startTestApp();
  await t.reset();
  return { t, ...(await newMerchant(t, name)) };
}
