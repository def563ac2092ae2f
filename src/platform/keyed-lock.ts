const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` for `key` one call at a time in this process, in arrival order (other processes are
 * still serialised by the database's row lock). Callers that would otherwise each hold a pooled
 * connection while waiting on one row lock wait here instead, without a connection.
 */
export async function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
