import type { EntityClass, EntityDictionary } from '@mikro-orm/core';
import type { ServiceContext } from '../context.js';
import type { Page } from './keyset.js';

/** Which rows `newestPerParent` reads: those of `table` whose `parentColumn` is one of `parents`. */
export interface PerParentQuery {
  table: string;
  parentColumn: string;
  parents: readonly string[];
  /** The page size: `limit + 1` rows are kept per parent, so a page knows whether more follow. */
  limit: number;
  /** Narrows the rows further: SQL on the table's alias `t`, and its parameters. */
  filter?: { sql: string; params: unknown[] };
}

/**
 * The first page of the children of many parents in one statement (a DataLoader's batch): a
 * window function keeps the newest `limit + 1` rows per parent (ordered by `(created_at, id)`
 * like every page) in the caller's merchant and mode, mapped to `entity`; `pageOf` cuts each
 * parent's page. Later pages go through the keyset pages.
 */
export async function newestPerParent<T extends object>(
  ctx: ServiceContext,
  entity: EntityClass<T>,
  q: PerParentQuery,
): Promise<T[]> {
  const rows = await ctx.em.execute<EntityDictionary<T>[]>(
    `select * from (
       select t.*, row_number() over (partition by t.${q.parentColumn} order by t.created_at desc, t.id desc) as page_row
       from ${q.table} t
       where t.merchant_id = ? and t.livemode = ? and t.${q.parentColumn} in (select jsonb_array_elements_text(?::jsonb))
         ${q.filter ? `and ${q.filter.sql}` : ''}
     ) ranked where page_row <= ? order by created_at desc, id desc`,
    [
      ctx.principal.merchantId,
      ctx.principal.livemode,
      JSON.stringify(q.parents),
      ...(q.filter?.params ?? []),
      q.limit + 1,
    ],
  );
  for (const row of rows) delete row.page_row; // the rank is no column of the entity
  return rows.map((row) => ctx.em.map(entity, row));
}

/** A parent's page out of its newest `limit + 1` rows (see `newestPerParent`). */
export function pageOf<T>(rows: T[], limit: number): Page<T> {
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}
