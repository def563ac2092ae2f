import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedStatement, queryRows } from './sql.js';

/** How often the rows held by running work are renewed. */
export const LEASE_RENEW_MS = 1000;
/** A row not renewed for this long belongs to work that is gone (its process died, or its database connection was cut). */
export const LEASE_SECONDS = 5;

/** Renewal statements (a `?` for the ids, as a JSON array of strings) → the ids held under each, with the EntityManager to run it on. */
const held = new Map<string, { em: EntityManager; ids: Map<string, number> }>();
let renewing = false;

async function renew(): Promise<void> {
  if (renewing) return;
  renewing = true;
  try {
    for (const [sql, group] of held) {
      if (!group.ids.size) continue;
      // A failed renewal (the database away) is no error: the holder's own work fails too, and the row lapses.
      // One not answered within a period is dropped: applied late (a pooler holds it until the database is back),
      // it would renew the rows of work that died meanwhile, and whoever takes them over would wait 5 s more.
      await queryRows(
        group.em,
        { text: preparedStatement(sql).text, values: [JSON.stringify([...group.ids.keys()])] },
        LEASE_RENEW_MS,
      ).catch(() => undefined);
    }
  } finally {
    renewing = false;
  }
}

// Made when the module loads, outside any unit of work: a renewal never counts as a second connection of a request.
setInterval(() => void renew(), LEASE_RENEW_MS).unref();

/**
 * Keeps row `id` alive while the caller's work runs: `renewal` (an `update … set <lease column> =
 * now() where id in (select jsonb_array_elements_text(?::jsonb)) and <still held>`) runs every
 * second for every id held under it, in one statement, outside any transaction (`em`: a base
 * EntityManager). Returns the release. Work that dies (its process, or its database connection)
 * stops renewing, so others can tell within `LEASE_SECONDS` that its rows are free to take over.
 */
export function holdLease(em: EntityManager, renewal: string, id: string): () => void {
  let group = held.get(renewal);
  if (!group) held.set(renewal, (group = { em, ids: new Map() }));
  const ids = group.ids;
  ids.set(id, (ids.get(id) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const n = (ids.get(id) ?? 1) - 1;
    if (n > 0) ids.set(id, n);
    else ids.delete(id);
  };
}
