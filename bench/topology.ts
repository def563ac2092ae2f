/**
 * `npm run bench:topology` (and the end of `npm run bench`): the production topology's latencies.
 * Debian's PgBouncer in transaction mode in front of an embedded PostgreSQL; 3 API processes and 1
 * worker through it (LISTEN straight to PostgreSQL, `DATABASE_LISTEN_URL`); 20 clients paying and
 * reading across the API processes, a graphql-ws subscriber on one of them and a webhook receiver.
 * Prints, from each event's `created_at` to its arrival, the live events' and the webhooks'
 * p50 / p99 beside the targets (300 ms and 1 s at p99), and the answers by status class.
 *
 * Env: BENCH_TOPOLOGY_SECONDS (20). Skipped (with a line saying so) when PgBouncer is not installed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startEmbeddedPostgres } from '../src/platform/db/embedded-postgres.js';
import { pgbouncerMissing, startPgBouncer } from '../test/helpers/pgbouncer-server.js';
import { formatTable, percentile, startService, type BenchService } from './common.js';
import { checkoutBody } from './flows.js';

const SECONDS = Number(process.env.BENCH_TOPOLOGY_SECONDS ?? 20);
const CLIENTS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function main(): Promise<void> {
  if (pgbouncerMissing) {
    process.stdout.write(`\nProduction topology: skipped (${pgbouncerMissing})\n\n`);
    return;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'commerce-topology-'));
  const db = await startEmbeddedPostgres({ dataDir: dir, throwaway: true });
  const bouncer = await startPgBouncer(Number(new URL(db.url).port));
  const env = { DATABASE_URL: bouncer.url('commerce'), DATABASE_LISTEN_URL: db.url, DB_POOL_MAX: '5' };
  const processes: BenchService[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const createdAt = /"created_at":"([^"]+)"/.exec(Buffer.concat(chunks).toString())?.[1];
      if (createdAt) hookMs.push(Date.now() - new Date(createdAt).getTime());
      res.writeHead(200).end();
    });
  });
  const hookMs: number[] = [];
  const liveMs: number[] = [];
  let ws: ReturnType<typeof createClient> | undefined;
  try {
    // The first API process migrates and prints the demo key; the others start on the migrated database.
    processes.push(await startService({ ...env, RUN_JOBS: 'false' }));
    const { key } = processes[0];
    processes.push(
      ...(await Promise.all([
        startService({ ...env, RUN_JOBS: 'false' }, [], { demoKey: false }),
        startService({ ...env, RUN_JOBS: 'false' }, [], { demoKey: false }),
        startService({ ...env, RUN_JOBS: 'true' }, [], { demoKey: false }),
      ])),
    );
    const apis = processes.slice(0, 3).map((p) => p.base);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = (base: string, url: string, body: unknown) =>
      fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });

    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    if ((await post(apis[0], '/api/v2/webhook-endpoints', { url: hook, events: ['*'] })).status !== 201)
      throw new Error('webhook endpoint not created');

    ws = createClient({
      url: `${apis[1].replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
    });
    let live = false;
    ws.subscribe<{ events: { createdAt: string } }>(
      { query: 'subscription { events { eventId createdAt } }' },
      {
        next: (m) => {
          if (!m.data) return;
          if (live) liveMs.push(Date.now() - new Date(m.data.events.createdAt).getTime());
          live = true;
        },
        error: (err) => process.stderr.write(`subscription error: ${JSON.stringify(err)}\n`),
        complete: () => undefined,
      },
    );
    for (let i = 0; !live; i++) {
      if (i > 200) throw new Error('the subscription never went live');
      await post(apis[0], '/api/v2/checkout', checkoutBody(0));
      await sleep(100);
    }
    hookMs.length = 0; // the probes' deliveries were made before the measured traffic

    const statuses = new Map<string, number>();
    const count = (status: number) =>
      statuses.set(`${Math.floor(status / 100)}xx`, (statuses.get(`${Math.floor(status / 100)}xx`) ?? 0) + 1);
    let orders = 0;
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        while (Date.now() < until) {
          if (i % 2 === 0) {
            const created = await post(apis[i % 3], '/api/v2/checkout', checkoutBody(i));
            count(created.status);
            if (created.status !== 201) continue;
            const { data } = (await created.json()) as { data: { checkout_id: string } };
            const paid = await post(apis[(i + 1) % 3], `/api/v2/test-helpers/checkout/${data.checkout_id}/pay`, {
              card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' },
            });
            count(paid.status);
            if (paid.status === 200) orders++;
            await paid.arrayBuffer();
          } else {
            const read = await fetch(`${apis[i % 3]}/api/v2/orders?limit=5`, { headers });
            count(read.status);
            await read.arrayBuffer();
          }
          await sleep(20);
        }
      }),
    );
    await sleep(2000); // the last deliveries
    const rows = [
      [
        `live events (graphql-ws, ${liveMs.length})`,
        ms(percentile(liveMs, 50)),
        ms(percentile(liveMs, 99)),
        '≤ 300',
        verdict((percentile(liveMs, 99) ?? Infinity) <= 300),
      ],
      [
        `webhooks (${hookMs.length})`,
        ms(percentile(hookMs, 50)),
        ms(percentile(hookMs, 99)),
        '≤ 1000',
        verdict((percentile(hookMs, 99) ?? Infinity) <= 1000),
      ],
    ];
    process.stdout.write(
      `\nProduction topology: 3 API processes + 1 worker behind PgBouncer (transaction mode), ${CLIENTS} clients for ${SECONDS} s\n` +
        `${orders} orders paid; answers ${[...statuses].map(([k, v]) => `${k} ${v}`).join(', ')}\n\n` +
        `${formatTable(['created_at -> arrival', 'p50 ms', 'p99 ms', 'target p99', ''], rows)}\n\n`,
    );
  } finally {
    await ws?.dispose();
    receiver.close();
    for (const p of processes) await p.stop();
    await bouncer.stop();
    await db.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const ms = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(0));
const verdict = (held: boolean) => (held ? 'holds' : 'missed');

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
