/**
 * `node dist/bench/compare.js DIR…`: the pay flow (checkout create + pay, `bench/flows.ts`) on the
 * builds of several checkouts side by side, e.g. a worktree of the commit before a change and the
 * change's own (each built: `npm run -s build` in it). One service per build, each on a fresh
 * embedded PostgreSQL, all started first; then runs alternate between them, round after round, so
 * drift on a shared machine falls on every build alike. Prints service CPU per flow (user and
 * system apart), flows/s and statements per flow for each run, then medians and ranges.
 *
 * Env: BENCH_ROUNDS (6), BENCH_SECONDS (5 per run), BENCH_CONNECTIONS (20),
 * DATABASE_PREPARED_STATEMENTS (false: unnamed, as behind `DATABASE_URL`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatTable, startService, type BenchService } from './common.js';
import { flows, headersOf, median, seedCatalog } from './flows.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const NAMED = process.env.DATABASE_PREPARED_STATEMENTS ?? 'false';

/** The process's user and system CPU, ms. */
function userSystemMs(pid: number): [number, number] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [Number(fields[11]) * 10, Number(fields[12]) * 10];
}

interface Run {
  cpu: number;
  user: number;
  system: number;
  perSecond: number;
  sql: number;
}

async function main(): Promise<void> {
  const dirs = process.argv.slice(2).map((d) => path.resolve(d));
  if (!dirs.length) throw new Error('usage: node dist/bench/compare.js DIR… (checkouts with a build in dist/)');
  const services: [string, BenchService][] = [];
  try {
    for (const dir of dirs) {
      process.chdir(dir); // startService runs dist/src/main.js of the working directory
      const s = await startService({ DATABASE_PREPARED_STATEMENTS: NAMED });
      services.push([dir, s]);
      await seedCatalog(s.databaseUrl);
    }
    for (const [, s] of services) await flows({ base: s.base, headers: headersOf(s) }, CONNECTIONS, 2, s.pid); // warm-up
    const runs = new Map<string, Run[]>(dirs.map((d) => [d, []]));
    const fmt = (n: number) => n.toFixed(2);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [dir, s] of round % 2 ? services : [...services].reverse()) {
        const [user0, system0] = userSystemMs(s.pid);
        const f = await flows({ base: s.base, headers: headersOf(s) }, CONNECTIONS, DURATION, s.pid);
        const [user1, system1] = userSystemMs(s.pid);
        const done = Math.max(f.perSecond * DURATION, 1);
        const run = {
          cpu: f.serviceCpuPerFlow,
          user: (user1 - user0) / done,
          system: (system1 - system0) / done,
          perSecond: f.perSecond,
          sql: f.sqlPerFlow,
        };
        runs.get(dir)!.push(run);
        process.stdout.write(
          `round ${round}  ${dir}  service CPU/flow ${fmt(run.cpu)} ms (user ${fmt(run.user)}, system ${fmt(run.system)})  ${f.perSecond.toFixed(0)} flows/s  SQL/flow ${fmt(run.sql)}${f.failed ? `  failed ${f.failed} (${f.failures})` : ''}\n`,
        );
      }
    }
    const rows = [...runs].map(([dir, list]) => {
      const cpu = list.map((r) => r.cpu);
      const of = (k: keyof Run) => fmt(median(list.map((r) => r[k])));
      return [
        dir,
        `${of('cpu')} (${fmt(Math.min(...cpu))}-${fmt(Math.max(...cpu))})`,
        of('user'),
        of('system'),
        of('perSecond'),
        of('sql'),
      ];
    });
    process.stdout.write(
      `\n${CONNECTIONS} clients, ${ROUNDS} alternating rounds of ${DURATION} s, statements ${NAMED === 'true' ? 'named' : 'unnamed'}; medians\n\n${formatTable(['build', 'service CPU ms/flow (range)', 'user', 'system', 'flows/s', 'SQL/flow'], rows)}\n`,
    );
  } finally {
    for (const [, s] of services) await s.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
