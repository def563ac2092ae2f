import { readFile } from 'node:fs/promises';
import path from 'node:path';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops the embedded PostgreSQL of `dataDir` as `pg_ctl stop -m <mode>` does (a signal to the
 * postmaster: `fast` fails the statements in flight with the server's error, `immediate` drops
 * the connections) and waits until it is gone.
 */
export async function stopPostgres(dataDir: string, mode: 'fast' | 'immediate'): Promise<void> {
  const pid = Number((await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  process.kill(pid, mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() > until) throw new Error('PostgreSQL did not stop');
    await sleep(50);
  }
}
