import { scope, type ServiceContext } from '../../platform/context.js';
import { byKeys, loader } from '../../platform/graphql/loaders.js';
import { CheckoutSession } from './checkout-session.entity.js';

/** Checkout sessions of the caller by id, batched per request. */
export function checkoutLoader(ctx: ServiceContext) {
  return loader<string, CheckoutSession | null>(ctx, 'checkout', async (ids) =>
    byKeys(ids, await ctx.em.find(CheckoutSession, { id: { $in: [...ids] }, ...scope(ctx) }), (s) => s.id),
  );
}
