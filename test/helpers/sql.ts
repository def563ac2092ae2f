import { sqlStatementCount } from '../../src/platform/db/sql-counter.js';

/**
 * SQL statements `run` sends, as the least of three runs: the counter is process-wide and this
 * process's background work (the live-event reader after fresh commits) can only add to it.
 */
export async function statementsOf(run: () => Promise<unknown>): Promise<number> {
  let least = Infinity;
  for (let i = 0; i < 3; i++) {
    const before = sqlStatementCount();
    await run();
    least = Math.min(least, sqlStatementCount() - before);
  }
  return least;
}
