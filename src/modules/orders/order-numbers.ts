import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement } from '../../platform/db/sql.js';

/** The first number of every merchant's book in each mode (ORD-001001, as before). */
const FIRST_NUMBER = 1001;

/** Whose book an order number is taken from. */
export interface OrderOwner {
  merchantId: string;
  livemode: boolean;
}

const format = (n: number | string) => `ORD-${String(n).padStart(6, '0')}`;
/** `format` in SQL, over a counter value. */
const formatSql = (n: string) => `'ORD-' || lpad(${n}::text, greatest(6, length(${n}::text)), '0')`;

/**
 * The same rule inside one statement: a `with` part `name` that takes the next number of
 * `owner`'s book (column `number`) once for the one row of part `after`, and none when it has no
 * row. The statement is its own transaction (or the caller's): a statement that fails returns it.
 */
export function orderNumberPart(name: string, after: string, owner: OrderOwner): { sql: string; params: unknown[] } {
  return {
    sql: `${name} as (insert into order_number_counters (merchant_id, livemode, last_number) select ?::text, ?::boolean, ${FIRST_NUMBER} from ${after}
      on conflict (merchant_id, livemode) do update set last_number = order_number_counters.last_number + 1 returning ${formatSql('last_number')} as number)`,
    params: [owner.merchantId, owner.livemode],
  };
}

/**
 * The one order-number rule: the next order numbers for `owners` (one per order to create, in
 * that order), taken in the caller's transaction: each merchant and mode has its own counter row,
 * so merchant A's book is ORD-001001, ORD-001002… whatever merchant B does, with no gaps. The row
 * stays locked until the transaction ends (concurrent orders of one merchant take turns; a
 * rollback returns the numbers). Rows are taken in key order, so two transactions never wait on
 * each other crosswise.
 */
export async function takeOrderNumbers(em: EntityManager, owners: OrderOwner[]): Promise<string[]> {
  if (!owners.length) return [];
  const key = (o: OrderOwner) => `${o.merchantId}\u0000${o.livemode}`;
  const counts = new Map<string, OrderOwner & { n: number }>();
  for (const o of owners) {
    const entry = counts.get(key(o)) ?? { merchantId: o.merchantId, livemode: o.livemode, n: 0 };
    entry.n++;
    counts.set(key(o), entry);
  }
  const wanted = [...counts.values()].map((c) => ({ merchant_id: c.merchantId, livemode: c.livemode, n: c.n }));
  const rows = await runStatement<{ merchant_id: string; livemode: boolean; last_number: string }>(
    em,
    `insert into order_number_counters (merchant_id, livemode, last_number)
     select v.merchant_id, v.livemode, ${FIRST_NUMBER - 1} + v.n
     from jsonb_to_recordset(?::jsonb) as v(merchant_id text, livemode boolean, n int)
     order by v.merchant_id, v.livemode
     on conflict (merchant_id, livemode) do update set last_number = order_number_counters.last_number + (excluded.last_number - ${FIRST_NUMBER - 1})
     returning merchant_id, livemode, last_number`,
    [JSON.stringify(wanted)],
  );
  const next = new Map(
    rows.map((r) => [
      key({ merchantId: r.merchant_id, livemode: r.livemode }),
      Number(r.last_number) - counts.get(key({ merchantId: r.merchant_id, livemode: r.livemode }))!.n + 1,
    ]),
  );
  return owners.map((o) => {
    const n = next.get(key(o))!;
    next.set(key(o), n + 1);
    return format(n);
  });
}
