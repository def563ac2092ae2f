import type { ServiceContext } from '../../platform/context.js';
import { loader } from '../../platform/graphql/loaders.js';
import { readRefundsOf, type RefundRecord } from './refund.read-model.js';

/** All refunds of orders, batched per request. */
export function refundsByOrderLoader(ctx: ServiceContext) {
  return loader<string, RefundRecord[]>(ctx, 'order.refunds', async (orderIds) => {
    const byOrder = await readRefundsOf(ctx, orderIds);
    return orderIds.map((id) => byOrder.get(id) ?? []);
  });
}
