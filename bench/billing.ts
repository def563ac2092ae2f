/**
 * `npm run bench:billing`: 100,000 subscriptions due at once, two billing worker processes
 * (bench/billing-worker.ts) against one PostgreSQL. Prints the wall time, charges per second, the
 * CPU time of the workers and of PostgreSQL, each worker's resident set over its run and at its
 * peak and its live heap every 10 s, and the target (<= 90 s for 100,000, none charged
 * twice or missed, memory flat: the live heap does not grow);
 * fails (exit 1) if any period was charged twice or missed.
 *
 * Environment: BENCH_SUBSCRIPTIONS (default 100000), BENCH_WORKERS (default 2), BILLING_BATCH and
 * BILLING_LOOPS (see billing-worker.ts), DATABASE_PREPARED_STATEMENTS (as the service: named on the
 * embedded database, unnamed on DATABASE_URL), BENCH_CPU_PROF (directory: profile the workers with
 * --cpu-prof), DATABASE_URL (default: a fresh embedded PostgreSQL in a temporary directory, fsync on).
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '../src/platform/db/database.js';
import { openOrm } from '../mikro-orm.config.js';
import { startEmbeddedPostgres } from '../src/platform/db/embedded-postgres.js';
import { createMerchant } from '../src/modules/merchants/merchant.service.js';
import { addMonths } from '../src/modules/subscriptions/subscription-calendar.js';
import { formatTable } from './common.js';

const N = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);

interface WorkerResult {
  code: number | null;
  charged: number;
  cpuMs: number;
  maxRssKb: number;
  /** Resident set (kB) sampled at 10%, 50% and 90% of the worker's run. */
  rssAt: number[];
  /** Live heap (kB) after a full collection, every 10 s of the worker's run. */
  liveHeapKb: number[];
}

/** Resident set of process `pid` now, in kB (0 once it has exited). */
function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** CPU ms of the embedded PostgreSQL: its postmaster, the backends it reaped, and its children still running. */
function postgresCpuMs(dir: string | null): number | null {
  if (!dir) return null;
  const ticks = (pid: string, reaped: boolean) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);
  };
  try {
    const pid = readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8')
      .split('\n')[0]
      .trim();
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return (ticks(pid, true) + children.reduce((t, c) => t + ticks(c, false), 0)) * 10;
  } catch {
    return null;
  }
}

/** Runs one billing worker process to its end, sampling its resident set every 250 ms. */
function runWorker(url: string): Promise<WorkerResult> {
  let out = '';
  const prof = process.env.BENCH_CPU_PROF;
  const child = spawn(
    process.execPath,
    [...(prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : []), '--expose-gc', 'dist/bench/billing-worker.js'],
    {
      env: { ...process.env, DATABASE_URL: url, DATABASE_PREPARED_STATEMENTS: String(namedStatements) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  child.stdout.on('data', (d) => (out += d));
  const samples: number[] = [];
  const timer = setInterval(() => {
    const kb = rssKb(child.pid!);
    if (kb) samples.push(kb);
  }, 250);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearInterval(timer);
      const last = out
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Partial<WorkerResult>)
        .findLast((l) => l.charged !== undefined);
      const at = (share: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * share))] ?? 0;
      resolve({
        code,
        charged: last?.charged ?? 0,
        cpuMs: last?.cpuMs ?? 0,
        maxRssKb: last?.maxRssKb ?? 0,
        rssAt: [at(0.1), at(0.5), at(0.9)],
        liveHeapKb: last?.liveHeapKb ?? [],
      });
    }),
  );
}

const dataDir = process.env.DATABASE_URL ? null : await mkdtemp(path.join(tmpdir(), 'commerce-billing-bench-'));
const db = dataDir
  ? await startEmbeddedPostgres({ dataDir })
  : { url: process.env.DATABASE_URL!, direct: false, stop: () => Promise.resolve() };
// The service's rule (src/server.ts): DATABASE_PREPARED_STATEMENTS when set, else named statements
// on a direct connection (the embedded database) and unnamed ones on DATABASE_URL.
const namedStatements = process.env.DATABASE_PREPARED_STATEMENTS
  ? process.env.DATABASE_PREPARED_STATEMENTS === 'true'
  : db.direct;
const orm = await openOrm(db.url, 4);
let failed = false;
try {
  await migrate(orm);
  const merchant = await createMerchant(orm.em.fork(), `Billing bench ${Date.now()}`);
  const conn = orm.em.getConnection();
  const tag = Math.random().toString(36).slice(2, 8);
  // Each subscription's first period ended an hour ago: period 1 is due now.
  const anchor = new Date(addMonths(new Date(), -1).getTime() - 3_600_000);
  const due = addMonths(anchor, 1);
  const seedStart = Date.now();
  await conn.execute(
    `insert into customers (id, merchant_id, livemode, email, first_name, last_name, metadata)
     select 'cus_b${tag}' || g, ?, false, 'bench' || g || '@example.com', 'Bench', 'Customer', '{}' from generate_series(1, ?) g`,
    [merchant.id, N],
  );
  await conn.execute(
    `insert into payment_methods (id, merchant_id, livemode, customer_id, type, brand, last4, exp_month, exp_year, processor_token)
     select 'pm_b${tag}' || g, ?, false, 'cus_b${tag}' || g, 'card', 'visa', '4242', 12, 2035, 'tok_c_b${tag}' || g from generate_series(1, ?) g`,
    [merchant.id, N],
  );
  await conn.execute(
    `insert into subscriptions (id, merchant_id, livemode, customer_id, payment_method_id, description, amount_cents, currency, interval, interval_count, status, anchor_at, period_index, current_period_start, current_period_end, next_charge_at, metadata)
     select 'sub_b${tag}' || g, ?, false, 'cus_b${tag}' || g, 'pm_b${tag}' || g, 'Bench plan', 1000 + g % 500, 'USD', 'monthly', 1, 'active', ?, 0, ?, ?, ?, '{}' from generate_series(1, ?) g`,
    [merchant.id, anchor, anchor, due, due, N],
  );
  await conn.execute('analyze');
  console.log(`seeded ${N} due subscriptions in ${Date.now() - seedStart} ms; starting ${WORKERS} worker processes`);

  const pgCpuBefore = postgresCpuMs(dataDir);
  const started = Date.now();
  const results = await Promise.all(Array.from({ length: WORKERS }, () => runWorker(db.url)));
  const wallMs = Date.now() - started;
  await new Promise((r) => setTimeout(r, 300)); // the workers' backends exit and are reaped
  const pgCpu = pgCpuBefore === null ? null : postgresCpuMs(dataDir)! - pgCpuBefore;

  const [check] = await conn.execute<
    {
      paid: number;
      invoices: number;
      doubled: number;
      missed: number;
      attempts: number;
      captures: number;
      orders: number;
      payments: number;
      ledger: number;
    }[]
  >(
    `select
       (select count(*)::int from subscription_invoices where merchant_id = ? and status = 'paid') as paid,
       (select count(*)::int from subscription_invoices where merchant_id = ?) as invoices,
       (select count(*)::int from (select subscription_id, period_start from subscription_invoices where merchant_id = ? group by 1, 2 having count(*) > 1) d) +
       (select count(*)::int from (select invoice_id from subscription_invoice_attempts where merchant_id = ? and status = 'succeeded' group by 1 having count(*) > 1) a) as doubled,
       (select count(*)::int from subscriptions s where s.merchant_id = ? and not exists (select 1 from subscription_invoices i where i.subscription_id = s.id and i.period_index = 1 and i.status = 'paid')) as missed,
       (select count(*)::int from subscription_invoice_attempts where merchant_id = ?) as attempts,
       (select count(distinct psp_reference)::int from subscription_invoice_attempts where merchant_id = ? and status = 'succeeded') as captures,
       (select count(*)::int from orders where merchant_id = ? and is_recurring) as orders,
       (select count(*)::int from payments where merchant_id = ?) as payments,
       (select count(*)::int from processor_ledger where operation = 'charge' and target like 'tok_c_b${tag}%') as ledger`,
    Array(9).fill(merchant.id),
  );
  const secs = wallMs / 1000;
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  const rows = [
    ['subscriptions due', String(N)],
    ['worker processes', `${WORKERS} (${results.map((r) => r.charged).join(' + ')} charges)`],
    [
      'statements',
      namedStatements ? 'prepared under names (the embedded default)' : 'unnamed (the DATABASE_URL default)',
    ],
    ['wall time', `${secs.toFixed(2)} s`],
    ['charges/s', (check.paid / secs).toFixed(0)],
    [
      'CPU s: workers / PostgreSQL',
      `${results.map((r) => (r.cpuMs / 1000).toFixed(1)).join(' + ')} / ${pgCpu === null ? 'n/a' : (pgCpu / 1000).toFixed(1)}`,
    ],
    [
      'CPU ms per charge: workers + PostgreSQL',
      ((results.reduce((t, r) => t + r.cpuMs, 0) + (pgCpu ?? 0)) / N).toFixed(2),
    ],
    ...results.map((r, i) => [
      `worker ${i + 1} RSS at 10% / 50% / 90% of its run; peak`,
      `${r.rssAt.map(mb).join(' / ')}; ${mb(r.maxRssKb)}`,
    ]),
    ...results.map((r, i) => [
      `worker ${i + 1} live heap after a full GC, every 10 s`,
      r.liveHeapKb.map((kb) => (kb / 1024).toFixed(0)).join(' ') + ' MB',
    ]),
    ['periods paid', String(check.paid)],
    ['processor calls (attempts)', String(check.attempts)],
    ['distinct captures', String(check.captures)],
    ['charges in the processor ledger', String(check.ledger)],
    ['recurring orders / payments', `${check.orders} / ${check.payments}`],
    ['periods charged twice', String(check.doubled)],
    ['periods missed', String(check.missed)],
  ];
  console.log(
    `\nBilling: ${N} subscriptions due at once (load average ${loadavg()[0].toFixed(1)} at the end)\n\n${formatTable(['measure', 'value'], rows)}\n`,
  );
  // Flat: what no worker keeps (live heap after a full collection) grows by more than a quarter
  // from its first sample to its last. The resident set is shown beside it: it grows until V8
  // collects (a major collection every ~30 s here), whatever is live.
  const growth = (r: WorkerResult) =>
    r.liveHeapKb.length ? r.liveHeapKb[r.liveHeapKb.length - 1] / r.liveHeapKb[0] : NaN;
  const flat = results.every((r) => growth(r) <= 1.25);
  const verdict = (ok: boolean) => (ok ? 'holds' : 'MISSED');
  const limit = (90 * N) / 100_000;
  const targets = [
    [
      `${N.toLocaleString('en-US')} due at once, ${WORKERS} workers: ≤ ${limit} s`,
      `${secs.toFixed(1)} s`,
      verdict(secs <= limit),
    ],
    ['  periods charged twice: 0', String(check.doubled), verdict(check.doubled === 0)],
    ['  periods missed: 0', String(check.missed), verdict(check.missed === 0)],
    [
      '  memory flat: live heap, last sample <= 1.25x first (each worker)',
      results.map((r) => growth(r).toFixed(2)).join(' / '),
      verdict(flat),
    ],
    [
      '  peak RSS (each worker; a full GC every 10 s for the samples)',
      results.map((r) => mb(r.maxRssKb)).join(' / '),
      '',
    ],
  ];
  console.log(`${formatTable(['target', 'measured', ''], targets)}\n`);
  failed =
    results.some((r) => r.code !== 0) ||
    check.doubled !== 0 ||
    check.missed !== 0 ||
    check.paid !== N ||
    check.attempts !== N ||
    check.captures !== N ||
    check.orders !== N ||
    check.ledger !== N;
  if (failed) console.error('FAILED: some period was charged twice or missed, or a worker failed');
} finally {
  await orm.close();
  await db.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
