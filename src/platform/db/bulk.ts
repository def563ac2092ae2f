import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement } from './sql.js';

/** Column name → PostgreSQL type, as a bulk statement reads them from its JSON rows. */
export type BulkColumns = Record<string, string>;

/** One statement of a bulk write: SQL with a single parameter (`?`: the rows as a JSON array), and the rows. */
export interface BulkWrite {
  sql: string;
  rows: object[];
}

const recordset = (columns: BulkColumns) =>
  `jsonb_to_recordset(?::jsonb) as v(${Object.entries(columns)
    .map(([name, type]) => `"${name}" ${type}`)
    .join(', ')})`;

/** Inserts `rows` (objects keyed by column name) into `table` in one statement, in their order. */
export function bulkInsert(table: string, columns: BulkColumns, rows: object[]): BulkWrite {
  const names = Object.keys(columns).map((c) => `"${c}"`);
  return {
    sql: `insert into "${table}" (${names.join(', ')}) select ${names.map((n) => `v.${n}`).join(', ')} from ${recordset(columns)}`,
    rows,
  };
}

/** Updates rows of `table` found by `key` (a column of `columns`) to the other columns' values, in one statement. */
export function bulkUpdate(table: string, columns: BulkColumns, rows: object[], key = 'id'): BulkWrite {
  const sets = Object.keys(columns)
    .filter((c) => c !== key)
    .map((c) => `"${c}" = v."${c}"`);
  return {
    sql: `update "${table}" t set ${sets.join(', ')} from ${recordset(columns)} where t."${key}" = v."${key}"`,
    rows,
  };
}

/**
 * Runs `writes` (the empty ones skipped) as one statement, one round trip: each write a
 * data-modifying `WITH` query of it. They run against one snapshot, so no two may touch the same
 * row. Rows inserted by one write keep their order (a table's `bigserial` follows it).
 */
export async function runBulk(em: EntityManager, writes: BulkWrite[]): Promise<void> {
  const todo = writes.filter((w) => w.rows.length);
  if (!todo.length) return;
  const sql = todo.length === 1 ? todo[0].sql : `with ${todo.map((w, i) => `w${i} as (${w.sql})`).join(', ')} select 1`;
  await runStatement(
    em,
    sql,
    todo.map((w) => JSON.stringify(w.rows)),
  );
}
