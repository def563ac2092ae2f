import DataLoader from 'dataloader';
import type { ServiceContext } from '../context.js';

/**
 * A per-request DataLoader that also answers synchronously what it has already read (`now`): a
 * field resolver that returns a value rather than a promise costs graphql-js no promise, no
 * `Promise.all` over its row and its list (several per row: most of a large page's work once its
 * rows are read). Pages read ahead for their rows (`lookAhead`), so their rows' fields find them.
 */
export class RequestLoader<K, V> extends DataLoader<K, V> {
  private readonly read: Map<K, V>;

  constructor(batch: (keys: readonly K[]) => Promise<(V | Error)[]>) {
    const read = new Map<K, V>();
    super(
      async (keys) => {
        const values = await batch(keys);
        keys.forEach((key, i) => {
          const value = values[i];
          if (!(value instanceof Error)) read.set(key, value);
        });
        return values;
      },
      { maxBatchSize: 500 },
    );
    this.read = read;
  }

  /** The value of `key` when this request has read it, else a promise of it (as `load`). */
  now(key: K): V | Promise<V> {
    return this.read.has(key) ? (this.read.get(key) as V) : this.load(key);
  }

  override clear(key: K): this {
    this.read.delete(key);
    return super.clear(key);
  }

  override clearAll(): this {
    this.read.clear();
    return super.clearAll();
  }

  override prime(key: K, value: V | PromiseLike<V> | Error): this {
    this.read.delete(key);
    return super.prime(key, value);
  }
}

/**
 * One loader per request (or websocket operation) and name, kept in `ctx.loaders`, so a field
 * resolver asks for one row and a page of parents costs one query per relation.
 */
export function loader<K, V>(
  ctx: ServiceContext,
  name: string,
  batch: (keys: readonly K[]) => Promise<(V | Error)[]>,
): RequestLoader<K, V> {
  let found = ctx.loaders.get(name) as RequestLoader<K, V> | undefined;
  if (!found) {
    found = new RequestLoader<K, V>(batch);
    ctx.loaders.set(name, found);
  }
  return found;
}

/** `f` of `value` when it is a value, or once it resolves when it is a promise (a field stays synchronous when its data is). */
export function thenMap<T, R>(value: T | Promise<T>, f: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** Orders `rows` as `keys` (null for a missing key), for DataLoader batch functions. */
export function byKeys<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => map.get(k) ?? null);
}
