import { availableParallelism } from 'node:os';
import pg from 'pg';
import { ENGINE_VERSION } from '../src/modules/eligibility/eligibility.engine.js';
import { checkEligibility } from '../src/modules/eligibility/eligibility.engine.js';
import { suggestionOf } from '../src/modules/products/product-eligibility.js';
import { cpuMs, sqlCount } from './common.js';

/** A service to drive: its base URL and the headers of every request (the API key). */
export interface FlowTarget {
  base: string;
  headers: Record<string, string>;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

/** A checkout of two catalog products (the seeded SKUs), numbered `i`. */
export function checkoutBody(i: number) {
  const address = { address_line_1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
  return {
    reference_id: `bench_${i}_${Math.random().toString(36).slice(2, 8)}`,
    customer: { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', phone: '+15125550100' },
    line_items: [
      {
        product_id: `SKU-${2 * (i % 500) + 2}`,
        name: 'Digital thermometer',
        price: 1999,
        quantity: 1,
        currency: 'USD',
      },
      { product_id: `SKU-${2 * (i % 500) + 1}`, name: 'Gift card', price: 1250, quantity: 1, currency: 'USD' },
    ],
    shipping_info: address,
    success_url: 'https://shop.example.com/thanks',
    failure_url: 'https://shop.example.com/cart',
  };
}

/** Checkout create + pay by `clients` concurrent clients for `seconds`: flows/s, p50 of each step, statements per flow. */
export async function flows(t: FlowTarget, clients: number, seconds: number, servicePid: number) {
  const card = (number: string) => ({ number, exp_month: 12, exp_year: 2030, cvc: '123' });
  const payBody = JSON.stringify({ hsa_fsa_card: card('4111110000000013'), card: card('4242424242424242') });
  const create: number[] = [];
  const pay: number[] = [];
  let done = 0;
  let failed = 0;
  const failures = new Map<string, number>();
  const fail = (what: string) => {
    failed++;
    failures.set(what, (failures.get(what) ?? 0) + 1);
  };
  const before = await sqlCount(t.base);
  const cpuBefore = cpuMs(servicePid);
  const until = performance.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const created = await fetch(`${t.base}/api/v2/checkout`, {
          method: 'POST',
          headers: t.headers,
          body: JSON.stringify(checkoutBody(n++)),
        });
        const body = (await created.json()) as { data?: { checkout_id: string } };
        const t1 = performance.now();
        if (!body.data) {
          fail(`create ${created.status}`);
          continue;
        }
        const paid = await fetch(`${t.base}/api/v2/test-helpers/checkout/${body.data.checkout_id}/pay`, {
          method: 'POST',
          headers: t.headers,
          body: payBody,
        });
        const paidBody = await paid.text();
        const t2 = performance.now();
        if (paid.ok) {
          done++;
          create.push(t1 - t0);
          pay.push(t2 - t1);
        } else fail(`pay ${paid.status} ${/"code":"([a-z_]+)"/.exec(paidBody)?.[1] ?? ''}`);
      }
    }),
  );
  const cpuAfter = cpuMs(servicePid);
  const statements = (await sqlCount(t.base)) - before;
  const perFlow = (ms: number) => ms / Math.max(done, 1);
  return {
    // Where the machine's time went: the service process, and the rest (PostgreSQL, this client, the OS).
    serviceCpuPerFlow: perFlow(cpuAfter.process - cpuBefore.process),
    machineCpuPerFlow: perFlow(cpuAfter.machine - cpuBefore.machine),
    machineBusy: (cpuAfter.machine - cpuBefore.machine) / (seconds * 1000 * availableParallelism()),
    perSecond: done / seconds,
    createP50: median(create),
    payP50: median(pay),
    sqlPerFlow: statements / Math.max(done, 1),
    failed,
    failures: [...failures].map(([k, n]) => `${k} x${n}`).join(', '),
  };
}

/** `count` catalog products `SKU-1` … (the flows' checkouts name the first 1,000), a day old, with the eligibility engine's own decisions. */
export async function seedSkuProducts(db: pg.Client, merchantId: string, count: number): Promise<void> {
  const names = Array.from(
    { length: count },
    (_, i) => `${(i + 1) % 2 === 0 ? 'Digital thermometer' : 'Gift card'} ${i + 1}`,
  );
  const decisions = names.map((name) => checkEligibility({ name }));
  await db.query(
    `insert into products (merchant_id, livemode, name, price, currency, merchant_product_id, status, hsa_fsa_eligible, requires_lmn, eligibility_category, eligibility_source, eligibility_message, eligibility_suggested, eligibility_checked_at, metadata, created_at, updated_at)
     select $1, false, d.name, 500 + d.g % 9000, 'USD', 'SKU-' || d.g, 'active', d.eligible, d.lmn, d.category, d.source, d.message, d.suggested,
            now() - interval '1 day', jsonb_build_object('batch', d.g % 7), now() - interval '1 day' - d.g * interval '1 second', now() - interval '1 day'
     from unnest($2::text[], $3::bool[], $4::bool[], $5::text[], $6::text[], $7::text[], $8::jsonb[]) with ordinality d(name, eligible, lmn, category, source, message, suggested, g)`,
    [
      merchantId,
      names,
      decisions.map((d) => d.hsa_fsa_eligible),
      decisions.map((d) => d.requires_lmn),
      decisions.map((d) => d.category),
      decisions.map((d) => d.source),
      decisions.map((d) => d.message),
      decisions.map((d) => JSON.stringify(suggestionOf(d))),
    ],
  );
}

/** The 1,000 products the flows' checkouts name (`SKU-1` … `SKU-1000`, as `npm run bench` seeds them), with the engine's decisions. */
export async function seedCatalog(databaseUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('insert into eligibility_engine_rechecks (engine_version) values ($1) on conflict do nothing', [
      ENGINE_VERSION,
    ]);
    const [{ id: merchantId }] = (await db.query<{ id: string }>('select id from merchants limit 1')).rows;
    await seedSkuProducts(db, merchantId, 1000);
  } finally {
    await db.end();
  }
}

/** The headers of a service's API calls (its demo key). */
export const headersOf = (s: { key: string }) => ({
  authorization: `Bearer ${s.key}`,
  'content-type': 'application/json',
});
