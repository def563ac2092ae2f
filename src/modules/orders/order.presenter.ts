import type { ServiceContext } from '../../platform/context.js';
import { byCapture, readDisputesOf, readPaymentsOf, type OrderRecord, type PaymentRecord } from './order.read-model.js';
import { toOrderResource, type OrderResource } from './order.resource.js';
import { receiptUrl } from './receipt.service.js';

/** REST order objects for `orders`, with their payments and disputes (one query each) and fresh receipt links. */
export async function presentOrders(ctx: ServiceContext, orders: OrderRecord[]): Promise<OrderResource[]> {
  const ids = orders.map((o) => o.id);
  const payments = await readPaymentsOf(ctx, ids);
  const disputes = await readDisputesOf(ctx, ids);
  return Promise.all(
    orders.map(async (o) =>
      toOrderResource(o, payments.get(o.id) ?? [], disputes.get(o.id) ?? null, await receiptUrl(ctx, o)),
    ),
  );
}

/**
 * The REST order object of `order`. With `made`, the order was made by this request with these
 * payments (no dispute yet): nothing is read.
 */
export async function presentOrder(
  ctx: ServiceContext,
  order: OrderRecord,
  made?: { payments: readonly PaymentRecord[] },
): Promise<OrderResource> {
  if (made) return toOrderResource(order, [...made.payments].sort(byCapture), null, await receiptUrl(ctx, order));
  return (await presentOrders(ctx, [order]))[0];
}
