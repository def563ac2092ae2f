import { scope, type ServiceContext } from '../../platform/context.js';
import { loader } from '../../platform/graphql/loaders.js';
import { Refund } from './refund.entity.js';

/** All refunds of orders, batched per request. */
export function refundsByOrderLoader(ctx: ServiceContext) {
  return loader<string, Refund[]>(ctx, 'order.refunds', async (orderIds) => {
    const rows = await ctx.em.find(Refund, { orderId: { $in: [...orderIds] }, ...scope(ctx) });
    return orderIds.map((id) => rows.filter((r) => r.orderId === id));
  });
}
