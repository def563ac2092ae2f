import type { ChildProcess } from 'node:child_process';
import { checkoutBody } from '../helpers/fixtures.js';
import { client } from '../helpers/http.js';
import { startServiceProcess } from '../helpers/service-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** A second API process (the built service) on the same database, as behind a load balancer. */
let t: TestApp;
let other: ChildProcess;
let otherUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  // Empty tables: a processor configuration an earlier file stored (sealed with its SECRETS_KEY) would stop the second process from starting.
  await t.reset();
  const started = await startServiceProcess({ RUN_JOBS: 'false', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000' });
  other = started.child;
  otherUrl = started.url;
}, 60_000);

afterAll(async () => {
  other?.kill('SIGTERM');
  await t.close();
});

test('moving a test clock on one process is seen at once by another process that cached the key', async () => {
  const keys = await t.merchant('Two processes');
  const viaOther = client(otherUrl, keys.test_api_key);
  const before = await viaOther.post('/api/v2/checkout', checkoutBody([['X', 'Gift', 100, 1]]));
  expect(before.status).toBe(201); // the other process now holds the key (and clock) in its cache
  const moved = await client(t.url, keys.test_api_key).post('/api/v2/test-helpers/advance-clock', {
    seconds: 7 * 86400,
  });
  expect(moved.status).toBe(200);
  await new Promise((r) => setTimeout(r, 300)); // NOTIFY reaches the other process's listener
  const after = await viaOther.post('/api/v2/checkout', checkoutBody([['X', 'Gift', 100, 1]]));
  const shift = new Date(after.body.data.created_at).getTime() - new Date(before.body.data.created_at).getTime();
  expect(shift).toBeGreaterThanOrEqual(7 * 86400 * 1000);
  expect(shift).toBeLessThan(7 * 86400 * 1000 + 60_000);
});

test('keys are cached until a NOTIFY, and all are forgotten when the LISTEN connection comes back', async () => {
  const keys = await t.merchant('Reconnecting listener');
  const api = client(t.url, keys.test_api_key);
  const createdAt = async () =>
    new Date(
      (await api.post('/api/v2/checkout', checkoutBody([['X', 'Gift', 100, 1]]))).body.data.created_at,
    ).getTime();
  const first = await createdAt(); // caches the key and the clock
  const db = t.orm.em.fork().getConnection();
  // A clock moved without NOTIFY (as if the notification were lost): the cached clock still holds...
  await db.execute('update merchants set test_clock_offset_ms = test_clock_offset_ms + ? where id = ?', [
    86_400_000,
    keys.id,
  ]);
  expect((await createdAt()) - first).toBeLessThan(60_000);
  // ...until the listener reconnects: notifications sent while it was down are lost, so it forgets every key.
  await db.execute(
    `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'commerce-listener' and datname = current_database()`,
  );
  let shift = 0;
  for (let i = 0; i < 50 && shift < 86_400_000; i++) {
    await new Promise((r) => setTimeout(r, 100));
    shift = (await createdAt()) - first;
  }
  expect(shift).toBeGreaterThanOrEqual(86_400_000);
});
