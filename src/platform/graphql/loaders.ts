import DataLoader from 'dataloader';
import type { ServiceContext } from '../context.js';

/**
 * One DataLoader per request (or websocket operation) and name, kept in `ctx.loaders`, so a
 * field resolver asks for one row and a page of parents costs one query per relation.
 */
export function loader<K, V>(ctx: ServiceContext, name: string, batch: (keys: readonly K[]) => Promise<(V | Error)[]>): DataLoader<K, V> {
  let found = ctx.loaders.get(name) as DataLoader<K, V> | undefined;
  if (!found) {
    found = new DataLoader<K, V>(batch, { maxBatchSize: 500 });
    ctx.loaders.set(name, found);
  }
  return found;
}

/** Orders `rows` as `keys` (null for a missing key), for DataLoader batch functions. */
export function byKeys<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => map.get(k) ?? null);
}
