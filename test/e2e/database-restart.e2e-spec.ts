import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openOrm } from '../../mikro-orm.config.js';
import { createMerchant, type CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';
import { reverseAbandonedAttempts } from '../../src/modules/payments/payment-journal.js';
import { migrate } from '../../src/platform/db/database.js';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/platform/db/embedded-postgres.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { collect, untilLive, wsClient, type EventNode } from '../helpers/graphql-ws.js';
import { client, type ApiResponse } from '../helpers/http.js';
import { startServiceProcess } from '../helpers/service-process.js';
import { ledgerAccounting, nothingUnaccounted } from '../helpers/ledger.js';
import { stopPostgres } from '../helpers/postgres.js';

/**
 * PostgreSQL stops and starts under the service, as in a managed database's maintenance window or
 * failover: an API process (RUN_JOBS=false) and a worker process (RUN_JOBS=true) serve 20 clients
 * paying and reading while the database is stopped (fast, immediate, and once for 30 s) and
 * started again. Neither process exits; while the database is down every request answers 503
 * `service_unavailable` with Retry-After within a second and /healthz says 503; once it is back,
 * /healthz says 200 within 2 s and requests succeed within 5 s; the live stream misses no event;
 * every acknowledged order is readable and reconciliation settles every charge left in flight.
 */

const CLIENTS = 20;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dataDir: string;
let pgPort: number;
let db: EmbeddedDatabase;
const services: { name: string; url: string; child: ChildProcess; exits: (number | null)[] }[] = [];

async function startService(name: string, env: Record<string, string>) {
  const started = await startServiceProcess(
    {
      DATABASE_URL: db.url,
      LOG_LEVEL: process.env.RESTART_LOG ? 'error' : 'silent',
      RATE_LIMIT_MAX: '1000000',
      GRAPHQL_COST_BUCKET: '100000000',
      GRAPHQL_COST_RESTORE_RATE: '100000000',
      DB_POOL_MAX: '5',
      ...env,
    },
    { stdio: ['ignore', process.env.RESTART_LOG ? 'inherit' : 'ignore', 'inherit'], name },
  );
  const service = { name, url: started.url, child: started.child, exits: [] as (number | null)[] };
  started.child.on('exit', (code) => service.exits.push(code));
  services.push(service);
  return service;
}

/** Starts it again on the same cluster and port (durable: every acknowledged commit survives). */
async function startDatabase(): Promise<void> {
  db = await startEmbeddedPostgres({ dataDir, port: pgPort });
}

interface Answer {
  service: string;
  kind: 'pay' | 'read' | 'health';
  startedAt: number;
  ms: number;
  status: number;
  code?: string;
  retryAfter: string | null;
  orderId?: string;
}

/** 20 clients paying and reading against both processes until `stop()`; every answer is kept. */
function load(merchant: CreatedMerchant) {
  const answers: Answer[] = [];
  let running = true;
  const timed = async (service: string, kind: Answer['kind'], call: () => Promise<ApiResponse>) => {
    const startedAt = Date.now();
    const res = await call().catch(() => ({ status: 0, headers: new Headers(), body: null }));
    const answer: Answer = {
      service,
      kind,
      startedAt,
      ms: Date.now() - startedAt,
      status: res.status,
      code: res.body?.error?.code ?? res.body?.errors?.[0]?.extensions?.code,
      retryAfter: res.headers.get('retry-after'),
    };
    if (kind === 'pay' && res.status === 200) answer.orderId = res.body?.id;
    answers.push(answer);
    return res;
  };
  const clients = Array.from({ length: CLIENTS }, async (_, i) => {
    const service = services[i % services.length];
    const api = client(service.url, merchant.test_api_key);
    while (running) {
      if (i % 2 === 0) {
        const created = await timed(service.name, 'pay', () =>
          api.post(
            '/api/v2/checkout',
            checkoutBody([
              ['THERM', 'Thermometer', 2000, 1],
              ['CANDY', 'Candy', 1000, 1],
            ]),
          ),
        );
        if (created.status === 201)
          await timed(service.name, 'pay', () =>
            api.post(`/api/v2/test-helpers/checkout/${created.body.data.checkout_id}/pay`, {
              hsa_fsa_card: cards.hsa,
              card: cards.visa,
            }),
          );
      } else {
        await timed(service.name, 'read', () =>
          i % 4 === 1 ? api.get('/api/v2/orders?limit=5') : api.graphql('{ orders(first: 3) { nodes { id status } } }'),
        );
      }
      await sleep(20);
    }
  });
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(clients);
    },
  };
}

/** Polls /healthz of every process until `until()`; returns each answer with its time. */
function watchHealth() {
  const seen: { service: string; at: number; status: number }[] = [];
  let running = true;
  const loops = services.map(async (s) => {
    while (running) {
      const status = await fetch(`${s.url}/healthz`, { signal: AbortSignal.timeout(3000) }).then(
        (r) => r.status,
        () => 0,
      );
      seen.push({ service: s.name, at: Date.now(), status });
      await sleep(100);
    }
  });
  return {
    seen,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

let orm: MikroORM;
let merchant: CreatedMerchant;
const acknowledged = new Set<string>();

/** A page of the event log, oldest first, as the stream check reads it. */
interface EventLogPage {
  events: { nodes: Pick<EventNode, 'eventId'>[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-restart-'));
  pgPort = await freePort();
  await startDatabase();
  orm = await openOrm(db.url, 2);
  await migrate(orm);
  merchant = await createMerchant(orm.em.fork(), 'Restart');
  await orm.close();
  await startService('api', { RUN_JOBS: 'false' });
  await startService('worker', { RUN_JOBS: 'true' });
  const api = client(services[0].url, merchant.test_api_key);
  expect(
    (
      await api.post('/api/v2/products', {
        name: 'Digital thermometer',
        price: 2000,
        currency: 'USD',
        merchant_product_id: 'THERM',
      })
    ).status,
  ).toBe(201);
}, 120_000);

afterAll(async () => {
  for (const s of services) s.child.kill('SIGKILL');
  await db?.stop().catch(() => undefined);
});

describe.each([
  ['fast', 3_000],
  ['immediate', 3_000],
  ['fast', 30_000],
] as const)('PostgreSQL stopped (%s) for %d ms under load', (mode, downMs) => {
  test('the processes stay up, answer 503 quickly while it is down, and recover by themselves', async () => {
    const live = wsClient(services[0].url, merchant.test_api_key);
    const stream = collect<{ events: Pick<EventNode, 'eventId' | 'type' | 'cursor'> }>(
      live,
      `subscription { events { eventId type cursor } }`,
    );
    await untilLive(stream, () =>
      client(services[0].url, merchant.test_api_key).post('/api/v2/checkout', checkoutBody([['X', 'Probe', 100, 1]])),
    );
    const firstCursor = stream.messages[0].events.cursor;

    const traffic = load(merchant);
    const health = watchHealth();
    await sleep(1500);

    const stopAt = Date.now();
    await stopPostgres(dataDir, mode);
    const goneAt = Date.now();
    await sleep(downMs);
    const restartAt = Date.now();
    await startDatabase();
    const upAt = Date.now();

    // Requests succeed again within 5 s of the database being back, on every process.
    for (const s of services) {
      const api = client(s.url, merchant.test_api_key);
      let ok = false;
      while (!ok && Date.now() - upAt < 5_000)
        ok = (await api.get('/api/v2/products')).status === 200 || (await sleep(100), false);
      expect({ service: s.name, recovered: ok }).toEqual({ service: s.name, recovered: true });
    }
    await sleep(1500);
    await traffic.stop();
    await health.stop();

    // Nobody exited.
    for (const s of services) expect({ service: s.name, exits: s.exits }).toEqual({ service: s.name, exits: [] });

    // Never a 500; every 503 is the spec's service_unavailable with Retry-After.
    const failures = traffic.answers.filter((a) => a.status >= 500 || a.status === 0);
    expect(failures.filter((a) => a.status !== 503 || a.code !== 'service_unavailable' || !a.retryAfter)).toEqual([]);
    // While the database is gone (after a grace for the stop itself), every request answers 503 within 1 s.
    const whileDown = traffic.answers.filter((a) => a.startedAt > goneAt + 500 && a.startedAt + a.ms < restartAt);
    expect(whileDown.length).toBeGreaterThan(20);
    expect(whileDown.filter((a) => a.status !== 503 || a.ms > 1000)).toEqual([]);
    expect(traffic.answers.filter((a) => a.startedAt > goneAt && a.startedAt < restartAt && a.ms > 1000)).toEqual([]);
    // /healthz: 503 while down, 200 within 2 s of the database being back.
    for (const s of services) {
      const mine = health.seen.filter((h) => h.service === s.name);
      expect(mine.filter((h) => h.at > goneAt + 500 && h.at < restartAt && h.status !== 503)).toEqual([]);
      const backAt = mine.find((h) => h.at > upAt && h.status === 200)?.at;
      expect(backAt).toBeDefined();
      expect(backAt! - upAt).toBeLessThan(2_000);
    }
    expect(
      traffic.answers.filter((a) => a.kind === 'pay' && a.status === 200 && a.startedAt > upAt).length,
    ).toBeGreaterThan(0);
    for (const a of traffic.answers) if (a.orderId) acknowledged.add(a.orderId);

    // The live stream missed nothing: what arrived equals the log from the first cursor on.
    const api = client(services[0].url, merchant.test_api_key);
    const logged: string[] = [];
    for (let after: string | null = firstCursor; ;) {
      const page: ApiResponse<{ data: EventLogPage }> = await api.graphql<EventLogPage>(
        `query($after: String) { events(after: $after, first: 100, order: OLDEST_FIRST) { nodes { eventId } pageInfo { hasNextPage endCursor } } }`,
        { after },
      );
      logged.push(...page.body.data.events.nodes.map((n: { eventId: string }) => n.eventId));
      if (!page.body.data.events.pageInfo.hasNextPage) break;
      after = page.body.data.events.pageInfo.endCursor;
    }
    await sleep(1500); // the stream's tail polls once a second
    const streamed = stream.messages.map((m) => m.events.eventId).slice(1);
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.slice(0, logged.length)).toEqual(logged.slice(0, streamed.length));
    expect(new Set(logged).size).toBe(logged.length);
    expect(logged.filter((id) => !streamed.includes(id))).toEqual([]);
    await live.dispose();
    console.log(
      `restart (${mode}, ${downMs} ms down, stop took ${goneAt - stopAt} ms): ${traffic.answers.length} answers, ` +
        `${whileDown.length} while down, ${failures.length} 503s, ${logged.length} events streamed`,
    );
  }, 120_000);
});

describe('afterwards', () => {
  test('every acknowledged order is readable and reconciliation settles every charge left in flight', async () => {
    expect(acknowledged.size).toBeGreaterThan(0);
    const api = client(services[0].url, merchant.test_api_key);
    for (const id of acknowledged)
      expect({ id, status: (await api.get(`/api/v2/orders/${id}`)).status }).toEqual({ id, status: 200 });
    orm = await openOrm(db.url, 2);
    try {
      // Two minutes later, as the reconciliation sweep sees them.
      await orm.em
        .fork()
        .getConnection()
        .execute(
          `update payment_attempts set updated_at = now() - interval '10 minutes' where status in ('calling', 'reversing')`,
        );
      const reversed = await reverseAbandonedAttempts(orm, quiet);
      const { problems, paidOrders, captures } = await ledgerAccounting(orm);
      expect(problems).toEqual(nothingUnaccounted);
      console.log(
        `after the restarts: ${acknowledged.size} acknowledged orders readable, ${paidOrders} paid, ${captures} captures accounted for, ${reversed} attempts left in flight reversed`,
      );
    } finally {
      await orm.close();
    }
    for (const s of services) expect(s.exits).toEqual([]);
  });
});
