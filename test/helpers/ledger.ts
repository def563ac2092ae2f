import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * What the simulated processor did, held against what the service recorded: nothing half-done
 * (no attempt left `calling` or `reversing`); every capture one payment of one completed order, or
 * refunded by reconciliation, never both, never neither; every hold captured or voided once; every
 * payment row a real capture; every completed order paid in full, with `order.completed` once.
 * Returns the problems found (empty when all is accounted for) and the counts.
 */
export async function ledgerAccounting(orm: MikroORM) {
  const conn = orm.em.fork().getConnection();
  const one = async (sql: string) => (await conn.execute<{ n: number }[]>(sql))[0].n;
  const captures = await conn.execute<{ reference: string; paid: number; reversed: number }[]>(
    `select l.reference,
            (select count(*)::int from payments p join orders o on o.id = p.order_id and o.status = 'completed' where p.capture_id = l.reference) as paid,
            (select count(*)::int from processor_ledger r where r.operation = 'refund' and r.ok and r.target = l.reference and r.key like '%.reverse') as reversed
     from processor_ledger l where l.operation = 'capture' and l.ok`,
  );
  const holds = await conn.execute<{ reference: string; n: number }[]>(
    `select l.reference, (select count(*)::int from processor_ledger x where x.target = l.reference and x.operation in ('capture', 'void')) as n
     from processor_ledger l where l.operation = 'authorize' and l.ok`,
  );
  const problems = {
    halfDone: await one(`select count(*)::int as n from payment_attempts where status in ('calling', 'reversing')`),
    unaccountedCaptures: captures.filter((c) => c.paid + c.reversed !== 1),
    unsettledHolds: holds.filter((h) => h.n !== 1),
    paymentsWithoutCapture: await one(
      `select count(*)::int as n from payments p where not exists (select 1 from processor_ledger l where l.operation = 'capture' and l.ok and l.reference = p.capture_id)`,
    ),
    ordersNotPaidInFull: await one(
      `select count(*)::int as n from orders o where o.status = 'completed' and o.amount <> (select coalesce(sum(amount), 0) from payments p where p.order_id = o.id)`,
    ),
    ordersWithoutOneEvent: await one(
      `select count(*)::int as n from orders o where o.status = 'completed' and (select count(*) from events e where e.type = 'order.completed' and e.data->>'id' = o.id) <> 1`,
    ),
    checkoutsPaidTwice: await one(
      `select count(*)::int as n from (select checkout_id from orders where status = 'completed' group by checkout_id having count(*) > 1) d`,
    ),
  };
  return {
    problems,
    paidOrders: await one(`select count(*)::int as n from orders where status = 'completed'`),
    captures: captures.length,
    holds: holds.length,
  };
}

/** The problems of `ledgerAccounting` when everything is accounted for. */
export const nothingUnaccounted = {
  halfDone: 0,
  unaccountedCaptures: [],
  unsettledHolds: [],
  paymentsWithoutCapture: 0,
  ordersNotPaidInFull: 0,
  ordersWithoutOneEvent: 0,
  checkoutsPaidTwice: 0,
};
