import { scope, type ServiceContext } from '../../platform/context.js';
import { byKeys, loader } from '../../platform/graphql/loaders.js';
import type { Page } from '../../platform/pagination/keyset.js';
import { Order } from '../orders/order.entity.js';
import { Customer, PaymentMethod } from './customer.entity.js';

/** Customers of the caller by id, batched per request. */
export function customerLoader(ctx: ServiceContext) {
  return loader<string, Customer | null>(ctx, 'customer', async (ids) => byKeys(ids, await ctx.em.find(Customer, { id: { $in: [...ids] }, ...scope(ctx) }), (c) => c.id));
}

/** The attached payment methods of customers (newest first), batched per request. */
export function paymentMethodsLoader(ctx: ServiceContext) {
  return loader<string, PaymentMethod[]>(ctx, 'customer.paymentMethods', async (customerIds) => {
    const rows = await ctx.em.find(PaymentMethod, { customer: { $in: [...customerIds] }, detachedAt: null, ...scope(ctx) }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    return customerIds.map((id) => rows.filter((pm) => pm.customer.id === id));
  });
}

/**
 * The first page of orders of many customers (matched on the customer's email, case-insensitive)
 * in one query: a window function keeps the newest `limit + 1` per email. Keyed by email and
 * page size; later pages go through `readOrderPage`.
 */
export function firstOrderPagesLoader(ctx: ServiceContext) {
  return loader<string, Page<Order>>(ctx, 'customer.orders.first', async (keys) => {
    const parsed = keys.map((k) => JSON.parse(k) as { email: string; limit: number });
    const pages = new Map<string, Page<Order>>();
    for (const limit of new Set(parsed.map((p) => p.limit))) {
      const members = parsed.filter((p) => p.limit === limit);
      const rows = await ctx.em.execute<Record<string, unknown>[]>(
        `select * from (
           select o.*, row_number() over (partition by o.customer_email order by o.created_at desc, o.id desc) as page_row
           from orders o
           where o.merchant_id = ? and o.livemode = ? and o.customer_email in (select jsonb_array_elements_text(?::jsonb))
         ) ranked where page_row <= ? order by created_at desc, id desc`,
        [ctx.principal.merchantId, ctx.principal.livemode, JSON.stringify([...new Set(members.map((m) => m.email))]), limit + 1],
      );
      const orders = rows.map(({ page_row: _row, ...row }) => ctx.em.map(Order, row));
      for (const m of members) {
        const own = orders.filter((o) => o.customerEmail === m.email);
        pages.set(JSON.stringify(m), { items: own.slice(0, m.limit), hasMore: own.length > m.limit });
      }
    }
    return keys.map((k) => pages.get(k)!);
  });
}
