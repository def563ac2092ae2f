import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { checkoutBody } from '../helpers/fixtures.js';
import { client } from '../helpers/http.js';

/**
 * `npm start` exactly as a merchant runs it: with debug and SQL logs on,
 * a checkout paid by card and a failing storage path leave no secret or PII in the output; and a
 * signal to the npm process (TERM, then INT) stops the node server and its embedded PostgreSQL,
 * leaving no process of that DATA_DIR and a closed port.
 */

let dataDir: string;
let current: Started | undefined;
const pgPort = () => freePort();

// A failed test must not leave its server behind for the next one (same DATA_DIR).
afterEach(() => {
  if (!current) return;
  for (const [pid, signal] of [
    [current.npm.pid!, 'SIGKILL'],
    [current.nodePid, 'SIGKILL'],
    [current.postgresPid, 'SIGQUIT'],
  ] as const) {
    if (alive(pid)) process.kill(pid, signal);
  }
  current = undefined;
});

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-npm-start-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

interface Started {
  npm: ChildProcess;
  output: () => string;
  port: number;
  dbPort: number;
  nodePid: number;
  postgresPid: number;
}

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

function descendsFrom(pid: number, ancestor: number): boolean {
  for (let p = parentOf(pid); p > 1; p = parentOf(p)) if (p === ancestor) return true;
  return false;
}

/** PIDs whose command line mentions `text`. */
function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text) && alive(pid);
      } catch {
        return false;
      }
    });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

async function npmStart(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const dbPort = await pgPort();
  let output = '';
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(dbPort),
    ...env,
  };
  delete childEnv.DATABASE_URL;
  const npm = spawn('npm', ['start'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  npm.stdout.on('data', (d) => (output += d));
  npm.stderr.on('data', (d) => (output += d));
  const until = Date.now() + 150_000;
  let health = 0;
  while (Date.now() < until && health !== 200 && npm.exitCode === null) {
    health = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (health !== 200) await new Promise((r) => setTimeout(r, 300));
  }
  if (health !== 200) throw new Error(`npm start did not become healthy:\n${output}`);
  const postgresPid = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const nodePid = processesMentioning('dist/src/main.js').find((pid) => descendsFrom(pid, npm.pid!))!;
  expect(nodePid).toBeGreaterThan(0);
  expect(descendsFrom(postgresPid, nodePid)).toBe(true);
  current = { npm, output: () => output, port, dbPort, nodePid, postgresPid };
  return current;
}

/** Sends `signal` to the npm process only, then waits until nothing of that DATA_DIR is left. */
async function stopWith(s: Started, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise<number | null>((resolve) => s.npm.once('exit', resolve));
  process.kill(s.npm.pid!, signal);
  const until = Date.now() + 20_000;
  const remaining = () => [s.nodePid, s.postgresPid, ...processesMentioning(dataDir)].filter(alive);
  while (Date.now() < until && remaining().length) await new Promise((r) => setTimeout(r, 200));
  expect(remaining()).toEqual([]);
  expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  expect(await portOpen(s.port)).toBe(false);
  expect(await portOpen(s.dbPort)).toBe(false);
  await exited;
  current = undefined;
}

test('first start with debug and SQL logs: paying by card and a storage failure leave no secret or PII in the output; SIGTERM to npm stops node and PostgreSQL', async () => {
  const s = await npmStart({ LOG_LEVEL: 'debug', SQL_DEBUG: 'true' });
  const testKey = /glm_test_[0-9A-Za-z]{32}/.exec(s.output())![0];
  const api = client(`http://127.0.0.1:${s.port}`, testKey);
  const email = 'Jane.Secretive+leak@example.org';
  const card = { number: '5555555555554444', exp_month: 11, exp_year: 2031, cvc: '987' };
  const body = (extra = {}) => ({
    ...checkoutBody([['THERM', 'Thermometer', 2599, 1]]),
    customer: { email, first_name: 'Jane', last_name: 'Doe', phone: '+15125550199' },
    ...extra,
  });

  const endpoint = await api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
  expect(endpoint.body.secret).toMatch(/^whsec_/);
  const first = (await api.post('/api/v2/checkout', body())).body.data;
  const paid = await api.post(`/api/v2/test-helpers/checkout/${first.checkout_id}/pay`, { card });
  expect([paid.status, paid.body.error]).toEqual([200, undefined]);
  // A client error carrying a card number (Luhn-invalid).
  const second = (await api.post('/api/v2/checkout', body())).body.data;
  const bad = await api.post(`/api/v2/test-helpers/checkout/${second.checkout_id}/pay`, {
    card: { ...card, number: '5555555555554445' },
  });
  expect(bad.status).toBeGreaterThanOrEqual(400);
  // A storage failure in the middle of paying: an unexpected error whose SQL holds the customer's data.
  const db = new pg.Client({
    host: '127.0.0.1',
    port: s.dbPort,
    user: 'postgres',
    password: 'postgres',
    database: 'commerce',
  });
  await db.connect();
  await db.query(
    `create function fail_orders() returns trigger language plpgsql as $$ begin raise exception 'simulated storage failure'; end $$`,
  );
  await db.query(`create trigger fail_orders before insert on orders for each row execute function fail_orders()`);
  const failed = await api.post(`/api/v2/test-helpers/checkout/${second.checkout_id}/pay`, { card });
  await db.query(`drop trigger fail_orders on orders; drop function fail_orders()`);
  await db.end();
  expect(failed.status).toBe(500);

  await stopWith(s, 'SIGTERM');
  const out = s.output();
  // The logs were on: queries (log entries: JSON, its quotes escaped) and the unexpected error were written.
  expect(out).toMatch(/insert into \\?"orders\\?"/i);
  expect(out).toMatch(/simulated storage failure/);
  // ...and none of these is in them.
  expect(out.split(testKey).length - 1).toBe(1); // the CONTRACT's one line: the demo's test key
  const leaks = {
    liveKey: /glm_live_/.test(out),
    webhookSecret: /whsec_[0-9A-Za-z]/.test(out) || out.includes(endpoint.body.secret),
    cardNumbers: ['5555555555554444', '5555555555554445'].filter((n) => out.includes(n)),
    cvc: /cvc\W{0,4}987/.test(out),
    processorTokens: /tok_[0-9A-Za-z]/.test(out),
    email: out.toLowerCase().includes(email.toLowerCase()),
    phone: out.includes('5125550199'),
  };
  expect(leaks).toEqual({
    liveKey: false,
    webhookSecret: false,
    cardNumbers: [],
    cvc: false,
    processorTokens: false,
    email: false,
    phone: false,
  });
}, 240_000);

test('SIGINT to npm start stops node and PostgreSQL too', async () => {
  const s = await npmStart({ LOG_LEVEL: 'warn' });
  expect(s.output()).not.toMatch(/glm_test_/); // the demo merchant exists already: nothing printed again
  await stopWith(s, 'SIGINT');
}, 240_000);

test("the embedded PostgreSQL's port taken: the start exits non-zero naming the port and the setting that moves it", async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(port),
      LOG_LEVEL: 'warn',
    };
    const { code, output } = await failedStart(env);
    expect(code).not.toBe(0);
    expect(output).toContain(`port ${port} is taken`);
    expect(output).toContain('EMBEDDED_PG_PORT');
    expect(output).not.toContain('failed to start: undefined');
  } finally {
    blocker.close();
  }
}, 240_000);

test('a start that fails once PostgreSQL is up (its HTTP port taken) exits non-zero and stops PostgreSQL', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
    };
    const { code, output } = await failedStart(env);
    expect(output).toMatch(/EADDRINUSE/);
    expect(code).not.toBe(0);
    const until = Date.now() + 20_000;
    while (Date.now() < until && processesMentioning(dataDir).length) await new Promise((r) => setTimeout(r, 200));
    expect(processesMentioning(dataDir)).toEqual([]);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  } finally {
    blocker.close();
  }
}, 240_000);

/** `npm start` with `env` (no DATABASE_URL) that is expected to fail: its exit code and everything it wrote. */
async function failedStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const childEnv = { ...env };
  delete childEnv.DATABASE_URL;
  let output = '';
  const npm = spawn('npm', ['start'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  npm.stdout.on('data', (d) => (output += d));
  npm.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => npm.once('exit', resolve));
  return { code, output };
}
