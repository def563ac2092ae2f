import { createHash } from 'node:crypto';
import { helper, JsonType, Reference, ReferenceKind, type EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { insideTransaction } from '../context.js';
import type { QueryConfig, QueryResultRow } from 'pg';
import { timedStatement } from './sql-counter.js';

interface PgClient {
  query<R extends QueryResultRow>(query: QueryConfig): Promise<{ rows: R[] }>;
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

interface PooledClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
}

/** node-pg's client as it is underneath: its socket. */
interface WithSocket {
  connection: { stream: { destroy(): void } };
}

/** Whether this unit of work holds no transaction, so it may take a pooled connection (`queryRows`). */
export function outsideTransaction(em: EntityManager): boolean {
  // The base EntityManager sees a transaction opened with `em.transactional` (MikroORM's own context); ours is flagged.
  return !em.isInTransaction() && !insideTransaction.getStore();
}

/** The pools (knex clients) whose connections may keep named prepared statements (`DATABASE_PREPARED_STATEMENTS=true`). */
const namedStatementPools = new WeakSet<object>();

/**
 * Lets the statements of `orm`'s pool be prepared once per connection under their names
 * (`DATABASE_PREPARED_STATEMENTS=true`: only with a direct connection or a pooler that tracks
 * prepared statements, PgBouncer 1.21+ with `max_prepared_statements`). Off by default: a named
 * statement lives in one server session, which a pooler in transaction mode hands to others.
 */
export function usePreparedStatements(orm: { em: EntityManager }, enabled: boolean): void {
  const client = orm.em.getConnection().getKnex().client as object;
  if (enabled) namedStatementPools.add(client);
  else namedStatementPools.delete(client);
}

/**
 * Runs one statement straight on the pg driver with a connection of the ORM's own pool (no
 * query builder, no hydration, no extra pool, no fork of the caller's EntityManager): for hot
 * read models. `on` is a service context (its `base` EntityManager) or an EntityManager. When the
 * context's unit of work holds a transaction (an idempotent mutation's), the statement runs on
 * that transaction's connection: it sees the transaction's own writes and never waits for a
 * second connection while holding one. A `query`'s name is used (prepared once per connection)
 * only with `usePreparedStatements`; otherwise it is sent unnamed, parsed with each execution,
 * and depends on no server session. Counted in `commerce_db_statement_duration_seconds` (and
 * `sqlStatementCount`).
 */
export function queryRows<R extends QueryResultRow>(
  on: { base: EntityManager; em: EntityManager } | EntityManager,
  query: QueryConfig,
  dropAfterMs?: number,
): Promise<R[]> {
  const em = 'base' in on ? on.base : on;
  if (outsideTransaction(em)) return pooled(poolOf(em), query, dropAfterMs);
  const transaction = ('base' in on ? on.em : on).getTransactionContext<{ client: PooledClient }>();
  if (!transaction)
    return Promise.reject(new Error('queryRows inside a transaction needs the context that holds it (withEm)'));
  return pooled(transaction.client, query);
}

/** The ORM's pool of `em` (knex's client), which lends connections. */
function poolOf(em: EntityManager): PooledClient {
  const client: unknown = em.getConnection().getKnex().client;
  return client as PooledClient;
}

/**
 * With `dropAfterMs`, a statement not answered by then is dropped with its connection (its socket
 * closed, the pool discards it): it never reaches the database late. A pooler holds the statements
 * it cannot send while the database is away (PgBouncer queues them, then runs them on the server it
 * reaches next) and drops those of a client that went away.
 */
async function pooled<R extends QueryResultRow>(
  pool: PooledClient,
  query: QueryConfig,
  dropAfterMs?: number,
): Promise<R[]> {
  const named = query.name !== undefined && namedStatementPools.has(pool);
  const connection = await pool.acquireConnection();
  const timer =
    dropAfterMs === undefined
      ? undefined
      : setTimeout(() => (connection as unknown as WithSocket).connection.stream.destroy(), dropAfterMs);
  try {
    // Unnamed, the text and values go as they are: pg copies a config object (its property descriptors) per statement.
    const send = () => (named ? connection.query<R>(query) : connection.query<R>(query.text, query.values));
    return (await timedStatement(query.text, send)).rows;
  } finally {
    clearTimeout(timer);
    // Knex releases at once and answers an already resolved promise: nothing to wait for.
    void pool.releaseConnection(connection);
  }
}

/** Most statement texts kept numbered and named: a connection prepares at most these many (the rest go unnamed). */
const MAX_PREPARED = 1000;

/** `sql` with its `?` placeholders numbered `$1…` (outside quoted literals), and a name to prepare it under; cached per text. */
const prepared = new Map<string, { text: string; name?: string }>();

export function preparedStatement(sql: string): { text: string; name?: string } {
  let statement = prepared.get(sql);
  if (!statement) {
    let n = 0;
    const text = sql.replace(/'(?:[^']|'')*'|\?/g, (m) => (m === '?' ? `$${++n}` : m));
    if (prepared.size >= MAX_PREPARED) return { text };
    statement = { text, name: `s_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}` };
    prepared.set(sql, statement);
  }
  return statement;
}

interface KnexRunner {
  raw(sql: string, bindings: readonly unknown[]): Promise<{ rows: QueryResultRow[] }>;
}

/**
 * The one way to run a hand-written statement (a guarded claim, a journal transition, a batch of
 * `bulk.ts`): `?` placeholders, the parameters sent as parameters (`em.execute` inlines them into
 * the SQL text, escaping each character: slow for a batch sent as one JSON value) and nothing
 * hydrated. Inside `em`'s transaction when it holds one, else autocommit on a pooled connection
 * straight on the pg driver (named and prepared once per connection only with
 * `usePreparedStatements`). With `autocommit`, always on a pooled connection of its own, even
 * while `em` holds a transaction: work that is never part of the caller's (a processor's books).
 * Counted in `commerce_db_statement_duration_seconds` (and `sqlStatementCount`).
 */
export async function runStatement<R extends QueryResultRow = QueryResultRow>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
  opts: { autocommit?: boolean } = {},
): Promise<R[]> {
  if (!opts.autocommit) {
    const transaction = em.getTransactionContext<KnexRunner>();
    if (transaction) return (await timedStatement(sql, () => transaction.raw(sql, params))).rows as R[];
    if (!outsideTransaction(em)) return em.execute<R[]>(sql, [...params]);
  }
  const { text, name } = preparedStatement(sql);
  return pooled<R>(poolOf(em), {
    name,
    text,
    values: params as unknown[],
  });
}

/** SQL for a timestamp column as epoch milliseconds (float8: the driver parses no date string). */
export const epochMs = (column: string): string => `floor(extract(epoch from ${column}) * 1000)::float8`;

/** A read model's row as PostgreSQL sends it: the `Dates` fields as epoch milliseconds (`epochMs`). */
export type EpochRow<T, Dates extends keyof T> = Omit<T, Dates> & {
  [K in Dates]: null extends T[K] ? number | null : number;
};

/** Turns the `dates` fields of `row` (epoch ms, or null) into `Date`s in place; the row becomes the record `T`. */
export function withDates<T>(row: object, dates: readonly (keyof T & string)[]): T {
  const record = row as Record<string, unknown>;
  for (const key of dates) {
    const value = record[key] as number | null;
    record[key] = value == null ? null : new Date(value);
  }
  return record as T;
}

/** A property's value as its column holds it: a reference by its key, anything else as it is (null for none). */
export function columnValue(prop: EntityProperty, value: unknown): unknown {
  if (value == null) return null;
  if (prop.kind === ReferenceKind.MANY_TO_ONE || prop.kind === ReferenceKind.ONE_TO_ONE) {
    const target = Reference.unwrapReference(value);
    return typeof target === 'object' ? helper(target).getPrimaryKey() : target;
  }
  return value;
}

/** A column of a new entity's row, as it is sent as a parameter (JSON as its text): `insertTogether`, `bulkInsert`'s constants. */
export function columnParameter(prop: EntityProperty, value: unknown): unknown {
  if (value != null && (prop.type === 'json' || prop.runtimeType === 'object' || prop.customType instanceof JsonType))
    return JSON.stringify(value);
  return columnValue(prop, value);
}

/**
 * What a value of `insertTogether`'s row is when the statement computes it from `from`'s row
 * (say an order number taken in the statement): the SQL of the column's value (the entity's own
 * value is not sent), or a function of the entity's value as sent (`given`, `?::type`), e.g. a
 * JSON object with a key set from the statement: `` (given) => `${given} || jsonb_build_object(…)` ``.
 */
export type ComputedValue = string | ((given: string) => string);

/**
 * What makes `insertTogether`'s rows conditional, in the same statement: `with` parts that run
 * first (a guarded update, a counter), the part `from` whose one row each insert needs (none: no
 * row is written), values computed from `from`'s row (`computed`: by entity, then property), and
 * what the statement answers (`returning`, over `from`'s columns).
 */
export interface InsertCondition {
  with: { sql: string; params: readonly unknown[] }[];
  from: string;
  computed?: ReadonlyMap<object, Readonly<Record<string, ComputedValue>>>;
  returning: string;
}

const companionSources: ((em: EntityManager, entity: object) => object[])[] = [];

/** What an entity brings into the `insertTogether` statement that writes it (an event: what it causes, see events.service.ts). */
export function registerInsertCompanions(source: (em: EntityManager, entity: object) => object[]): void {
  companionSources.push(source);
}

/**
 * Writes new entities (made with `em.create(…, { persist: false })`) as one statement, each row
 * an `insert` of its own in a `with`: one round trip and, outside a transaction, atomic on its
 * own (no begin and commit around it). Columns come from the entities' metadata (the one
 * description of each table); properties left undefined take the column's default. With `when`,
 * the rows are written only if its `from` part has a row (see `InsertCondition`), and the
 * statement answers its `returning` (no row: nothing was written).
 */
export async function insertTogether<R extends QueryResultRow = QueryResultRow>(
  em: EntityManager,
  entities: readonly object[],
  when?: InsertCondition,
): Promise<R[]> {
  // Companion rows (an event's email) go after all the given rows, so rows of one table stay together and in order.
  entities = [...entities, ...entities.flatMap((e) => companionSources.flatMap((source) => source(em, e)))];
  const parts: (string | { table: string; columns: string; rows: string[] })[] = when
    ? when.with.map((w) => w.sql)
    : [];
  const params: unknown[] = when ? when.with.flatMap((w) => w.params) : [];
  // Rows of one table that follow each other go in one insert, in the order given: the sub-statements
  // of a `with` run in no set order, but one insert takes its rows (and their serial defaults, an
  // event's log sequence among them) in order.
  let last: { table: string; columns: string; rows: string[] } | null = null;
  for (const entity of entities) {
    const meta = em.getMetadata().get(entity.constructor.name);
    const computed = when?.computed?.get(entity);
    const columns: string[] = [];
    const values: string[] = [];
    for (const prop of meta.props) {
      if (
        prop.persist === false ||
        prop.kind === ReferenceKind.ONE_TO_MANY ||
        prop.kind === ReferenceKind.MANY_TO_MANY ||
        prop.kind === ReferenceKind.EMBEDDED ||
        prop.formula
      )
        continue;
      if (prop.kind === ReferenceKind.ONE_TO_ONE && !prop.owner) continue;
      const value = (entity as Record<string, unknown>)[prop.name];
      const compute = computed?.[prop.name];
      if (value === undefined && compute === undefined) continue;
      columns.push(`"${prop.fieldNames[0]}"`);
      if (typeof compute === 'string') {
        values.push(compute);
        continue;
      }
      params.push(columnParameter(prop, value));
      const given = when ? `?::${prop.columnTypes[0]}` : '?';
      values.push(compute ? compute(given) : given);
    }
    const row = when ? `select ${values.join(', ')} from ${when.from}` : `(${values.join(', ')})`;
    if (last && last.table === meta.tableName && last.columns === columns.join(', ')) last.rows.push(row);
    else parts.push((last = { table: meta.tableName, columns: columns.join(', '), rows: [row] }));
  }
  const statements = parts.map((part, i) => {
    if (typeof part === 'string') return part;
    // A conditional insert's rows are selects: `union all` keeps them in order (no sort, no distinct).
    const rows = when ? part.rows.join(' union all ') : `values ${part.rows.join(', ')}`;
    return `w${i} as (insert into "${part.table}" (${part.columns}) ${rows})`;
  });
  return runStatement<R>(
    em,
    `with ${statements.join(', ')} select ${when ? `${when.returning} from ${when.from}` : '1'}`,
    params,
  );
}
