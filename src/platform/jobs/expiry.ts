import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { systemContext, withEm, type Log, type ServiceContext } from '../context.js';
import type { MerchantScopedEntity } from '../db/base.entity.js';

/** Rows expired by one sweep transaction at the most. */
const EXPIRY_BATCH = 500;

/**
 * The expiry sweep of a merchant-scoped table: in one transaction, marks up to 500 rows in
 * `status` whose `expires_at` has passed (by each merchant's clock, `nowSql`) as `expired`,
 * skipping rows another worker holds, then calls `onExpired` for each with a context in its
 * merchant and mode (to record its event in the same transaction). Returns how many expired.
 */
export async function expireDueRows<E extends MerchantScopedEntity & { id: string }>(
  orm: MikroORM,
  opts: { entity: EntityClass<E>; table: string; status: string; nowSql: (alias: string) => string; log: Log },
  onExpired: (ctx: ServiceContext, row: E) => void,
): Promise<number> {
  return orm.em.fork().transactional(async (tx) => {
    const rows = await tx.execute<{ id: string; offset: string }[]>(
      `update ${opts.table} t set status = 'expired', updated_at = now()
       where t.id in (select d.id from ${opts.table} d where d.status = ? and d.expires_at <= ${opts.nowSql('d')} order by d.expires_at limit ${EXPIRY_BATCH} for update skip locked)
       returning t.id, case when t.livemode then 0 else (select m.test_clock_offset_ms from merchants m where m.id = t.merchant_id) end as "offset"`,
      [opts.status],
    );
    if (!rows.length) return 0;
    const offsets = new Map(rows.map((r) => [r.id, Number(r.offset)]));
    const expired = await tx.find(opts.entity, { id: { $in: rows.map((r) => r.id) } } as unknown as FilterQuery<E>); // E's id is a string (the bound above)
    for (const row of expired)
      onExpired(withEm(systemContext(tx, row.merchant.id, row.livemode, offsets.get(row.id) ?? 0, opts.log), tx), row);
    await tx.flush();
    return rows.length;
  });
}
