import { scope, type ServiceContext } from '../../platform/context.js';
import { byKeys, loader } from '../../platform/graphql/loaders.js';
import { Product } from './product.entity.js';

/** Products of the caller by numeric id, batched per request (images included). */
export function productLoader(ctx: ServiceContext) {
  return loader<number, Product | null>(ctx, 'product', async (ids) =>
    byKeys(ids, await ctx.em.find(Product, { id: { $in: [...ids] }, ...scope(ctx) }, { populate: ['images'] as never }), (p) => p.id),
  );
}
