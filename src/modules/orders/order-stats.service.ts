import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { runStatement } from '../../platform/db/sql.js';

/** One UTC day of revenue in one currency, in cents. */
export interface RevenueDay {
  day: string;
  hsaFsa: number;
  regular: number;
  refunds: number;
}

/**
 * Captured revenue per UTC day for the last `days` days (today, on the caller's clock, included),
 * split between HSA/FSA-card and regular-card payments, beside the refunds that succeeded that
 * day. Days without activity are zeros.
 */
export async function revenueByDay(ctx: ServiceContext, days: number, currency: string): Promise<RevenueDay[]> {
  if (!Number.isInteger(days) || days < 1 || days > 366)
    throw new DomainError('invalid_request', 'days must be between 1 and 366', { param: 'days' });
  const today = new Date(Date.UTC(ctx.now().getUTCFullYear(), ctx.now().getUTCMonth(), ctx.now().getUTCDate()));
  const from = new Date(today.getTime() - (days - 1) * 86_400_000);
  const until = new Date(today.getTime() + 86_400_000);
  const { merchantId, livemode } = ctx.principal;
  const cur = currency.toLowerCase();
  const [payments, refunds] = await Promise.all([
    runStatement<{ day: string; method: string; cents: string }>(
      ctx.em,
      `select to_char(captured_at at time zone 'UTC', 'YYYY-MM-DD') as day, payment_method as method, sum(amount) as cents
         from payments where merchant_id = ? and livemode = ? and currency = ? and captured_at >= ? and captured_at < ? group by 1, 2`,
      [merchantId, livemode, cur, from, until],
    ),
    runStatement<{ day: string; cents: string }>(
      ctx.em,
      `select to_char(coalesce(processed_at, created_at) at time zone 'UTC', 'YYYY-MM-DD') as day, sum(amount) as cents
         from refunds where merchant_id = ? and livemode = ? and currency = ? and status = 'succeeded' and coalesce(processed_at, created_at) >= ? and coalesce(processed_at, created_at) < ? group by 1`,
      [merchantId, livemode, cur, from, until],
    ),
  ]);
  const series = new Map<string, RevenueDay>();
  for (let d = from.getTime(); d < until.getTime(); d += 86_400_000) {
    const day = new Date(d).toISOString().slice(0, 10);
    series.set(day, { day, hsaFsa: 0, regular: 0, refunds: 0 });
  }
  for (const p of payments) {
    const row = series.get(p.day);
    if (row) row[p.method === 'hsa_fsa_card' ? 'hsaFsa' : 'regular'] += Number(p.cents);
  }
  for (const r of refunds) {
    const row = series.get(r.day);
    if (row) row.refunds += Number(r.cents);
  }
  return [...series.values()];
}
