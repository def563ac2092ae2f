import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { client } from '../helpers/http.js';

/**
 * The README's quickstart, exactly as written, so that it cannot rot: the service started the way
 * the README says (`npm start`, on a fresh data directory), the test key it prints, then the fenced
 * block marked `# quickstart` run by bash with `set -euo pipefail`. The block is given only what
 * the README tells the reader to set (`KEY`) and this run's addresses (`BASE`, `HOOK_PORT`, which the
 * block reads with defaults). Every `# →` line of the block is output it must print, in order.
 */

const README_BASE = 'http://localhost:4000';

/** The fenced bash block whose first line is `# quickstart`. */
function quickstartBlock(markdown: string): string {
  const blocks = [...markdown.matchAll(/^```bash\n(# quickstart\n[\s\S]*?)^```$/gm)].map((m) => m[1]);
  expect(blocks).toHaveLength(1);
  return blocks[0];
}

/** The block's `# → …` lines, as patterns of whole output lines: `…` is any text, the README's address this run's. */
function shownOutputs(block: string, base: string): RegExp[] {
  return [...block.matchAll(/^# → (.*)$/gm)].map((m) => {
    const text = m[1].trim().replaceAll(README_BASE, base);
    return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('…', '.*')}$`);
  });
}

/** The patterns no line of `lines` matches in order (each after the line the previous one matched). */
function missingInOrder(patterns: RegExp[], lines: string[]): string[] {
  const missing: string[] = [];
  let at = 0;
  for (const pattern of patterns) {
    const found = lines.findIndex((line, i) => i >= at && pattern.test(line));
    if (found < 0) missing.push(String(pattern));
    else at = found + 1;
  }
  return missing;
}

/** Runs `script` with bash in `cwd`, in a process group of its own (its background receiver goes with it). */
function runBash(
  script: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const bash = spawn('bash', ['-c', `set -euo pipefail\n${script}`], {
    cwd,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  bash.stdout.on('data', (d) => (stdout += d));
  bash.stderr.on('data', (d) => (stderr += d));
  const killGroup = () => {
    try {
      process.kill(-bash.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(killGroup, timeoutMs);
  return new Promise((resolve) =>
    bash.once('close', (code) => {
      clearTimeout(timer);
      killGroup(); // a background process the block left behind
      resolve({ code, stdout, stderr });
    }),
  );
}

let dataDir: string;
let workDir: string;
let npm: ChildProcess;
let output = '';
let base: string;
let key: string;
let run: { code: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-quickstart-data-'));
  workDir = await mkdtemp(path.join(tmpdir(), 'commerce-quickstart-'));
  const port = await freePort();
  base = `http://localhost:${port}`;
  // As the README says: `npm start` with no DATABASE_URL (an embedded PostgreSQL of its own).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  npm = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  npm.stdout!.on('data', (d) => (output += d));
  npm.stderr!.on('data', (d) => (output += d));
  const until = Date.now() + 150_000;
  let health = 0;
  while (health !== 200 && npm.exitCode === null && Date.now() < until) {
    health = await fetch(`${base}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (health !== 200) await new Promise((r) => setTimeout(r, 300));
  }
  if (health !== 200) throw new Error(`npm start did not become healthy:\n${output}`);
  // "the test key npm start printed"
  key = /Test API key \(shown once\):\s+(glm_test_[0-9A-Za-z]+)/.exec(output)![1];
  run = await runBash(
    quickstartBlock(readFileSync(new URL('../../README.md', import.meta.url), 'utf8')),
    workDir,
    { BASE: base, KEY: key, HOOK_PORT: String(await freePort()) },
    180_000,
  );
}, 360_000);

afterAll(async () => {
  if (npm && npm.exitCode === null) {
    const exited = new Promise((resolve) => npm.once('exit', resolve));
    npm.kill('SIGTERM'); // npm start stops node and its embedded PostgreSQL
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 30_000)))]);
    clearTimeout(timer);
    if (npm.exitCode === null) npm.kill('SIGKILL');
  }
  const postmaster = path.join(dataDir, 'pg', 'postmaster.pid');
  if (existsSync(postmaster)) {
    try {
      process.kill(Number(readFileSync(postmaster, 'utf8').split('\n')[0]), 'SIGQUIT');
    } catch {
      // already stopped
    }
  }
  await rm(dataDir, { recursive: true, force: true });
  await rm(workDir, { recursive: true, force: true });
}, 60_000);

test('the README has one block marked # quickstart, and it shows the output of every step', () => {
  const block = quickstartBlock(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));
  expect(shownOutputs(block, base).length).toBeGreaterThanOrEqual(8);
});

test('the quickstart runs as written against npm start and prints every output its # → lines show, in order', () => {
  const lines = run.stdout.split('\n');
  const shown = shownOutputs(quickstartBlock(readFileSync(new URL('../../README.md', import.meta.url), 'utf8')), base);
  const missing = missingInOrder(shown, lines);
  // On a failure the comparison shows what the block printed, and npm start's output.
  const failed = run.code !== 0 || missing.length > 0 || run.stderr !== '';
  expect({
    code: run.code,
    missing,
    stderr: run.stderr,
    printed: failed ? `${run.stdout}\n--- npm start:\n${output}` : 'ok',
  }).toEqual({ code: 0, missing: [], stderr: '', printed: 'ok' });
});

test('after the quickstart the order is completed and partly refunded, the refund succeeded, and the receiver got the signed test event', async () => {
  expect(run.stdout).toMatch(/^order completed, partially_refunded$/m);
  expect(run.stdout).toMatch(/^refund succeeded: 540 to the HSA\/FSA card, 460 to the regular card$/m);
  expect(run.stdout).toMatch(/^receiver: webhook_endpoint\.test evt_\w+, signed t=…,v1=…$/m);
  const api = client(base, key);
  const orders = await api.get('/api/v2/orders?limit=10');
  expect(
    orders.body.data.map((o: { status: string; payment_status: string; amount: number }) => [
      o.status,
      o.payment_status,
      o.amount,
    ]),
  ).toEqual([['completed', 'partially_refunded', 3699]]);
  const refunds = await api.get(`/api/v2/refunds?order_id=${orders.body.data[0].id}`);
  expect(refunds.body.data.map((r: { status: string; amount: number }) => [r.status, r.amount])).toEqual([
    ['succeeded', 1000],
  ]);
  const endpoints = await api.get('/api/v2/webhook-endpoints');
  expect(endpoints.body.data.map((e: { url: string; status: string }) => e.status)).toEqual(['enabled']);
  // the receipt the block saved where it ran
  expect((await readFile(path.join(workDir, 'receipt.pdf'))).subarray(0, 5).toString()).toBe('%PDF-');
});
