import type { ServiceContext } from '../../platform/context.js';
import { eventCursors } from '../../platform/events/event-log.js';
import { loader } from '../../platform/graphql/loaders.js';

/** Log cursors of events read without one (e.g. a delivery's event), batched per request. */
export function eventCursorLoader(ctx: ServiceContext) {
  return loader<string, string>(ctx, 'event.cursor', async (ids) => {
    const cursors = await eventCursors(ctx.em, ids);
    return ids.map((id) => cursors.get(id) ?? new Error(`event ${id} not found`));
  });
}
