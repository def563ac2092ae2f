/**
 * One billing worker process: claims due subscriptions, charges them and settles them, in a loop,
 * until nothing is due (then prints `{"charged": n, "maxRssKb": …, "cpuMs": …, "liveHeapKb": […]}` and exits). Used by `npm run bench:billing`
 * (two of them against one PostgreSQL) and by the crash test (SIGKILLed mid-sweep, restarted).
 *
 * Environment: DATABASE_URL (required); DATABASE_PREPARED_STATEMENTS (`true`: statements prepared
 * under names, as the service does on the embedded database); BILLING_BATCH (default 100); BILLING_LOOPS (concurrent
 * claim → charge → settle pipelines, default 3); CHARGE_DELAY_MS (a slow processor, for the crash
 * test); BILLING_LEASE_MS (default 120000).
 */
import 'reflect-metadata';
import { openOrm } from '../mikro-orm.config.js';
import type { Log } from '../src/platform/context.js';
import { useTestModeProcessor } from '../src/modules/payments/processor-registry.js';
import { SimulatedProcessor } from '../src/modules/payments/simulated-processor.js';
import { claimDue, runCharges, setBillingLeaseMs } from '../src/modules/subscriptions/subscription-billing.js';

const env = process.env;
const batch = Number(env.BILLING_BATCH ?? 100);
const delay = Number(env.CHARGE_DELAY_MS ?? 0);
if (env.BILLING_LEASE_MS) setBillingLeaseMs(Number(env.BILLING_LEASE_MS));
const noop = () => undefined;
const log: Log = {
  info: noop,
  debug: noop,
  warn: noop,
  error: (obj: unknown, msg?: string) => console.error(msg, obj),
};

const loops = Number(env.BILLING_LOOPS ?? 3);
// Each loop is one claim → charge → settle pipeline holding at most one connection at a time;
// several per process overlap one batch's database work with another's processor calls.
const orm = await openOrm(env.DATABASE_URL!, loops + 1, {
  preparedStatements: env.DATABASE_PREPARED_STATEMENTS === 'true',
});
if (delay > 0) {
  const connection = orm.em.getConnection();
  class SlowProcessor extends SimulatedProcessor {
    override async chargeToken(token: string, amount: number, currency: string, idempotencyKey: string) {
      await new Promise((r) => setTimeout(r, delay));
      return super.chargeToken(token, amount, currency, idempotencyKey);
    }
  }
  useTestModeProcessor(new SlowProcessor((sql, params) => connection.execute(sql, params)));
}
let charged = 0;
// Run with --expose-gc (the bench does), the live heap is sampled every 10 s after a full
// collection: what the process keeps, unlike its resident set, which grows until V8 collects.
const gc = (globalThis as { gc?: () => void }).gc;
const liveHeapKb: number[] = [];
const sampler = gc
  ? setInterval(() => {
      gc();
      liveHeapKb.push(Math.round(process.memoryUsage().heapUsed / 1024));
    }, 10_000)
  : undefined;
await Promise.all(
  Array.from({ length: loops }, async () => {
    for (;;) {
      const { claimed, jobs } = await claimDue(orm.em, log, batch);
      if (!claimed) break;
      await runCharges(orm.em, jobs, log);
      charged += jobs.length;
    }
  }),
);
clearInterval(sampler);
// Peak resident set (kB) and CPU time (µs) of this process, for the bench's memory and CPU figures.
const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({ charged, maxRssKb: maxRSS, cpuMs: Math.round((userCPUTime + systemCPUTime) / 1000), liveHeapKb })}\n`,
);
await orm.close();
