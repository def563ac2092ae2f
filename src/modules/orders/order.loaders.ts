import type { ServiceContext } from '../../platform/context.js';
import { byKeys, loader } from '../../platform/graphql/loaders.js';
import {
  readDisputesOf,
  readOrdersByIds,
  readPaymentsOf,
  type OrderDisputeRecord,
  type OrderRecord,
  type PaymentRecord,
} from './order.read-model.js';

/** The payments of orders, batched per request. */
export function paymentsLoader(ctx: ServiceContext) {
  return loader<string, PaymentRecord[]>(ctx, 'order.payments', async (orderIds) => {
    const byOrder = await readPaymentsOf(ctx, orderIds);
    return orderIds.map((id) => byOrder.get(id) ?? []);
  });
}

/** Orders of the caller by id, batched per request. */
export function orderLoader(ctx: ServiceContext) {
  return loader<string, OrderRecord | null>(ctx, 'order', async (ids) =>
    byKeys(ids, await readOrdersByIds(ctx, ids), (o) => o.id),
  );
}

/** The dispute of orders (null when none), batched per request. */
export function disputeLoader(ctx: ServiceContext) {
  return loader<string, OrderDisputeRecord | null>(ctx, 'order.dispute', async (orderIds) => {
    const byOrder = await readDisputesOf(ctx, orderIds);
    return orderIds.map((id) => byOrder.get(id) ?? null);
  });
}
