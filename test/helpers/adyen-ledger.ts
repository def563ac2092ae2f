import type { MikroORM } from '@mikro-orm/postgresql';
import type { AdyenStandIn, StandInPayment } from './adyen/index.js';

/** One Adyen payment the service does not account for, as Adyen's books and ours show it. */
interface Unaccounted {
  psp: string;
  reference: string;
  status: StandInPayment['status'];
  authorised: number;
  captured: number;
  refunded: number;
  /** Payments rows of completed orders with this capture. */
  paid: number;
}

/**
 * What the Adyen stand-in did, held against what the service recorded (live mode's `ledgerAccounting`):
 * every payment Adyen authorised is either captured in full and exactly one payment of one completed
 * order, or cancelled, or captured and refunded in full (by reconciliation); every payment row is
 * such a capture; no attempt is left `calling` or `reversing`; every Adyen order is paid by one
 * completed order, cancelled, or keeps no money. Returns the problems (empty when all is accounted for) and the counts.
 */
export async function adyenAccounting(orm: MikroORM, standIn: AdyenStandIn) {
  const conn = orm.em.fork().getConnection();
  const one = async (sql: string) => (await conn.execute<{ n: number }[]>(sql))[0].n;
  const rows = await conn.execute<{ capture_id: string; order_id: string; amount: number }[]>(
    `select p.capture_id, p.order_id, p.amount from payments p join orders o on o.id = p.order_id and o.status = 'completed' where o.livemode`,
  );
  const paidBy = new Map<string, { order_id: string; amount: number }[]>();
  for (const r of rows) paidBy.set(r.capture_id, [...(paidBy.get(r.capture_id) ?? []), r]);

  const counts = { authorised: 0, paid: 0, cancelled: 0, refunded: 0 };
  const unaccounted: Unaccounted[] = [];
  for (const p of standIn.payments.values()) {
    const authorised = p.amountAuthorised.value;
    if (authorised === 0) continue;
    counts.authorised++;
    const paid = paidBy.get(p.pspReference) ?? [];
    const inFull = p.captured === authorised;
    if (p.status === 'captured' && inFull && p.refunded === 0 && paid.length === 1 && paid[0].amount === authorised)
      counts.paid++;
    else if (p.status === 'cancelled' && p.captured === 0 && paid.length === 0) counts.cancelled++;
    else if (p.status === 'refunded' && inFull && p.refunded === authorised && paid.length === 0) counts.refunded++;
    else
      unaccounted.push({
        psp: p.pspReference,
        reference: p.merchantReference,
        status: p.status,
        authorised,
        captured: p.captured,
        refunded: p.refunded,
        paid: paid.length,
      });
  }
  const keepsMoney = (psp: string) => {
    const p = standIn.payments.get(psp)!;
    return p.amountAuthorised.value > 0 && p.status !== 'cancelled' && p.status !== 'refunded';
  };
  const unsettledOrders = [...standIn.orders.values()]
    .filter((o) => o.status !== 'cancelled')
    .filter((o) => {
      const kept = o.payments.filter(keepsMoney);
      if (kept.length === 0) return false;
      const orders = new Set(kept.map((psp) => paidBy.get(psp)?.[0]?.order_id));
      return !(o.status === 'paid' && orders.size === 1 && !orders.has(undefined));
    })
    .map((o) => ({
      psp: o.pspReference,
      reference: o.reference,
      status: o.status,
      payments: o.payments.map((psp) => `${psp}:${standIn.payments.get(psp)!.status}`),
    }));
  const captured = new Set([...standIn.payments.values()].filter((p) => p.captured > 0).map((p) => p.pspReference));

  const problems = {
    halfDone: await one(`select count(*)::int as n from payment_attempts where status in ('calling', 'reversing')`),
    unaccounted,
    unsettledOrders,
    paymentsWithoutCapture: rows.filter((r) => !captured.has(r.capture_id)).length,
    ordersNotPaidInFull: await one(
      `select count(*)::int as n from orders o where o.livemode and o.status = 'completed' and o.amount <> (select coalesce(sum(amount), 0) from payments p where p.order_id = o.id)`,
    ),
    checkoutsPaidTwice: await one(
      `select count(*)::int as n from (select checkout_id from orders where status = 'completed' group by checkout_id having count(*) > 1) d`,
    ),
  };
  return {
    problems,
    counts,
    paidOrders: await one(`select count(*)::int as n from orders where livemode and status = 'completed'`),
    adyenOrders: standIn.orders.size,
  };
}

/** The problems of `adyenAccounting` when everything is accounted for. */
export const nothingUnknown = {
  halfDone: 0,
  unaccounted: [],
  unsettledOrders: [],
  paymentsWithoutCapture: 0,
  ordersNotPaidInFull: 0,
  checkoutsPaidTwice: 0,
};
