import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { openOrm } from '../../mikro-orm.config.js';
import { createApiKey, revokeApiKey } from '../../src/modules/merchants/api-key.service.js';
import { ROLE_PERMISSIONS } from '../../src/modules/merchants/permissions.js';
import { createContext } from '../../src/platform/context.js';
import { migrate } from '../../src/platform/db/database.js';
import { migrationsList } from '../../migrations/index.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { client, type ApiResponse } from '../helpers/http.js';
import { describeWithPgBouncer, startPgBouncer, type PgBouncer } from '../helpers/pgbouncer.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The service behind Debian's PgBouncer in transaction mode with its default settings: no
 * statement depends on the server session, LISTEN goes to PostgreSQL directly
 * (`DATABASE_LISTEN_URL`) and a listener that cannot hear says so and falls back to polling,
 * processes starting together migrate once, and `/livez` and `/readyz` tell apart a process that
 * is up from one that can work.
 */

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const direct = new URL(process.env.DATABASE_URL!);
const directUrl = (db: string) => Object.assign(new URL(direct), { pathname: `/${db}` }).toString();
/** This test file's database (test/database-per-file.mjs). */
const fileDb = direct.pathname.slice(1);

let bouncer: PgBouncer;
let t: TestApp;
const children: ChildProcess[] = [];
const databases: string[] = [];

/** A new empty database on the test cluster. */
async function emptyDatabase(): Promise<string> {
  const name = `topology_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: directUrl('postgres') });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  databases.push(name);
  return name;
}

/** Rows of `sql` on database `db`, over a connection of their own. */
async function rowsOf<R extends pg.QueryResultRow>(db: string, sql: string): Promise<R[]> {
  const c = new pg.Client({ connectionString: directUrl(db) });
  await c.connect();
  try {
    return (await c.query<R>(sql)).rows;
  } finally {
    await c.end();
  }
}

/** A service process behind PgBouncer; killed after the file. */
async function serviceProcess(
  env: Record<string, string>,
  opts: Parameters<typeof startServiceProcess>[1] = {},
): Promise<ServiceProcess> {
  const started = startServiceProcess(
    { LOG_LEVEL: 'error', RATE_LIMIT_MAX: '100000', ...env },
    { capture: true, timeoutMs: 120_000, ...opts },
  );
  const service = await started;
  children.push(service.child);
  return service;
}

describeWithPgBouncer('behind PgBouncer in transaction mode', () => {
  beforeAll(async () => {
    bouncer = await startPgBouncer(Number(direct.port));
    t = await startTestApp({ DATABASE_URL: bouncer.url(fileDb), DATABASE_LISTEN_URL: directUrl(fileDb) });
    await t.reset();
  }, 60_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await t?.close();
    await bouncer?.stop();
    for (const db of databases)
      await rowsOf('postgres', `drop database if exists ${db} with (force)`).catch(() => undefined);
  });

  test('20 clients paying and reading through PgBouncer get no 5xx', async () => {
    const keys = await t.merchant('Pooled');
    const answers: ApiResponse[] = [];
    const paid: ApiResponse[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const api = client(t.url, keys.test_api_key);
        for (let n = 0; n < 8; n++) {
          if (i % 2 === 0) {
            const created = await api.post('/api/v2/checkout', checkoutBody([['THERM', 'Thermometer', 2000, 1]]));
            answers.push(created);
            if (created.status === 201)
              paid.push(
                await api.post(`/api/v2/test-helpers/checkout/${created.body.data.checkout_id}/pay`, {
                  card: cards.visa,
                }),
              );
          } else {
            answers.push(
              await (n % 2
                ? api.get('/api/v2/orders?limit=5')
                : api.graphql('{ orders(first: 3) { nodes { id status } } }')),
            );
            answers.push(await api.get('/api/v2/products?limit=5'));
          }
        }
      }),
    );
    const failed = [...answers, ...paid]
      .filter((a) => a.status >= 500)
      .map((a) => ({ status: a.status, body: a.body as unknown }));
    expect(failed).toEqual([]);
    expect(paid.map((a) => a.status)).toEqual(Array(80).fill(200));
  });

  test('/livez answers while up; /readyz reports the database, the migrations and a listener that hears', async () => {
    expect((await fetch(`${t.url}/livez`)).status).toBe(200);
    const ready = await fetch(`${t.url}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({
      status: 200,
      body: { status: 'ready', database: 'ok', migrations: 'applied', listener: 'hearing' },
    });
  });

  test('a listener through the pooler is deaf: the process logs an error, /readyz says so, and revoked keys and moved clocks still reach it within 2 s', async () => {
    const deaf = await serviceProcess({ DATABASE_URL: bouncer.url(fileDb), RUN_JOBS: 'false' });
    expect(deaf.output()).toContain('LISTEN connection does not hear its own notification');
    const readyz = await fetch(`${deaf.url}/readyz`);
    expect({ status: readyz.status, body: await readyz.json() }).toEqual({
      status: 503,
      body: { status: 'not_ready', database: 'ok', migrations: 'applied', listener: 'deaf' },
    });
    expect((await fetch(`${deaf.url}/livez`)).status).toBe(200);

    const keys = await t.merchant('Deaf listener');
    const owner = createContext(
      t.orm.em,
      {
        merchantId: keys.id,
        livemode: false,
        clockOffsetMs: 0,
        keyId: 'usr_owner',
        actor: { kind: 'user', id: 'usr_owner' },
        permissions: ROLE_PERMISSIONS.owner,
      },
      'req_test',
      quiet,
    );
    const { secret, api_key } = await createApiKey(owner, { name: 'Revoked soon' });
    const there = client(deaf.url, secret);
    const createdAt = async () =>
      new Date(
        (await there.post('/api/v2/checkout', checkoutBody([['X', 'Gift', 100, 1]]))).body.data.created_at,
      ).getTime();
    const before = await createdAt(); // the key and its clock are cached there now

    // The test clock moves on the process that hears: within 2 s the deaf one dates checkouts 30 days later too.
    expect(
      (await client(t.url, keys.test_api_key).post('/api/v2/test-helpers/advance-clock', { seconds: 30 * 86400 }))
        .status,
    ).toBe(200);
    const moved = Date.now();
    let shift = 0;
    while (shift < 30 * 86400_000 && Date.now() - moved < 2000) shift = (await createdAt()) - before;
    expect(shift).toBeGreaterThanOrEqual(30 * 86400_000);

    await revokeApiKey(owner, api_key.id);
    const revoked = Date.now();
    let status = 200;
    while (status !== 401 && Date.now() - revoked < 2000) status = (await there.get('/api/v2/products')).status;
    expect(status).toBe(401);
  }, 180_000);

  test('four processes starting together on an empty database all become ready, and each migration is applied once', async () => {
    const db = await emptyDatabase();
    await Promise.all(
      [0, 1, 2, 3].map((i) =>
        serviceProcess(
          { DATABASE_URL: bouncer.url(db), DATABASE_LISTEN_URL: directUrl(db), RUN_JOBS: i === 3 ? 'true' : 'false' },
          { probe: '/readyz', name: `process ${i}` },
        ),
      ),
    );
    const applied = await rowsOf<{ name: string; times: string }>(
      db,
      'select name, count(*) as times from mikro_orm_migrations group by name order by name',
    );
    expect(applied).toEqual(
      migrationsList.map((m) => ({ name: m.name, times: '1' })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    );
  }, 240_000);

  test('with MIGRATE_ON_START=false a process leaves migrations to the deploy and becomes ready once they are applied', async () => {
    const db = await emptyDatabase();
    const starting = serviceProcess(
      {
        DATABASE_URL: bouncer.url(db),
        DATABASE_LISTEN_URL: directUrl(db),
        MIGRATE_ON_START: 'false',
        RUN_JOBS: 'false',
      },
      { probe: '/readyz' },
    );
    await sleep(3000);
    expect(await rowsOf(db, `select to_regclass('mikro_orm_migrations') as t`)).toEqual([{ t: null }]);
    // The deploy's own step (npm run migrate).
    const orm = await openOrm(bouncer.url(db), 2);
    try {
      expect((await migrate(orm)).length).toBe(migrationsList.length);
    } finally {
      await orm.close();
    }
    const ready = await starting;
    expect((await fetch(`${ready.url}/readyz`)).status).toBe(200);
  }, 180_000);
});
