import type { ServiceContext } from '../context.js';
import type { Page } from '../pagination/keyset.js';

/** The spec's list envelope; `next_cursor` is the id to pass as `starting_after`. */
export function listEnvelope<T extends { id: string | number }, R>(page: Page<T>, present: (item: T) => R) {
  const last = page.items.at(-1);
  return { object: 'list' as const, data: page.items.map(present), has_more: page.hasMore, next_cursor: page.hasMore && last ? last.id : null };
}

/** The spec's response envelope of checkout and refund operations. */
export function responseEnvelope<T>(ctx: ServiceContext, data: T, message: string) {
  return { success: true, message, data, metadata: { request_id: ctx.requestId } };
}
