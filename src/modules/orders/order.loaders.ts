import { scope, type ServiceContext } from '../../platform/context.js';
import { byKeys, loader } from '../../platform/graphql/loaders.js';
import type { Payment } from '../payments/payment.entity.js';
import { Order } from './order.entity.js';
import { paymentsOf } from './order.service.js';

/** The payments of orders, batched per request. */
export function paymentsLoader(ctx: ServiceContext) {
  return loader<string, Payment[]>(ctx, 'order.payments', async (orderIds) => {
    const byOrder = await paymentsOf(ctx, orderIds.map((id) => ({ id }) as Order));
    return orderIds.map((id) => byOrder.get(id) ?? []);
  });
}

/** Orders of the caller by id, batched per request. */
export function orderLoader(ctx: ServiceContext) {
  return loader<string, Order | null>(ctx, 'order', async (ids) => byKeys(ids, await ctx.em.find(Order, { id: { $in: [...ids] }, ...scope(ctx) }), (o) => o.id));
}
