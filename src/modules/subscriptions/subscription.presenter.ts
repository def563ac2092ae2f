import type { ServiceContext } from '../../platform/context.js';
import type { Subscription } from './subscription.entity.js';
import { toSubscriptionResource, type SubscriptionResource } from './subscription.resource.js';
import { paymentMethodsOf } from './subscription.service.js';

/** REST subscription objects with their payment methods (one query). */
export async function presentSubscriptions(ctx: ServiceContext, subs: Subscription[]): Promise<SubscriptionResource[]> {
  const methods = await paymentMethodsOf(ctx, subs);
  return subs.map((s) => toSubscriptionResource(s, methods.get(s.paymentMethodId) ?? null));
}

export async function presentSubscription(ctx: ServiceContext, sub: Subscription): Promise<SubscriptionResource> {
  return (await presentSubscriptions(ctx, [sub]))[0];
}
