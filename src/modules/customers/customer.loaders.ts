import { scope, type ServiceContext } from '../../platform/context.js';
import { byKeys, loader } from '../../platform/graphql/loaders.js';
import { newestPerParent, pageOf } from '../../platform/pagination/first-pages.js';
import type { Page } from '../../platform/pagination/keyset.js';
import { Order } from '../orders/order.entity.js';
import { Customer, PaymentMethod } from './customer.entity.js';

/** Customers of the caller by id, batched per request. */
export function customerLoader(ctx: ServiceContext) {
  return loader<string, Customer | null>(ctx, 'customer', async (ids) =>
    byKeys(ids, await ctx.em.find(Customer, { id: { $in: [...ids] }, ...scope(ctx) }), (c) => c.id),
  );
}

/** The attached payment methods of customers (newest first), batched per request. */
export function paymentMethodsLoader(ctx: ServiceContext) {
  return loader<string, PaymentMethod[]>(ctx, 'customer.paymentMethods', async (customerIds) => {
    const rows = await ctx.em.find(
      PaymentMethod,
      { customer: { $in: [...customerIds] }, detachedAt: null, ...scope(ctx) },
      { orderBy: { createdAt: 'desc', id: 'desc' } },
    );
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
      const orders = await newestPerParent(ctx, Order, {
        table: 'orders',
        parentColumn: 'customer_email',
        parents: [...new Set(members.map((m) => m.email))],
        limit,
      });
      for (const m of members)
        pages.set(
          JSON.stringify(m),
          pageOf(
            orders.filter((o) => o.customerEmail === m.email),
            m.limit,
          ),
        );
    }
    return keys.map((k) => pages.get(k)!);
  });
}
