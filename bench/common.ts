/** Helpers shared by the benchmarks. */
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../src/platform/db/embedded-postgres.js';

/** Polls `url` until it answers 2xx, or throws after `ms`. */
export async function waitFor(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/** CPU time used so far, in ms: of process `pid` (user + system), and of the whole machine (every core's busy time). */
export function cpuMs(pid: number): { process: number; machine: number } {
  const tick = 1000 / 100; // USER_HZ
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return {
    process: (Number(fields[11]) + Number(fields[12])) * tick,
    machine: (user + nice + system + irq + softirq + steal) * tick,
  };
}

/** A plain-text table: the first column left-aligned, the others right-aligned, a dashed rule under the header. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return `${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}`;
}

/** The token the benchmarks' services serve `/metrics` under (METRICS_TOKEN). */
export const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** SQL statements `base` has sent so far: the count of its statement-duration histogram on `/metrics` (Prometheus text). */
export async function sqlCount(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const match = /^commerce_db_statement_duration_seconds_count(?:\{\})? (\d+)/m.exec(text);
  if (!match) throw new Error(`no statement count at ${base}/metrics`);
  return Number(match[1]);
}

export interface BenchService {
  base: string;
  /** The service's process id (for its CPU time). */
  pid: number;
  /** The demo merchant's test key, printed at first start. */
  key: string;
  /** The service's embedded PostgreSQL. */
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts the built service (`dist/src/main.js`) on a fresh embedded PostgreSQL in a temporary
 * DATA_DIR (or on `env.DATABASE_URL`), without rate limits, and waits for /healthz and the demo key
 * (unless `demoKey: false`). `nodeArgs` go to node
 * (e.g. `--cpu-prof`: the profile is written when the service exits).
 */
export async function startService(
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
  opts: { demoKey?: boolean } = {},
): Promise<BenchService> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-bench-'));
  const port = await freePort();
  const pgPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000000',
    GRAPHQL_COST_BUCKET: '100000000',
    GRAPHQL_COST_RESTORE_RATE: '100000000',
    METRICS_TOKEN,
    ...env,
  };
  delete childEnv.DATABASE_URL;
  if (env.DATABASE_URL) childEnv.DATABASE_URL = env.DATABASE_URL;
  let output = '';
  // As `npm start` runs it (a young generation large enough that a request's garbage dies young).
  const child = spawn(process.execPath, ['--max-semi-space-size=64', ...nodeArgs, 'dist/src/main.js'], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.on('data', (d) => (output += d));
  // BENCH_SERVICE_LOG=FILE keeps the service's output (e.g. with SQL_DEBUG=true: every statement it sent).
  if (process.env.BENCH_SERVICE_LOG) child.stdout.pipe(createWriteStream(process.env.BENCH_SERVICE_LOG));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${base}/healthz`, 90_000);
    // The demo key is printed at first start only (another process on the same database has none).
    const key = /glm_test_[0-9A-Za-z]{32}/.exec(output)?.[0] ?? '';
    if (!key && opts.demoKey !== false) throw new Error('no demo key printed');
    return {
      base,
      pid: child.pid!,
      key,
      databaseUrl: env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/commerce`,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The `p`th percentile of `xs` (nearest rank; `xs` is not changed), or undefined for none. */
export const percentile = (xs: readonly number[], p: number): number | undefined =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];
