import { JobRunner, type Sweep } from '../../src/platform/jobs/jobs.js';
import { housekeepingSweep } from '../../src/platform/jobs/housekeeping.jobs.js';
import { client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('Agenda on PostgreSQL runs a registered sweep, and stop() waits for it', async () => {
  const runs: Date[] = [];
  const sweep: Sweep = {
    name: 'test.sweep',
    every: '1 minute',
    run: (_orm, now) => {
      runs.push(now);
      return Promise.resolve();
    },
  };
  const runner = new JobRunner(t.orm, process.env.DATABASE_URL!, [sweep]);
  await runner.start();
  const until = Date.now() + 15_000;
  while (runs.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  await runner.stop();
  expect(runs.length).toBeGreaterThanOrEqual(1);
  const [job] = await t.orm.em.fork().getConnection().execute(`select name, repeat_interval from agenda_jobs where name = 'test.sweep'`);
  expect(job).toEqual({ name: 'test.sweep', repeat_interval: '1 minute' });
}, 30_000);

test('the idempotency sweep forgets keys past their 24 hours and keeps the others', async () => {
  const m = await t.merchant();
  const api = client(t.url, m.test_api_key);
  await api.post('/api/v2/products', { name: 'Thermometer', price: 100, currency: 'USD' }, { 'idempotency-key': 'old-key' });
  await api.post('/api/v2/products', { name: 'Thermometer', price: 100, currency: 'USD' }, { 'idempotency-key': 'new-key' });
  const conn = t.orm.em.fork().getConnection();
  await conn.execute(`update idempotency_keys set expires_at = now() - interval '1 minute' where key = 'old-key'`);
  await new JobRunner(t.orm, process.env.DATABASE_URL!, [housekeepingSweep]).runDue(new Date());
  const keys = await conn.execute(`select key from idempotency_keys where merchant_id = ? order by key`, [m.id]);
  expect(keys).toEqual([{ key: 'new-key' }]);
});
