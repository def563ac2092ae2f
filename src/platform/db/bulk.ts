import { ReferenceKind, type EntityClass, type EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { QueryResultRow } from 'pg';
import { columnParameter, columnValue, runStatement } from './sql.js';

/**
 * Batches of rows written in one statement, their columns and types read from the entities'
 * metadata (the one description of each table, as `insertTogether` reads it): a column added to
 * an entity reaches every batch that sets its property. Rows are plain objects keyed by the
 * entity's property names (an entity itself, or a `Pick` of one). The rows go to PostgreSQL as
 * one JSON parameter, read back as a record set `v` whose columns are the entity's. What a
 * statement adds to that (an upsert's arithmetic, a guard) is SQL of the caller's: the domain part.
 */

/** One statement of a bulk write: SQL with `?` parameters (`params`, the rows among them as one JSON array), and the rows. */
export interface BulkWrite {
  sql: string;
  params: unknown[];
  rows: object[];
}

/** A row of entity `T` for a batch: its properties by name (extra keys are ignored). */
export type BulkRow<T> = { [K in keyof T]?: unknown };

/** A property name of entity `T`. */
type Prop<T> = keyof T & string;

/** SQL with its own `?` parameters, in order. */
export interface SqlPart {
  sql: string;
  params: readonly unknown[];
}

/**
 * How a column is set: SQL over the stored row (`t`) and the given one (`v` in an update,
 * `excluded` in an upsert), or a function of the property's two columns (say
 * `(stored, given) => \`greatest(${stored}, ${given})\``).
 */
export type Assignment = string | ((stored: string, given: string) => string);

/** What `bulkInsert` does beyond inserting the rows as they are. */
export interface BulkInsertOptions<T> {
  /** Values the same for every row, by property name: sent once, as parameters (the merchant, a timestamp). */
  constants?: BulkRow<T>;
  /** Columns computed for every row, by property name: SQL over the row (`v`, with the entity's columns). */
  computed?: { [K in Prop<T>]?: string | SqlPart };
  /**
   * A row whose key is taken: `target` the properties of a unique index (`where`: its predicate;
   * no target: any), then `update` the properties a stored row takes from the new one and `set`
   * the ones it takes by an `Assignment` (over `t` and `excluded`). Neither: `do nothing`.
   */
  onConflict?: {
    target?: readonly Prop<T>[];
    where?: string;
    update?: readonly Prop<T>[];
    set?: { [K in Prop<T>]?: Assignment };
  };
  /** Properties the statement answers for each row written, keyed by property name (see `bulkRows`). */
  returning?: readonly Prop<T>[];
  /** More of the answer, as SQL over `t` (the written row): `(t.xmax = 0) as inserted`. */
  returningSql?: string;
}

/** What `bulkUpdate` does beyond setting the rows' values. */
export interface BulkUpdateOptions<T> {
  /** The properties a row is found by (all must match): `id` unless given. */
  key?: Prop<T> | readonly Prop<T>[];
  /** Columns set by an `Assignment` (over `t` and `v`) instead of to the row's value, or besides them. */
  assign?: { [K in Prop<T>]?: Assignment };
}

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

/** The column of property `name` of `entity`, or an error naming both. */
function columnOf(all: Map<string, EntityProperty>, entity: EntityClass<object>, name: string): EntityProperty {
  const prop = all.get(name);
  if (!prop) throw new Error(`${entity.name} has no column for property ${name}`);
  return prop;
}

const quoted = (p: EntityProperty) => `"${p.fieldNames[0]}"`;

const SERIALS: Record<string, string> = { smallserial: 'smallint', serial: 'int', bigserial: 'bigint' };

/** The type of a property's column as a value of it (an autoincrement key's `serial` is its `int`). */
const typeOf = (p: EntityProperty) => SERIALS[p.columnTypes[0]] ?? p.columnTypes[0];

/** The columns `names` of `entity` (all of its persisted properties the rows set when undefined), and the rows keyed by column. */
function shape<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  rows: readonly BulkRow<T>[],
  names?: readonly string[],
): { all: Map<string, EntityProperty>; columns: EntityProperty[]; rows: object[] } {
  const all = columnsOf(em, entity);
  const wanted = names ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const columns = names ? names.map((n) => columnOf(all, entity, n)) : wanted.flatMap((n) => all.get(n) ?? []);
  return {
    all,
    columns,
    rows: rows.map((row) =>
      Object.fromEntries(
        columns.map((p) => [p.fieldNames[0], columnValue(p, (row as Record<string, unknown>)[p.name])]),
      ),
    ),
  };
}

const recordset = (columns: EntityProperty[]) =>
  `jsonb_to_recordset(?::jsonb) as v(${columns.map((p) => `${quoted(p)} ${typeOf(p)}`).join(', ')})`;

/** `prop = <assignment>`, the stored row `t` and the given one `given`. */
const assignment = (prop: EntityProperty, how: Assignment, given: string) =>
  `${quoted(prop)} = ${typeof how === 'string' ? how : how(`t.${quoted(prop)}`, `${given}.${quoted(prop)}`)}`;

/** `returning` of `properties` (each as its property name) and `sql`. */
function returningOf(
  all: Map<string, EntityProperty>,
  entity: EntityClass<object>,
  props?: readonly string[],
  sql?: string,
) {
  const parts = (props ?? []).map((name) => `t.${quoted(columnOf(all, entity, name))} as "${name}"`);
  if (sql) parts.push(sql);
  return parts.length ? ` returning ${parts.join(', ')}` : '';
}

/**
 * Inserts `rows` of `entity` in one statement, in their order (a `bigserial` and the locks an
 * upsert takes follow it); a property no row sets takes its column's default, unless `opts` gives
 * it (`constants`, `computed`). With `onConflict`, an upsert; with `returning`, run it with `bulkRows`.
 */
export function bulkInsert<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  rows: readonly BulkRow<T>[],
  opts: BulkInsertOptions<T> = {},
): BulkWrite {
  const table = em.getMetadata().get(entity.name).tableName;
  const given = { ...opts.constants, ...opts.computed };
  const {
    all,
    columns,
    rows: values,
  } = shape(
    em,
    entity,
    rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !(k in given))) as BulkRow<T>),
  );
  const params: unknown[] = [];
  const selected = columns.map((p) => `v.${quoted(p)}`);
  const names = columns.map(quoted);
  for (const [name, value] of Object.entries(opts.constants ?? {})) {
    const prop = columnOf(all, entity, name);
    names.push(quoted(prop));
    selected.push(`?::${typeOf(prop)}`);
    params.push(columnParameter(prop, value));
  }
  for (const [name, part] of Object.entries(opts.computed ?? {}) as [string, string | SqlPart][]) {
    names.push(quoted(columnOf(all, entity, name)));
    selected.push(typeof part === 'string' ? part : part.sql);
    if (typeof part !== 'string') params.push(...part.params);
  }
  params.push(JSON.stringify(values));
  let sql = `insert into "${table}" as t (${names.join(', ')}) select ${selected.join(', ')} from ${recordset(columns)}`;
  const conflict = opts.onConflict;
  if (conflict) {
    const target = conflict.target?.length
      ? ` (${conflict.target.map((n) => quoted(columnOf(all, entity, n))).join(', ')})${conflict.where ? ` where ${conflict.where}` : ''}`
      : '';
    const sets = [
      ...(conflict.update ?? []).map((n) => assignment(columnOf(all, entity, n), (_, g) => g, 'excluded')),
      ...Object.entries(conflict.set ?? {}).map(([n, how]) =>
        assignment(columnOf(all, entity, n), how as Assignment, 'excluded'),
      ),
    ];
    sql += ` on conflict${target} ${sets.length ? `do update set ${sets.join(', ')}` : 'do nothing'}`;
  }
  return { sql: sql + returningOf(all, entity, opts.returning, opts.returningSql), params, rows: values };
}

/**
 * Sets properties `set` of the rows of `entity` found by `opts.key` (`id`) to the rows' values,
 * and those of `opts.assign` by their assignments, in one statement.
 */
export function bulkUpdate<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  rows: readonly BulkRow<T>[],
  set: readonly Prop<T>[],
  opts: BulkUpdateOptions<T> = {},
): BulkWrite {
  const table = em.getMetadata().get(entity.name).tableName;
  const key = opts.key === undefined ? ['id'] : typeof opts.key === 'string' ? [opts.key] : opts.key;
  const { all, columns, rows: values } = shape(em, entity, rows, [...key, ...set]);
  const assign = (opts.assign ?? {}) as Record<string, Assignment>;
  const sets = [
    ...columns.slice(key.length).flatMap((p) => (p.name in assign ? [] : [assignment(p, (_, g) => g, 'v')])),
    ...Object.entries(assign).map(([n, how]) => assignment(columnOf(all, entity, n), how, 'v')),
  ];
  const where = columns
    .slice(0, key.length)
    .map((p) => `t.${quoted(p)} = v.${quoted(p)}`)
    .join(' and ');
  return {
    sql: `update "${table}" t set ${sets.join(', ')} from ${recordset(columns)} where ${where}`,
    params: [JSON.stringify(values)],
    rows: values,
  };
}

/**
 * Runs `writes` (the empty ones skipped) as one statement, one round trip: each write a
 * data-modifying `WITH` query of it. They run against one snapshot, so no two may touch the same
 * row. Rows inserted by one write keep their order (a table's `bigserial` follows it). With
 * `autocommit`, on a connection of its own outside the caller's transaction (see `runStatement`).
 */
export async function runBulk(
  em: EntityManager,
  writes: BulkWrite[],
  opts: { autocommit?: boolean } = {},
): Promise<void> {
  const todo = writes.filter((w) => w.rows.length);
  if (!todo.length) return;
  const sql = todo.length === 1 ? todo[0].sql : `with ${todo.map((w, i) => `w${i} as (${w.sql})`).join(', ')} select 1`;
  await runStatement(
    em,
    sql,
    todo.flatMap((w) => w.params),
    opts,
  );
}

/** Runs one write (none for no rows) and answers its `returning` rows, keyed by property name. */
export async function bulkRows<R extends QueryResultRow>(em: EntityManager, write: BulkWrite): Promise<R[]> {
  return write.rows.length ? runStatement<R>(em, write.sql, write.params) : [];
}
