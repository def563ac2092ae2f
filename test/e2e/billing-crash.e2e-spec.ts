import { spawn, type ChildProcess } from 'node:child_process';
import { cards } from '../helpers/fixtures.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';
import type { Client } from '../helpers/http.js';

/**
 * A billing worker process is SIGKILLed in the middle of a sweep (charges in flight at a slow
 * processor), then a new worker is started: every due period ends up charged exactly once (one
 * invoice, one attempt, one capture, one order), none twice, none missed.
 */
let t: TestApp;
let api: Client;
let merchantId: string;
const N = 120;
const db = () => t.orm.em.fork().getConnection();

beforeAll(async () => {
  ({ t, api } = await startWithMerchant('Crash'));
  merchantId = (await db().execute(`select id from merchants where name = 'Crash'`))[0].id;
  const customer = (
    await api.post('/api/v2/customers', { email: 'crash@example.com', first_name: 'Cr', last_name: 'Ash' })
  ).body;
  const pm = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.visa })).body;
  for (let i = 0; i < N; i++) {
    const res = await api.post('/api/v2/subscriptions', {
      customer_id: customer.id,
      payment_method_id: pm.id,
      amount_cents: 1000 + i,
      currency: 'USD',
      interval: 'monthly',
      trial_period_days: 1,
    });
    expect(res.status).toBe(201);
  }
  // Two days pass on the merchant's clock: every trial has ended, every first cycle is due.
  await db().execute(`update merchants set test_clock_offset_ms = test_clock_offset_ms + ? where id = ?`, [
    2 * 86_400_000,
    merchantId,
  ]);
}, 120_000);
afterAll(() => t.close());

function worker(env: Record<string, string>): {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
} {
  let out = '';
  const child = spawn(process.execPath, ['dist/bench/billing-worker.js'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

async function counts() {
  const [row] = await db().execute(
    `select (select count(*)::int from subscription_invoices i join subscriptions s on s.id = i.subscription_id where s.merchant_id = ? and i.status = 'paid') as paid,
            (select count(*)::int from subscription_invoice_attempts a where a.merchant_id = ? and a.status = 'calling') as calling`,
    [merchantId, merchantId],
  );
  return row as { paid: number; calling: number };
}

test('SIGKILL mid-sweep, restart: every due period charged exactly once', async () => {
  const first = worker({ CHARGE_DELAY_MS: '150', BILLING_BATCH: '20', BILLING_LEASE_MS: '1500' });
  // Kill it once some cycles are paid and a batch is in flight at the processor.
  const until = Date.now() + 30_000;
  let seen = { paid: 0, calling: 0 };
  while (Date.now() < until) {
    seen = await counts();
    if (seen.paid >= 20 && seen.calling > 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  first.child.kill('SIGKILL');
  await first.exited;
  const atKill = await counts();
  expect(atKill.paid).toBeGreaterThan(0);
  expect(atKill.paid).toBeLessThan(N);
  expect(atKill.calling).toBeGreaterThan(0); // killed with charges in flight, journaled as `calling`

  // The lease of the dead worker lapses; a new worker re-drives its attempts with the same keys.
  await new Promise((r) => setTimeout(r, 1600));
  const second = worker({ BILLING_BATCH: '50' });
  expect(await second.exited).toBe(0);

  const subs = await db().execute<
    { id: string; status: string; invoices: number; paid: number; attempts: number; captures: number; orders: number }[]
  >(
    `select s.id, s.status,
            (select count(*)::int from subscription_invoices i where i.subscription_id = s.id) as invoices,
            (select count(*)::int from subscription_invoices i where i.subscription_id = s.id and i.status = 'paid') as paid,
            (select count(*)::int from subscription_invoice_attempts a join subscription_invoices i on i.id = a.invoice_id where i.subscription_id = s.id) as attempts,
            (select count(distinct a.psp_reference)::int from subscription_invoice_attempts a join subscription_invoices i on i.id = a.invoice_id
              where i.subscription_id = s.id and a.status = 'succeeded') as captures,
            (select count(*)::int from orders o where o.metadata->>'subscription_id' = s.id) as orders
     from subscriptions s where s.merchant_id = ?`,
    [merchantId],
  );
  expect(subs).toHaveLength(N);
  const wrong = subs.filter(
    (s) =>
      s.status !== 'active' ||
      s.invoices !== 1 ||
      s.paid !== 1 ||
      s.attempts !== 1 ||
      s.captures !== 1 ||
      s.orders !== 1,
  );
  expect(wrong).toEqual([]);
  expect((await counts()).calling).toBe(0);
  const renewed = await db().execute(
    `select count(*)::int as n, count(distinct data->>'subscription_id')::int as subs from events where merchant_id = ? and type = 'subscription.renewed'`,
    [merchantId],
  );
  expect(renewed).toEqual([{ n: N, subs: N }]);
  const payments = await db().execute(
    `select count(*)::int as n, count(distinct capture_id)::int as captures from payments where merchant_id = ?`,
    [merchantId],
  );
  expect(payments).toEqual([{ n: N, captures: N }]);
  // The processor's own books: exactly one charge of the card per period, each under an attempt's key.
  const ledger = await db().execute(
    `select count(*)::int as n, count(*) filter (where l.key in (select a.id from subscription_invoice_attempts a where a.merchant_id = ?))::int as journaled
     from processor_ledger l where l.operation = 'charge' and l.target = (select processor_token from payment_methods where merchant_id = ? limit 1)`,
    [merchantId, merchantId],
  );
  expect(ledger).toEqual([{ n: N, journaled: N }]);
});
