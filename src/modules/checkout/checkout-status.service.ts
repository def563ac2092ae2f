import type { ServiceContext } from '../../platform/context.js';
import { presentOrder } from '../orders/order.presenter.js';
import { readOrder } from '../orders/order.read-model.js';
import { toCheckoutResource } from './checkout.resource.js';
import { effectiveStatus, getCheckoutSession } from './checkout.service.js';

/** A session as its merchant sees it now, with the paid order when there is one. */
export async function checkoutStatus(ctx: ServiceContext, id: string) {
  const session = await getCheckoutSession(ctx, id);
  const order = session.orderId ? await presentOrder(ctx, await readOrder(ctx, session.orderId)) : null;
  return { ...toCheckoutResource(session, effectiveStatus(ctx, session)), order };
}
