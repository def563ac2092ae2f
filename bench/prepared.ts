/**
 * `npm run bench` (part): the pay flow with and without named prepared statements
 * (`DATABASE_PREPARED_STATEMENTS`). Starts the built service twice, each on a fresh embedded
 * PostgreSQL, and runs checkout create + pay flows by 20 clients on each, alternately for
 * several rounds; prints statements and service CPU per flow (medians) for both settings.
 *
 * Named statements are parsed and planned once per connection; unnamed ones on every execution.
 * With DATABASE_URL the default is unnamed: a pooler in transaction mode (PgBouncer before 1.21,
 * or without `max_prepared_statements`) hands a session's named statements to other clients. The
 * embedded database (a direct connection) prepares them by default.
 *
 * Env: BENCH_ROUNDS (3), BENCH_SECONDS (5 per run), BENCH_CONNECTIONS (20), BENCH_CPU_PROF (directory:
 * profile each service with --cpu-prof, into `unnamed/` and `named/` under it; read with profile-top.js).
 */
import { formatTable, startService, type BenchService } from './common.js';
import { flows, headersOf, median, seedCatalog } from './flows.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

async function main(): Promise<void> {
  const services: [string, BenchService][] = [];
  try {
    for (const named of ['false', 'true']) {
      const prof = process.env.BENCH_CPU_PROF;
      const profArgs = prof
        ? ['--cpu-prof', '--cpu-prof-dir', `${prof}/${named === 'true' ? 'named' : 'unnamed'}`]
        : [];
      const s = await startService({ DATABASE_PREPARED_STATEMENTS: named }, profArgs);
      services.push([named === 'true' ? 'named (embedded default)' : 'unnamed (DATABASE_URL default)', s]);
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
      rows.push([
        `  flows/s, machine CPU ms per flow`,
        `${fmt(median(list.map((f) => f.perSecond)))}, ${fmt(median(list.map((f) => f.machineCpuPerFlow)))}`,
        '',
      ]);
    }
    process.stdout.write(
      `\n${CONNECTIONS} clients, ${ROUNDS} alternating rounds of ${DURATION} s; medians\n\n${formatTable(['target', 'measured', ''], rows)}\n\n`,
    );
  } finally {
    for (const [, s] of services) await s.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
