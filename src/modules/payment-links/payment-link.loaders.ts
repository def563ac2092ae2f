import { scope, type ServiceContext } from '../../platform/context.js';
import { byKeys, loader } from '../../platform/graphql/loaders.js';
import { PaymentLink } from './payment-link.entity.js';

/** Payment links of the caller by id, batched per request. */
export function paymentLinkLoader(ctx: ServiceContext) {
  return loader<string, PaymentLink | null>(ctx, 'paymentLink', async (ids) =>
    byKeys(ids, await ctx.em.find(PaymentLink, { id: { $in: [...ids] }, ...scope(ctx) }), (l) => l.id),
  );
}
