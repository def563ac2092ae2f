import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { recordTestEvent } from '../helpers/events.js';
import { client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * The outbox under crashes: a worker process (the built service, `node dist/src/main.js`, jobs
 * on) is SIGKILLed at random moments while events are being recorded and delivered. Whatever
 * it was doing (fanning out, sending, recording an outcome), no event may be lost: once its
 * claims lapse, a sweep delivers every event at least once.
 */
let t: TestApp;
let receiver: Receiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await receiver?.close();
  await t.close();
});

const sql = (query: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute(query, params);

async function startWorker(): Promise<ChildProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: process.env.DATABASE_URL,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    RUN_JOBS: 'true',
  };
  const child = spawn(process.execPath, ['dist/src/main.js'], { env, stdio: 'ignore' });
  children.push(child);
  const until = Date.now() + 30_000;
  while (
    (await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (Date.now() > until || child.exitCode !== null) throw new Error('worker did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}

test('killing a worker at any moment loses no event: every one is delivered at least once', async () => {
  receiver = await startReceiver(async () => {
    await new Promise((r) => setTimeout(r, 20 + Math.random() * 60)); // keep sends in flight
    return 200;
  });
  const m = await t.merchant();
  const endpoint = (
    await client(t.url, m.test_api_key).post('/api/v2/webhook-endpoints', {
      url: `${receiver.url}/hooks`,
      events: ['*'],
    })
  ).body;
  const recorded: string[] = [];
  for (let round = 0; round < 5; round++) {
    const worker = await startWorker();
    const burst = Array.from({ length: 25 }, (_, i) => recordTestEvent(t, m.id, 'order.completed', { round, i }));
    const killAfter = round * 120 + Math.random() * 100; // from "still fanning out" to "mostly sent"
    const kill = new Promise<void>((resolve) =>
      setTimeout(() => {
        worker.kill('SIGKILL');
        worker.on('exit', () => resolve());
      }, killAfter),
    );
    recorded.push(...(await Promise.all(burst)));
    await kill;
  }
  const beforeRecovery = receiver.received.length;
  // Time passes: the dead workers' claims (leases) lapse. Then any worker's sweep finishes the job.
  await sql(`update webhook_deliveries set locked_until = now() - interval '1 second' where locked_until > now()`);
  await t.app.http.jobs.runDue(new Date());

  const got = new Set(receiver.received.map((r) => r.body.id));
  expect(recorded.filter((id) => !got.has(id))).toEqual([]);
  expect(
    await sql(`select count(*)::int as n from events where merchant_id = ? and dispatched_at is null`, [m.id]),
  ).toEqual([{ n: 0 }]);
  const statuses = await sql(
    `select status, count(*)::int as n from webhook_deliveries where endpoint_id = ? group by status`,
    [endpoint.id],
  );
  expect(statuses).toEqual([{ status: 'succeeded', n: recorded.length }]);
  const attempts = await sql(
    `select a.status, count(*)::int as n from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ? group by a.status order by a.status`,
    [endpoint.id],
  );
  // Sends cut off by a kill show up as `interrupted` attempts; none stays `sending`.
  expect((attempts as { status: string }[]).filter((a) => a.status === 'sending')).toEqual([]);
  console.log(
    `crash test: ${recorded.length} events, ${beforeRecovery} requests before recovery, ${receiver.received.length} in all; attempts ${JSON.stringify(attempts)}`,
  );
}, 120_000);
