import type { EntityManager } from '@mikro-orm/postgresql';
import { bulkInsert, bulkRows } from '../../platform/db/bulk.js';
import type { ComputedValue } from '../../platform/db/sql.js';
import { OrderNumberCounter } from './order-number-counter.entity.js';

/** The first number of every merchant's book in each mode (ORD-001001, as before). */
const FIRST_NUMBER = 1001;

/** Whose book an order number is taken from. */
export interface OrderOwner {
  merchantId: string;
  livemode: boolean;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
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
 * What a statement that takes an order's number in its part `part` (`orderNumberPart`) writes
 * from that part's row (`insertTogether`'s `computed`): the order's `order_number`, and the
 * `order_number` of its events' payloads (`orderEventBase`). The order is made with no number
 * (`newOrder`); the caller sets it from the statement's answer.
 */
export function numberedBy(
  part: string,
  order: object,
  events: readonly object[],
): Map<object, Record<string, ComputedValue>> {
  const number = `${part}.number`;
  return new Map<object, Record<string, ComputedValue>>([
    [order, { orderNumber: number }],
    ...events.map((e): [object, Record<string, ComputedValue>] => [
      e,
      { data: (given) => `${given} || jsonb_build_object('order_number', ${number})` },
    ]),
  ]);
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
  // Rows in key order: the upsert locks them in the order it writes them (see bulkInsert).
  const wanted = [...counts.values()].sort((a, b) => compare(key(a), key(b)));
  const rows = await bulkRows<{ merchantId: string; livemode: boolean; lastNumber: string }>(
    em,
    bulkInsert(
      em,
      OrderNumberCounter,
      wanted.map((c) => ({ merchantId: c.merchantId, livemode: c.livemode, lastNumber: FIRST_NUMBER - 1 + c.n })),
      {
        onConflict: {
          target: ['merchantId', 'livemode'],
          set: { lastNumber: (stored, given) => `${stored} + (${given} - ${FIRST_NUMBER - 1})` },
        },
        returning: ['merchantId', 'livemode', 'lastNumber'],
      },
    ),
  );
  const next = new Map(rows.map((r) => [key(r), Number(r.lastNumber) - counts.get(key(r))!.n + 1]));
  return owners.map((o) => {
    const n = next.get(key(o))!;
    next.set(key(o), n + 1);
    return format(n);
  });
}
