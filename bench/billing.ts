/**
 * `npm run bench:billing`: 10,000 subscriptions due at once, two billing worker processes
 * (bench/billing-worker.ts) against one PostgreSQL. Prints the wall time and charges per second,
 * and fails (exit 1) if any period was charged twice or missed.
 *
 * Environment: BENCH_SUBSCRIPTIONS (default 10000), BENCH_WORKERS (default 2), BILLING_BATCH
 * (default 100), DATABASE_URL (default: a fresh embedded PostgreSQL in a temporary directory,
 * fsync on).
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '../src/platform/db/database.js';
import { openOrm } from '../mikro-orm.config.js';
import { startEmbeddedPostgres } from '../src/platform/db/embedded-postgres.js';
import { createMerchant } from '../src/modules/merchants/merchant.service.js';
import { addMonths } from '../src/modules/subscriptions/subscription-calendar.js';
import { formatTable } from './common.js';

const N = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);

const dataDir = process.env.DATABASE_URL ? null : await mkdtemp(path.join(tmpdir(), 'commerce-billing-bench-'));
const db = dataDir ? await startEmbeddedPostgres({ dataDir }) : { url: process.env.DATABASE_URL!, stop: () => Promise.resolve() };
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

  const started = Date.now();
  const results = await Promise.all(
    Array.from({ length: WORKERS }, () => {
      let out = '';
      const child = spawn(process.execPath, ['dist/bench/billing-worker.js'], { env: { ...process.env, DATABASE_URL: db.url }, stdio: ['ignore', 'pipe', 'inherit'] });
      child.stdout.on('data', (d) => (out += d));
      return new Promise<{ code: number | null; charged: number }>((resolve) =>
        child.on('exit', (code) => {
          const last = out
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { charged?: number })
            .findLast((l) => l.charged !== undefined);
          resolve({ code, charged: last?.charged ?? 0 });
        }),
      );
    }),
  );
  const wallMs = Date.now() - started;

  const [check] = await conn.execute<{ paid: number; invoices: number; doubled: number; missed: number; attempts: number; captures: number; orders: number; payments: number; ledger: number }[]>(
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
  const rows = [
    ['subscriptions due', String(N)],
    ['worker processes', `${WORKERS} (${results.map((r) => r.charged).join(' + ')} charges)`],
    ['wall time', `${(wallMs / 1000).toFixed(2)} s`],
    ['charges/s', (check.paid / (wallMs / 1000)).toFixed(0)],
    ['periods paid', String(check.paid)],
    ['processor calls (attempts)', String(check.attempts)],
    ['distinct captures', String(check.captures)],
    ['charges in the processor ledger', String(check.ledger)],
    ['recurring orders / payments', `${check.orders} / ${check.payments}`],
    ['periods charged twice', String(check.doubled)],
    ['periods missed', String(check.missed)],
  ];
  console.log(`\nBilling: ${N} subscriptions due at once\n\n${formatTable(['measure', 'value'], rows)}\n`);
  failed =
    results.some((r) => r.code !== 0) || check.doubled !== 0 || check.missed !== 0 || check.paid !== N || check.attempts !== N || check.captures !== N || check.orders !== N || check.ledger !== N;
  if (failed) console.error('FAILED: some period was charged twice or missed, or a worker failed');
} finally {
  await orm.close();
  await db.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
