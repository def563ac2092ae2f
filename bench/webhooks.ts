/**
 * `npm run bench` (after the products bench): starts the built service (embedded PostgreSQL in a
 * temporary DATA_DIR, jobs on) and measures
 * - webhook deliveries per second to a local receiver (node:http, answers 200 at once), for a
 *   backlog of events committed in one transaction;
 * - latency from COMMIT to the graphql-ws message, and from COMMIT to the webhook arriving, for
 *   single events (p50 / p99).
 */
import { createServer } from 'node:http';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { formatTable, percentile, startService } from './common.js';

const BACKLOG = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 3000);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 300);

async function main(): Promise<void> {
  const service = await startService({ RUN_JOBS: 'true' });
  const { base, key } = service;

  // The receiver: counts deliveries per event type, notes arrival times by event id.
  const arrivals = new Map<string, number>();
  let received = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received++;
      const id = /"id":"(evt_[^"]+)"/.exec(Buffer.concat(chunks).toString())?.[1];
      if (id && !arrivals.has(id)) arrivals.set(id, performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverPort = (receiver.address() as { port: number }).port;
  const db = new pg.Client({ connectionString: service.databaseUrl });
  let ws: ReturnType<typeof createClient> | undefined;
  try {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    await db.connect();
    const [{ id: merchantId }] = (await db.query<{ id: string }>('select id from merchants limit 1')).rows;

    const createEndpoint = (events: string[]) =>
      fetch(`${base}/api/v2/webhook-endpoints`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hook`, events }),
      });
    await createEndpoint(['bench.backlog']);
    await createEndpoint(['bench.latency']);

    // 1. Throughput: a backlog committed at once, delivered by the worker (prompted by NOTIFY).
    const deliveredBefore = received;
    const started = performance.now();
    await db.query(
      `insert into events (id, merchant_id, livemode, type, data, created_at, updated_at)
       select 'evt_bench' || g, $1, false, 'bench.backlog', jsonb_build_object('n', g, 'amount', 4995, 'currency', 'usd'), now(), now() from generate_series(1, $2) g`,
      [merchantId, BACKLOG],
    );
    while (received - deliveredBefore < BACKLOG) {
      if (performance.now() - started > 300_000)
        throw new Error(`only ${received - deliveredBefore} of ${BACKLOG} delivered`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const seconds = (performance.now() - started) / 1000;

    // 2. Latency: one event per transaction; time from COMMIT to the websocket message and to the webhook.
    ws = createClient({
      url: `${base.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
    });
    const wsArrivals = new Map<string, number>();
    let live = false;
    ws.subscribe<{ events: { eventId: string } }>(
      { query: 'subscription { events(types: ["bench.latency", "bench.probe"]) { eventId } }' },
      {
        next: (m) => {
          live = true;
          if (m.data) wsArrivals.set(m.data.events.eventId, performance.now());
        },
        error: (err) => process.stderr.write(`subscription error: ${JSON.stringify(err)}\n`),
        complete: () => undefined,
      },
    );
    for (let i = 0; !live; i++) {
      if (i > 200) throw new Error('subscription never went live');
      await db.query(
        `insert into events (id, merchant_id, livemode, type, data) values ($1, $2, false, 'bench.probe', '{}')`,
        [`evt_probe${i}`, merchantId],
      );
      await new Promise((r) => setTimeout(r, 50));
    }
    const wsLatency: number[] = [];
    const hookLatency: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const id = `evt_latency${i}`;
      await db.query('begin');
      await db.query(
        `insert into events (id, merchant_id, livemode, type, data) values ($1, $2, false, 'bench.latency', $3)`,
        [id, merchantId, { i, amount: 4995 }],
      );
      const committing = performance.now();
      await db.query('commit');
      const until = Date.now() + 15_000;
      while (!(wsArrivals.has(id) && arrivals.has(id))) {
        if (Date.now() > until) throw new Error(`event ${id} not streamed and delivered within 15 s`);
        await new Promise((r) => setImmediate(r));
      }
      wsLatency.push(wsArrivals.get(id)! - committing);
      hookLatency.push(arrivals.get(id)! - committing);
    }
    wsLatency.sort((a, b) => a - b);
    hookLatency.sort((a, b) => a - b);

    const rows = [
      [`webhook deliveries/s (${BACKLOG} events, 1 endpoint)`, (BACKLOG / seconds).toFixed(0), '', ''],
      [
        `commit -> graphql-ws message (${LATENCY_SAMPLES} events)`,
        '',
        percentile(wsLatency, 50)!.toFixed(1),
        percentile(wsLatency, 99)!.toFixed(1),
      ],
      [
        `commit -> webhook received (${LATENCY_SAMPLES} events)`,
        '',
        percentile(hookLatency, 50)!.toFixed(1),
        percentile(hookLatency, 99)!.toFixed(1),
      ],
    ];
    const header = ['case', 'per s', 'p50 ms', 'p99 ms'];
    process.stdout.write(
      `\nWebhooks and live events (one worker process, local receiver)\n\n${formatTable(header, rows)}\n\n`,
    );
  } finally {
    await ws?.dispose();
    await db.end().catch(() => undefined);
    receiver.close();
    await service.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
