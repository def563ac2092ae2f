import { jest } from '@jest/globals';
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
  const [job] = await t.orm.em
    .fork()
    .getConnection()
    .execute(`select name, repeat_interval from agenda_jobs where name = 'test.sweep'`);
  expect(job).toEqual({ name: 'test.sweep', repeat_interval: '1 minute' });
}, 30_000);

describe('prompt kicks are paced', () => {
  const runs: { at: number; whole: boolean }[] = [];
  let runner: JobRunner;
  /** The runs of the burst: 61 kicks 5 ms apart at a pace of 100 ms, the 31st asking for a whole run. */
  let kicked: { at: number; whole: boolean }[];
  let first: number;
  let lastKick: number;
  const wait = (ms: number) => jest.advanceTimersByTimeAsync(ms);

  beforeAll(async () => {
    const record = (whole: boolean) => () => {
      runs.push({ at: performance.now(), whole });
      return new Promise<void>((r) => setTimeout(r, 5));
    };
    const sweep: Sweep = {
      name: 'test.paced',
      every: '1 hour',
      run: record(true),
      prompt: record(false),
      kickPaceMs: 100,
    };
    runner = new JobRunner(t.orm, process.env.DATABASE_URL!, [sweep]);
    await runner.start();
    // The pacing is timers and performance.now(): on a fake clock each run lands where the pace puts
    // it, however busy the machine (promises and I/O stay real).
    jest.useFakeTimers({
      doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'Date', 'hrtime'],
    });
    first = performance.now();
    runner.kick('test.paced', 'prompt');
    lastKick = first;
    for (let i = 0; i < 60; i++) {
      await wait(5);
      lastKick = performance.now();
      runner.kick('test.paced', i === 30 ? 'run' : 'prompt');
    }
    await wait(250);
    kicked = runs.filter((r) => r.at >= first);
  }, 30_000);

  afterAll(async () => {
    jest.useRealTimers();
    await runner?.stop();
  });

  test('a burst shares a few runs, the first at once', () => {
    // 300 ms of kicks every 5 ms at a pace of 100 ms: a handful of runs, not 61.
    expect(kicked.length).toBeGreaterThanOrEqual(3);
    expect(kicked.length).toBeLessThanOrEqual(7);
    expect(kicked[0].at).toBe(first);
  });

  test('a prompt run starts a pace after the run before it', () => {
    for (let i = 1; i < kicked.length; i++)
      if (!kicked[i].whole) expect(kicked[i].at - kicked[i - 1].at).toBeGreaterThanOrEqual(100);
  });

  test('the last kick of a burst is always followed by a run', () => {
    expect(kicked.at(-1)!.at).toBeGreaterThanOrEqual(lastKick);
  });

  test('a whole run asked for in the middle of the burst happens', () => {
    expect(kicked.some((r) => r.whole)).toBe(true);
  });

  test('after a quiet spell longer than the pace, a kick runs at once', async () => {
    const quiet = performance.now();
    runner.kick('test.paced', 'prompt');
    await wait(30);
    expect(runs.filter((r) => r.at >= quiet)).toEqual([{ at: quiet, whole: false }]);
  });

  test('a whole run asked for right after a run is not paced', async () => {
    const whole = performance.now();
    runner.kick('test.paced', 'run');
    await wait(40);
    expect(runs.filter((r) => r.at >= whole)).toEqual([{ at: whole, whole: true }]);
  });
});

test('the idempotency sweep forgets keys past their 24 hours and keeps the others', async () => {
  const m = await t.merchant();
  const api = client(t.url, m.test_api_key);
  await api.post(
    '/api/v2/products',
    { name: 'Thermometer', price: 100, currency: 'USD' },
    { 'idempotency-key': 'old-key' },
  );
  await api.post(
    '/api/v2/products',
    { name: 'Thermometer', price: 100, currency: 'USD' },
    { 'idempotency-key': 'new-key' },
  );
  const conn = t.orm.em.fork().getConnection();
  await conn.execute(`update idempotency_keys set expires_at = now() - interval '1 minute' where key = 'old-key'`);
  await new JobRunner(t.orm, process.env.DATABASE_URL!, [housekeepingSweep]).runDue(new Date());
  const keys = await conn.execute(`select key from idempotency_keys where merchant_id = ? order by key`, [m.id]);
  expect(keys).toEqual([{ key: 'new-key' }]);
});
