import type { ServiceContext } from '../../platform/context.js';
import { byKeys, loader } from '../../platform/graphql/loaders.js';
import { readProductsByIds, type ProductRecord } from './product.read-model.js';

/** Products of the caller by numeric id, batched per request (images included; the read model's one statement). */
export function productLoader(ctx: ServiceContext) {
  return loader<number, ProductRecord | null>(ctx, 'product', async (ids) =>
    byKeys(ids, await readProductsByIds(ctx, ids), (p) => p.id),
  );
}
