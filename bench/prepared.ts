/**
 * `npm run bench` (part): the pay flow with and without named prepared statements
 * (`DATABASE_PREPARED_STATEMENTS`). Starts the built service twice, each on a fresh embedded
 * PostgreSQL, and runs checkout create + pay flows by 20 clients on each, alternately for
 * several rounds; prints statements and service CPU per flow (medians) for both settings.
 *
 * Named statements are parsed and planned once per connection; unnamed ones on every execution.
 * The default is unnamed: a pooler in transaction mode (PgBouncer before 1.21, or without
 * `max_prepared_statements`) hands a session's named statements to other clients.
 *
 * Env: BENCH_ROUNDS (3), BENCH_SECONDS (5 per run), BENCH_CONNECTIONS (20).
 */
import pg from 'pg';
import { checkEligibility, ENGINE_VERSION } from '../src/modules/eligibility/eligibility.engine.js';
import { suggestionOf } from '../src/modules/products/product-eligibility.js';
import { formatTable, startService, type BenchService } from './common.js';
import { flows, median } from './flows.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

async function main(): Promise<void> {
  const services: [string, BenchService][] = [];
  try {
    for (const named of ['false', 'true']) {
      const s = await startService({ DATABASE_PREPARED_STATEMENTS: named });
      services.push([named === 'true' ? 'named' : 'unnamed (default)', s]);
      await seedCatalog(s.databaseUrl);
    }
    const runs = new Map<string, Awaited<ReturnType<typeof flows>>[]>(services.map(([name]) => [name, []]));
    for (const [, s] of services) await flows({ base: s.base, headers: headersOf(s) }, CONNECTIONS, 2, s.pid); // warm-up
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate which goes first, so drift on the machine falls on both.
      for (const [name, s] of round % 2 ? services : [...services].reverse()) {
        const f = await flows({ base: s.base, headers: headersOf(s) }, CONNECTIONS, DURATION, s.pid);
        runs.get(name)!.push(f);
        process.stdout.write(
          `round ${round}  pay flow, statements ${name.padEnd(17)} ${fmt(f.perSecond)} flows/s  SQL/flow ${fmt(f.sqlPerFlow)}  service CPU/flow ${fmt(f.serviceCpuPerFlow)} ms  machine ${fmt(f.machineCpuPerFlow)} ms${f.failed ? `  failed ${f.failed} (${f.failures})` : ''}\n`,
        );
      }
    }
    const check = (ok: boolean) => (ok ? 'holds' : 'MISSED');
    const rows: string[][] = [];
    for (const [name, list] of runs) {
      const sql = median(list.map((f) => f.sqlPerFlow));
      const cpu = median(list.map((f) => f.serviceCpuPerFlow));
      rows.push([`pay flow, ${name}: statements per flow <= 10`, fmt(sql), check(sql <= 10)]);
      rows.push([`pay flow, ${name}: service CPU per flow <= 4.5 ms`, fmt(cpu), check(cpu <= 4.5)]);
      rows.push([`  flows/s, machine CPU ms per flow`, `${fmt(median(list.map((f) => f.perSecond)))}, ${fmt(median(list.map((f) => f.machineCpuPerFlow)))}`, '']);
    }
    process.stdout.write(`\n${CONNECTIONS} clients, ${ROUNDS} alternating rounds of ${DURATION} s; medians\n\n${formatTable(['target', 'measured', ''], rows)}\n\n`);
  } finally {
    for (const [, s] of services) await s.stop();
  }
}

/** The 1,000 products the flows' checkouts name (`SKU-1` … `SKU-1000`, as `npm run bench` seeds them), with the engine's decisions. */
async function seedCatalog(databaseUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('insert into eligibility_engine_rechecks (engine_version) values ($1) on conflict do nothing', [ENGINE_VERSION]);
    const [{ id: merchantId }] = (await db.query<{ id: string }>('select id from merchants limit 1')).rows;
    const names = Array.from({ length: 1000 }, (_, i) => `${(i + 1) % 2 === 0 ? 'Digital thermometer' : 'Gift card'} ${i + 1}`);
    const decisions = names.map((name) => checkEligibility({ name }));
    await db.query(
      `insert into products (merchant_id, livemode, name, price, currency, merchant_product_id, status, hsa_fsa_eligible, requires_lmn, eligibility_category, eligibility_source, eligibility_message, eligibility_suggested, eligibility_checked_at, metadata, created_at, updated_at)
       select $1, false, d.name, 500 + d.g, 'USD', 'SKU-' || d.g, 'active', d.eligible, d.lmn, d.category, d.source, d.message, d.suggested, now(), '{}'::jsonb, now(), now()
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
  } finally {
    await db.end();
  }
}

const headersOf = (s: BenchService) => ({ authorization: `Bearer ${s.key}`, 'content-type': 'application/json' });

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
