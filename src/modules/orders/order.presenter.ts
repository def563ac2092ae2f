import type { ServiceContext } from '../../platform/context.js';
import type { Order } from './order.entity.js';
import { toOrderResource, type OrderResource } from './order.resource.js';
import { paymentsOf } from './order.service.js';
import { receiptUrl } from './receipt.service.js';

/** REST order objects for `orders`, with their payments (one query) and fresh receipt links. */
export async function presentOrders(ctx: ServiceContext, orders: Order[]): Promise<OrderResource[]> {
  const payments = await paymentsOf(ctx, orders);
  return Promise.all(orders.map(async (o) => toOrderResource(o, payments.get(o.id) ?? [], await receiptUrl(ctx, o))));
}

export async function presentOrder(ctx: ServiceContext, order: Order): Promise<OrderResource> {
  return (await presentOrders(ctx, [order]))[0];
}
