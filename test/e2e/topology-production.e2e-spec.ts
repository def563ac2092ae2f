import 'reflect-metadata';
import pg from 'pg';
import { createApiKey, revokeApiKey } from '../../src/modules/merchants/api-key.service.js';
import { ROLE_PERMISSIONS } from '../../src/modules/merchants/permissions.js';
import { createContext } from '../../src/platform/context.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { wsClient } from '../helpers/graphql-ws.js';
import { client, type ApiResponse } from '../helpers/http.js';
import { describeWithPgBouncer, startPgBouncer, type PgBouncer } from '../helpers/pgbouncer.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

/**
 * The production topology: 3 API processes and 1 worker, all through PgBouncer in transaction
 * mode (LISTEN straight to PostgreSQL), 20 clients paying and reading across them, a graphql-ws
 * subscriber and a webhook receiver. No 5xx, no acknowledged order missing, a revoked key
 * refused by every process within 2 s, one test clock across processes; live-event and webhook
 * latencies (p99) are measured and printed.
 */

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const direct = process.env.DATABASE_URL!;
/** This test file's database (test/database-per-file.mjs). */
const fileDb = new URL(direct).pathname.slice(1);
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.99) - 1)];

let bouncer: PgBouncer;
let t: TestApp;
const processes: ServiceProcess[] = [];

describeWithPgBouncer('3 API processes and a worker behind PgBouncer', () => {
  beforeAll(async () => {
    bouncer = await startPgBouncer(Number(new URL(direct).port));
    // Setup and the console's actions (revoking a key) only: no client traffic goes here.
    t = await startTestApp({ DATABASE_URL: bouncer.url(fileDb), DATABASE_LISTEN_URL: direct });
    await t.reset();
    const env = {
      DATABASE_URL: bouncer.url(fileDb),
      DATABASE_LISTEN_URL: direct,
      LOG_LEVEL: 'error',
      RATE_LIMIT_MAX: '1000000',
      DB_POOL_MAX: '5',
    };
    processes.push(
      ...(await Promise.all(
        ['api 1', 'api 2', 'api 3', 'worker'].map((name) =>
          startServiceProcess(
            { ...env, RUN_JOBS: name === 'worker' ? 'true' : 'false' },
            { capture: true, probe: '/readyz', name, timeoutMs: 180_000 },
          ),
        ),
      )),
    );
  }, 240_000);

  afterAll(async () => {
    for (const p of processes) p.child.kill('SIGKILL');
    await t?.close();
    await bouncer?.stop();
  });

  test('20 clients, a live subscriber and a webhook receiver: no 5xx, nothing acknowledged missing, one clock, revocation everywhere within 2 s', async () => {
    const apis = processes.slice(0, 3);
    const shop = await t.merchant('Topology');
    const receiver = await startReceiver();
    expect(
      (
        await client(apis[0].url, shop.test_api_key).post('/api/v2/webhook-endpoints', {
          url: `${receiver.url}/hooks`,
          events: ['*'],
        })
      ).status,
    ).toBe(201);

    // The live subscriber, on another process than most payments.
    const live: { at: number; createdAt: string }[] = [];
    const ws = wsClient(apis[1].url, shop.test_api_key);
    const unsubscribe = ws.subscribe<{ events: { createdAt: string } }>(
      { query: 'subscription { events { eventId createdAt } }' },
      {
        next: (m) => m.data && live.push({ at: Date.now(), createdAt: m.data.events.createdAt }),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    for (let i = 0; live.length === 0 && i < 100; i++) {
      await client(apis[0].url, shop.test_api_key).post('/api/v2/checkout', checkoutBody([['X', 'Probe', 100, 1]]));
      await sleep(100);
    }
    expect(live.length).toBeGreaterThan(0);

    const answers: ApiResponse[] = [];
    const acknowledged: string[] = [];
    let running = true;
    const clients = Array.from({ length: 20 }, async (_, i) => {
      const api = client(apis[i % 3].url, shop.test_api_key);
      while (running) {
        if (i % 2 === 0) {
          const created = await api.post('/api/v2/checkout', checkoutBody([['THERM', 'Thermometer', 2000, 1]]));
          answers.push(created);
          if (created.status !== 201) continue;
          const paid = await client(apis[(i + 1) % 3].url, shop.test_api_key).post(
            `/api/v2/test-helpers/checkout/${created.body.data.checkout_id}/pay`,
            { card: cards.visa },
          );
          answers.push(paid);
          if (paid.status === 200) acknowledged.push(paid.body.id);
        } else
          answers.push(
            await (i % 4 === 1
              ? api.get('/api/v2/orders?limit=5')
              : api.graphql('{ orders(first: 3) { nodes { id status } } }')),
          );
        await sleep(20);
      }
    });

    // Meanwhile: one test clock across processes (another merchant's, so event times stay real).
    const clocked = await t.merchant('Clocked');
    const dated = async (p: ServiceProcess) =>
      new Date(
        (await client(p.url, clocked.test_api_key).post('/api/v2/checkout', checkoutBody([['X', 'Gift', 100, 1]]))).body
          .data.created_at,
      ).getTime();
    for (const p of apis) await dated(p); // every process caches the key and its clock
    expect(
      (
        await client(apis[0].url, clocked.test_api_key).post('/api/v2/test-helpers/advance-clock', {
          seconds: 30 * 86400,
        })
      ).status,
    ).toBe(200);
    const clocks = await Promise.all(apis.map(dated));
    expect(Math.max(...clocks) - Math.min(...clocks)).toBeLessThan(60_000);
    expect(Math.min(...clocks) - Date.now()).toBeGreaterThan(29 * 86400_000);

    // Meanwhile: a key revoked in the console is refused by every process within 2 s.
    const owner = createContext(
      t.orm.em,
      {
        merchantId: shop.id,
        livemode: false,
        clockOffsetMs: 0,
        keyId: 'usr_owner',
        actor: { kind: 'user', id: 'usr_owner' },
        permissions: ROLE_PERMISSIONS.owner,
      },
      'req_test',
      quiet,
    );
    const { secret, api_key } = await createApiKey(owner, { name: 'Revoked under load' });
    for (const p of apis) expect((await client(p.url, secret).get('/api/v2/products?limit=1')).status).toBe(200);
    await revokeApiKey(owner, api_key.id);
    const revokedAt = Date.now();
    const refusedAfter = await Promise.all(
      apis.map(async (p) => {
        while ((await client(p.url, secret).get('/api/v2/products?limit=1')).status !== 401)
          if (Date.now() - revokedAt > 5000) return Infinity;
        return Date.now() - revokedAt;
      }),
    );
    expect(refusedAfter.filter((ms) => ms > 2000)).toEqual([]);

    await sleep(8000);
    running = false;
    await Promise.all(clients);
    await sleep(3000); // the last events and webhooks arrive
    unsubscribe();
    await ws.dispose();

    expect(answers.filter((a) => a.status >= 500).map((a) => ({ status: a.status, body: a.body as unknown }))).toEqual(
      [],
    );
    expect(acknowledged.length).toBeGreaterThan(20);
    const db = new pg.Client({ connectionString: direct });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string }>('select id from orders where id = any($1)', [acknowledged]);
      expect(acknowledged.filter((id) => !rows.some((r) => r.id === id))).toEqual([]);
    } finally {
      await db.end();
    }
    const liveMs = live.map((e) => e.at - new Date(e.createdAt).getTime());
    const hookMs = receiver.received
      .filter((r) => r.body.created_at)
      .map((r) => r.at - new Date(r.body.created_at).getTime());
    expect(hookMs.length).toBeGreaterThan(0);
    console.log(
      `production topology: ${answers.length} answers, ${acknowledged.length} orders acknowledged; revoked key refused after ${refusedAfter.join(' / ')} ms; ` +
        `live events p99 ${p99(liveMs)} ms (${liveMs.length}), webhooks p99 ${p99(hookMs)} ms (${hookMs.length})`,
    );
    await receiver.close();
    for (const p of processes) expect(p.child.exitCode).toBeNull();
  }, 180_000);
});
