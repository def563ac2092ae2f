import { scope, type ServiceContext } from '../../platform/context.js';
import { Order } from '../orders/order.entity.js';
import type { PaymentLink } from './payment-link.entity.js';
import { toPaymentLinkResource, type PaymentLinkResource } from './payment-link.resource.js';
import { effectiveLinkStatus } from './payment-link.service.js';

/** REST objects for `links` as the caller's clock sees them, with their orders' status (one query). */
export async function presentPaymentLinks(ctx: ServiceContext, links: PaymentLink[]): Promise<PaymentLinkResource[]> {
  const orderIds = links.map((l) => l.orderId).filter((id): id is string => id !== null);
  const orders = orderIds.length ? await ctx.em.find(Order, { id: { $in: orderIds }, ...scope(ctx) }) : [];
  const byId = new Map(orders.map((o) => [o.id, o]));
  return links.map((l) =>
    toPaymentLinkResource(l, effectiveLinkStatus(ctx, l), l.orderId ? byId.get(l.orderId) : null),
  );
}

export async function presentPaymentLink(ctx: ServiceContext, link: PaymentLink): Promise<PaymentLinkResource> {
  return (await presentPaymentLinks(ctx, [link]))[0];
}
