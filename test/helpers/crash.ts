import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGKILLs the embedded PostgreSQL of `dataDir` and waits until it is gone (its backends too), so a new one can start there. */
export async function killDatabase(dataDir: string): Promise<void> {
  const pid = Number((await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  process.kill(pid, 'SIGKILL');
  // Backends notice their postmaster is gone and exit; only then can a new one start.
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      break;
    }
    await sleep(100);
  }
  await sleep(1000);
}

/** Opens `n` sessions like `templateId` (a clone per row, in one statement; the template's mode too). */
export async function cloneSessions(orm: MikroORM, templateId: string, n: number): Promise<string[]> {
  const conn = orm.em.fork().getConnection();
  const columns = (
    await conn.execute<{ column_name: string }[]>(
      `select column_name from information_schema.columns where table_name = 'checkout_sessions' and column_name not in ('id', 'reference_id')`,
    )
  ).map((c) => `"${c.column_name}"`);
  const rows = await conn.execute<{ id: string }[]>(
    `insert into checkout_sessions (id, reference_id, ${columns.join(', ')})
     select 'cs_crash' || md5(random()::text || g::text), 'cart_' || g, ${columns.map((c) => `s.${c}`).join(', ')}
     from checkout_sessions s, generate_series(1, ?) g where s.id = ? returning id`,
    [n, templateId],
  );
  return rows.map((r) => r.id);
}

/** Ages open payment attempts past the abandonment threshold, as if the reconciliation sweep ran minutes later. */
export async function ageOpenAttempts(orm: MikroORM): Promise<void> {
  await orm.em
    .fork()
    .getConnection()
    .execute(
      `update payment_attempts set updated_at = now() - interval '10 minutes' where status in ('calling', 'reversing')`,
    );
}

/**
 * Waits for a random moment inside a running burst: until `progress()` (answers so far in this
 * round) reaches a random share (20–70 %) of `total`, or `maxMs` passed. A kill timed on progress,
 * not on the clock, always lands while requests are in flight, however fast or slow the machine is.
 */
export async function midBurst(progress: () => number, total: number, maxMs = 30_000): Promise<void> {
  const target = Math.floor(total * (0.2 + Math.random() * 0.5));
  const until = Date.now() + maxMs;
  while (progress() < target && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
}
