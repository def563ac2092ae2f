import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import type { Page } from '../pagination/keyset.js';

/** The spec's list envelope; `next_cursor` is the id to pass as `starting_after`. */
export function listEnvelope<T extends { id: string | number }, R>(page: Page<T>, present: (item: T) => R) {
  const last = page.items.at(-1);
  return {
    object: 'list' as const,
    data: page.items.map(present),
    has_more: page.hasMore,
    next_cursor: page.hasMore && last ? last.id : null,
  };
}

/** The spec's response envelope of checkout and refund operations. */
export function responseEnvelope<T>(ctx: ServiceContext, data: T, message: string) {
  return { success: true, message, data, metadata: { request_id: ctx.requestId } };
}

/** Documentation schema of `responseEnvelope` around `data` (OpenAPI). */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ success: z.boolean(), message: z.string(), data, metadata: z.object({ request_id: z.string() }) });
}

/** Documentation schema of `listEnvelope` of `item` (OpenAPI); `cursor` is the type of the ids. */
export function listSchema<T extends z.ZodType>(item: T, cursor: z.ZodType = z.string()) {
  return z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: cursor.nullable(),
  });
}
