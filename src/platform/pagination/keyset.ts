import type { EntityClass, FilterQuery, FindOptions } from '@mikro-orm/core';
import type { ServiceContext } from '../context.js';
import { DomainError } from '../errors.js';

/** The `created_after` / `created_before` filter of a list as a `createdAt` condition (undefined when neither is set). */
export function createdRange(filters: { created_after?: Date; created_before?: Date }): { $gte?: Date; $lte?: Date } | undefined {
  if (!filters.created_after && !filters.created_before) return undefined;
  return { ...(filters.created_after && { $gte: filters.created_after }), ...(filters.created_before && { $lte: filters.created_before }) };
}

/** Where a page starts: after or before the row with this id, reading newest first. */
export interface PageRequest<Id> {
  limit: number;
  /** Rows older than this one (REST `starting_after`, GraphQL `after`). */
  after?: Id;
  /** Rows newer than this one (GraphQL `before` with `last`). */
  before?: Id;
}

export interface Page<T> {
  items: T[];
  /** More rows exist beyond the page in the direction read. */
  hasMore: boolean;
}

interface Keyed<Id> {
  id: Id;
  createdAt: Date;
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
  options: { cursorParam: string; populate?: FindOptions<T>['populate'] },
): Promise<Page<T>> {
  const cursor = page.after ?? page.before;
  const backward = page.after === undefined && page.before !== undefined;
  const meta = ctx.em.getMetadata().get(entity.name);
  const qb = ctx.em.createQueryBuilder(entity, 'e').select('*').where(where);
  if (cursor !== undefined) {
    const op = backward ? '>' : '<';
    qb.andWhere(
      `(e.created_at, e.id) ${op} (select c.created_at, c.id from "${meta.tableName}" c where c.id = ? and c.merchant_id = ? and c.livemode = ?)`,
      [cursor, ctx.principal.merchantId, ctx.principal.livemode],
    );
  }
  const dir = backward ? 'asc' : 'desc';
  qb.orderBy({ createdAt: dir, id: dir } as never).limit(page.limit + 1);
  const rows = (await qb.getResult()) as T[];
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit);
  if (backward) items.reverse();
  if (items.length === 0 && cursor !== undefined) {
    const exists = await ctx.em.count(entity, { id: cursor, merchant: ctx.principal.merchantId, livemode: ctx.principal.livemode } as FilterQuery<T>);
    if (!exists) throw new DomainError('invalid_request', `${options.cursorParam} '${cursor}' does not name an object of this account and mode`, { param: options.cursorParam });
  }
  if (options.populate && items.length) await ctx.em.populate(items, options.populate as never);
  return { items, hasMore };
}

/**
 * The same page as `paginate` over rows already in memory (e.g. all refunds of an order, loaded
 * in one batch for many orders): newest first by `(createdAt, id)`.
 */
export function paginateLoaded<T extends Keyed<Id>, Id extends string | number>(rows: T[], page: PageRequest<Id>): Page<T> {
  const sorted = [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const at = (id: Id | undefined) => (id === undefined ? -1 : sorted.findIndex((r) => r.id === id));
  if (page.before !== undefined && page.after === undefined) {
    const end = Math.max(at(page.before), 0);
    const start = Math.max(0, end - page.limit);
    return { items: sorted.slice(start, end), hasMore: start > 0 };
  }
  const start = page.after === undefined ? 0 : at(page.after) + 1;
  if (page.after !== undefined && start === 0) return { items: [], hasMore: false };
  return { items: sorted.slice(start, start + page.limit), hasMore: start + page.limit < sorted.length };
}
