import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { QueryConfig } from 'pg';
import type { ServiceContext } from '../context.js';
import { queryRows } from '../db/sql.js';
import { DomainError } from '../errors.js';

/** The `created_after` / `created_before` filter of a list as a `createdAt` condition (undefined when neither is set). */
export function createdRange(filters: {
  created_after?: Date;
  created_before?: Date;
}): { $gte?: Date; $lte?: Date } | undefined {
  if (!filters.created_after && !filters.created_before) return undefined;
  return {
    ...(filters.created_after && { $gte: filters.created_after }),
    ...(filters.created_before && { $lte: filters.created_before }),
  };
}

/**
 * A page of a list ordered newest first: the rows between the cursors (`after` and `before`
 * both bound it when given, as in Relay), the first `limit` of them, or the last `limit` when
 * `fromEnd` (Relay `last`).
 */
export interface PageRequest<Id> {
  limit: number;
  /** Rows older than this one (REST `starting_after`, GraphQL `after`). */
  after?: Id;
  /** Rows newer than this one (GraphQL `before`). */
  before?: Id;
  /** Take the last `limit` rows of the range (the oldest ones) instead of the first. */
  fromEnd?: boolean;
}

export interface Page<T> {
  /** Newest first, whichever end the page was read from. */
  items: T[];
  /** More rows exist beyond the page in the direction read (older ones, or newer ones when `fromEnd`). */
  hasMore: boolean;
}

interface Keyed<Id> {
  id: Id;
  createdAt: Date;
}

/**
 * The keyset rule in SQL, for `paginate` and for hand-written reads: the bounds of `page` on
 * `alias` (`cursorRow(id)` is the SQL of that cursor row's `(created_at, id)`, scoped to the
 * caller), the order that reads the wanted end first, and one row more than the page to know
 * whether more follow. `pageOf` turns the rows read into the page, newest first.
 */
export function keysetSql<Id>(
  page: PageRequest<Id>,
  alias: string,
  cursorRow: (id: Id) => string,
): { bounds: string[]; orderBy: string; limit: number } {
  const bounds: string[] = [];
  if (page.after !== undefined) bounds.push(`(${alias}.created_at, ${alias}.id) < ${cursorRow(page.after)}`);
  if (page.before !== undefined) bounds.push(`(${alias}.created_at, ${alias}.id) > ${cursorRow(page.before)}`);
  const dir = page.fromEnd ? 'asc' : 'desc';
  return { bounds, orderBy: `${alias}.created_at ${dir}, ${alias}.id ${dir}`, limit: page.limit + 1 };
}

/** One optional condition of a page statement: when `value` is given, `column op $n`, and `letter` in the statement's name. */
export interface PageFilter {
  column: string;
  value: unknown;
  letter: string;
  op?: string;
}

/**
 * The statement of a keyset page of a merchant's rows of `table` (as `alias`), newest first by
 * `(created_at, id)` (oldest first when reading backwards), one row more than the page; the cursor
 * row is looked up in the same statement. Its text depends only on which filters are present
 * (and on `always`, conditions the caller derives from those), so each shape is prepared once per
 * connection under `<name>_<letters>`.
 */
export function keysetPageQuery<Id>(opts: {
  name: string;
  table: string;
  alias: string;
  columns: string;
  merchantId: string;
  livemode: boolean;
  filters: PageFilter[];
  always?: string[];
  page: PageRequest<Id>;
}): QueryConfig {
  const { alias: a, page } = opts;
  const values: unknown[] = [opts.merchantId, opts.livemode];
  const where = [`${a}.merchant_id = $1`, `${a}.livemode = $2`, ...(opts.always ?? [])];
  const shape: string[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  for (const f of opts.filters) {
    if (f.value === undefined) continue;
    where.push(`${f.column} ${f.op ?? '='} ${param(f.value)}`);
    shape.push(f.letter);
  }
  const keyset = keysetSql(
    page,
    a,
    (id) =>
      `(select c.created_at, c.id from ${opts.table} c where c.id = ${param(id)} and c.merchant_id = $1 and c.livemode = $2)`,
  );
  where.push(...keyset.bounds);
  if (page.after !== undefined) shape.push('A');
  if (page.before !== undefined) shape.push('B');
  if (page.fromEnd) shape.push('L');
  const limit = param(keyset.limit);
  return {
    name: `${opts.name}_${shape.join('') || 'all'}`,
    text: `select ${opts.columns} from ${opts.table} ${a} where ${where.join(' and ')} order by ${keyset.orderBy} limit ${limit}`,
    values,
  };
}

/** The page of rows read with `keysetSql` (newest first). */
export function pageOf<T>(rows: T[], page: PageRequest<unknown>): Page<T> {
  const items = rows.slice(0, page.limit);
  if (page.fromEnd) items.reverse();
  return { items, hasMore: rows.length > page.limit };
}

/** The cursors of `page` with the parameter names they were given as (to report one naming nothing). */
export function pageCursors<Id>(page: PageRequest<Id>, afterParam: string, beforeParam = 'before'): [string, Id][] {
  return [
    ...(page.after !== undefined ? [[afterParam, page.after] as [string, Id]] : []),
    ...(page.before !== undefined ? [[beforeParam, page.before] as [string, Id]] : []),
  ];
}

const unknownCursor = (param: string, cursor: string | number) =>
  new DomainError('invalid_request', `${param} '${cursor}' does not name an object of this account and mode`, {
    param,
  });

/**
 * The page of `rows` a read model read from `table` with `keysetSql`. When the page is empty,
 * each cursor must name a row of the caller in `table` (else 400 `invalid_request`): one
 * statement per cursor, only then.
 */
export async function readModelPage<T, Id extends string | number>(
  ctx: ServiceContext,
  table: string,
  rows: T[],
  page: PageRequest<Id>,
  cursorParam: string,
): Promise<Page<T>> {
  const result = pageOf(rows, page);
  if (result.items.length === 0) {
    for (const [name, cursor] of pageCursors(page, cursorParam)) {
      const found = await queryRows(ctx, {
        name: `${table}_exists`,
        text: `select 1 from ${table} where id = $1 and merchant_id = $2 and livemode = $3`,
        values: [cursor, ctx.principal.merchantId, ctx.principal.livemode],
      });
      if (!found.length) throw unknownCursor(name, cursor);
    }
  }
  return result;
}

/**
 * The one keyset paginator behind every list: rows ordered by `(created_at, id)` newest first;
 * the cursor is a row id, compared as a tuple in SQL so inserts while paging never shift a page.
 * A cursor that names no row of the caller raises 400 `invalid_request`.
 */
export async function paginate<T extends Keyed<Id> & object, Id extends string | number>(
  ctx: ServiceContext,
  entity: EntityClass<T>,
  where: FilterQuery<T>,
  page: PageRequest<Id>,
  options: { cursorParam: string; beforeParam?: string },
): Promise<Page<T>> {
  const meta = ctx.em.getMetadata().get(entity.name);
  const qb = ctx.em.createQueryBuilder(entity, 'e').select('*').where(where);
  const params: unknown[] = [];
  const sql = keysetSql(page, 'e', (id) => {
    params.push(id, ctx.principal.merchantId, ctx.principal.livemode);
    return `(select c.created_at, c.id from "${meta.tableName}" c where c.id = ? and c.merchant_id = ? and c.livemode = ?)`;
  });
  if (sql.bounds.length) qb.andWhere(sql.bounds.join(' and '), params);
  qb.orderBy({ createdAt: page.fromEnd ? 'asc' : 'desc', id: page.fromEnd ? 'asc' : 'desc' }).limit(sql.limit);
  const { items, hasMore } = pageOf((await qb.getResult()) as T[], page);
  if (items.length === 0) {
    for (const [param, cursor] of pageCursors(page, options.cursorParam, options.beforeParam)) {
      const exists = await ctx.em.count(entity, {
        id: cursor,
        merchant: ctx.principal.merchantId,
        livemode: ctx.principal.livemode,
      } as FilterQuery<T>);
      if (!exists) throw unknownCursor(param, cursor);
    }
  }
  return { items, hasMore };
}

/**
 * The same page as `paginate` over rows already in memory (e.g. all refunds of an order, loaded
 * in one batch for many orders): newest first by `(createdAt, id)`.
 */
export function paginateLoaded<T extends Keyed<Id>, Id extends string | number>(
  rows: T[],
  page: PageRequest<Id>,
): Page<T> {
  const sorted = [...rows].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  const at = (id: Id) => sorted.findIndex((r) => r.id === id);
  if ((page.after !== undefined && at(page.after) < 0) || (page.before !== undefined && at(page.before) < 0))
    return { items: [], hasMore: false };
  const start = page.after === undefined ? 0 : at(page.after) + 1;
  const end = page.before === undefined ? sorted.length : at(page.before);
  const range = sorted.slice(start, Math.max(start, end));
  if (page.fromEnd)
    return { items: range.slice(Math.max(0, range.length - page.limit)), hasMore: range.length > page.limit };
  return { items: range.slice(0, page.limit), hasMore: range.length > page.limit };
}

/** The `createdAt` condition of a list's inclusive `created_after` / `created_before` filters (undefined: neither is set). */
export function createdBetween(filters: {
  createdAfter?: Date;
  createdBefore?: Date;
}): { $gte?: Date; $lte?: Date } | undefined {
  if (!filters.createdAfter && !filters.createdBefore) return undefined;
  return {
    ...(filters.createdAfter && { $gte: filters.createdAfter }),
    ...(filters.createdBefore && { $lte: filters.createdBefore }),
  };
}
