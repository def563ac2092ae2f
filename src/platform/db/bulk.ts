import { ReferenceKind, type EntityClass, type EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { columnValue, runStatement } from './sql.js';

/**
 * Batches of rows written in one statement, their columns and types read from the entities'
 * metadata (the one description of each table, as `insertTogether` reads it): a column added to
 * an entity reaches every batch that sets its property. Rows are plain objects keyed by the
 * entity's property names (an entity itself, or a `Pick` of one).
 */

/** One statement of a bulk write: SQL with a single parameter (`?`: the rows as a JSON array), and the rows. */
export interface BulkWrite {
  sql: string;
  rows: object[];
}

/** A row of entity `T` for a batch: its properties by name (extra keys are ignored). */
export type BulkRow<T> = { [K in keyof T]?: unknown };

/** The persisted columns of `entity` (scalars and owned references), by property name. */
function columnsOf(em: EntityManager, entity: EntityClass<object>): Map<string, EntityProperty> {
  const columns = new Map<string, EntityProperty>();
  for (const prop of em.getMetadata().get(entity.name).props) {
    if (prop.persist === false || prop.formula || prop.kind === ReferenceKind.EMBEDDED) continue;
    if (prop.kind === ReferenceKind.ONE_TO_MANY || prop.kind === ReferenceKind.MANY_TO_MANY) continue;
    if (prop.kind === ReferenceKind.ONE_TO_ONE && !prop.owner) continue;
    columns.set(prop.name, prop);
  }
  return columns;
}

/** The columns `names` of `entity` (all of its persisted properties the rows set when undefined), and the rows keyed by column. */
function shape<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  rows: readonly BulkRow<T>[],
  names?: readonly string[],
): { columns: EntityProperty[]; rows: object[] } {
  const all = columnsOf(em, entity);
  const wanted = names ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const columns = wanted.flatMap((name) => {
    const prop = all.get(name);
    if (!prop && names) throw new Error(`${entity.name} has no column for property ${name}`);
    return prop ? [prop] : [];
  });
  return {
    columns,
    rows: rows.map((row) =>
      Object.fromEntries(
        columns.map((p) => [p.fieldNames[0], columnValue(p, (row as Record<string, unknown>)[p.name])]),
      ),
    ),
  };
}

const recordset = (columns: EntityProperty[]) =>
  `jsonb_to_recordset(?::jsonb) as v(${columns.map((p) => `"${p.fieldNames[0]}" ${p.columnTypes[0]}`).join(', ')})`;

/** Inserts `rows` of `entity` in one statement, in their order; a property no row sets takes its column's default. */
export function bulkInsert<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  rows: readonly BulkRow<T>[],
): BulkWrite {
  const table = em.getMetadata().get(entity.name).tableName;
  const { columns, rows: values } = shape(em, entity, rows);
  const names = columns.map((p) => `"${p.fieldNames[0]}"`);
  return {
    sql: `insert into "${table}" (${names.join(', ')}) select ${names.map((n) => `v.${n}`).join(', ')} from ${recordset(columns)}`,
    rows: values,
  };
}

/** Sets properties `set` of the rows of `entity` found by property `key`, to the rows' values, in one statement. */
export function bulkUpdate<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  rows: readonly BulkRow<T>[],
  set: readonly (keyof T & string)[],
  key: keyof T & string = 'id' as keyof T & string,
): BulkWrite {
  const table = em.getMetadata().get(entity.name).tableName;
  const { columns, rows: values } = shape(em, entity, rows, [key, ...set]);
  const [id, ...changed] = columns.map((p) => `"${p.fieldNames[0]}"`);
  return {
    sql: `update "${table}" t set ${changed.map((c) => `${c} = v.${c}`).join(', ')} from ${recordset(columns)} where t.${id} = v.${id}`,
    rows: values,
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
