import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../errors.js';

/**
 * The outbox read as a log. An event's position is (its transaction's xid8, its insert sequence).
 * Reading towards newer events returns only events of transactions older than every transaction
 * still running (`pg_snapshot_xmin`): such a transaction has finished, so any event committed later
 * has a larger xid and sorts after every position already returned. Resuming after a position
 * therefore misses nothing and repeats nothing, whichever process committed what and when.
 */
export interface EventPosition {
  xid: string;
  seq: string;
}

/** An event read from the log, with its cursor. */
export interface LoggedEvent {
  id: string;
  merchant_id: string;
  livemode: boolean;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
  cursor: string;
}

const CURSOR_PREFIX = 'evlog:';

/** The opaque cursor of a log position. */
export function encodeEventCursor(p: EventPosition): string {
  return Buffer.from(`${CURSOR_PREFIX}${p.xid}.${p.seq}`).toString('base64url');
}

/** The position a cursor names, or 400 `invalid_request`. */
export function decodeEventCursor(cursor: string, param: string): EventPosition {
  const raw = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^evlog:(\d{1,20})\.(\d{1,19})$/.exec(raw);
  if (!m || encodeEventCursor({ xid: m[1], seq: m[2] }) !== cursor) {
    throw new DomainError('invalid_request', `${param} is not an event cursor returned by this API`, { param });
  }
  return { xid: m[1], seq: m[2] };
}

interface Row {
  id: string;
  merchant_id: string;
  livemode: boolean;
  type: string;
  created_at: Date | string;
  data: Record<string, unknown>;
  xid: string;
  seq: string;
  safe?: boolean;
}

const COLUMNS = `e.id, e.merchant_id, e.livemode, e.type, e.created_at, e.data, e.xid::text as xid, e.seq::text as seq`;
const SAFE = `e.xid < pg_snapshot_xmin(pg_current_snapshot())`;

function toLogged(r: Row): LoggedEvent {
  return {
    id: r.id,
    merchant_id: r.merchant_id,
    livemode: r.livemode,
    type: r.type,
    created_at: new Date(r.created_at).toISOString(),
    data: r.data,
    cursor: encodeEventCursor({ xid: r.xid, seq: r.seq }),
  };
}

/**
 * One page of a merchant's log in one mode, strictly between `lower` and `upper` (positions),
 * read from the oldest end (`ascending`) or the newest; `settled` keeps to finished transactions
 * (every read that ends at the newest events and must not skip a late commit).
 */
export async function readEventLog(
  em: EntityManager,
  scope: { merchantId: string; livemode: boolean },
  opts: {
    types?: string[];
    createdAfter?: Date;
    createdBefore?: Date;
    lower?: EventPosition;
    upper?: EventPosition;
    ascending: boolean;
    settled: boolean;
    limit: number;
  },
): Promise<{ items: LoggedEvent[]; hasMore: boolean }> {
  const params: unknown[] = [scope.merchantId, scope.livemode];
  const where = ['e.merchant_id = ?', 'e.livemode = ?'];
  if (opts.types?.length) {
    where.push('e.type in (select jsonb_array_elements_text(?::jsonb))');
    params.push(JSON.stringify(opts.types));
  }
  for (const [bound, op] of [
    [opts.createdAfter, '>='],
    [opts.createdBefore, '<='],
  ] as const) {
    if (!bound) continue;
    where.push(`e.created_at ${op} ?::timestamptz`);
    params.push(bound.toISOString());
  }
  for (const [bound, op] of [
    [opts.lower, '>'],
    [opts.upper, '<'],
  ] as const) {
    if (!bound) continue;
    where.push(`(e.xid, e.seq) ${op} (?::xid8, ?::bigint)`);
    params.push(bound.xid, bound.seq);
  }
  if (opts.settled) where.push(SAFE);
  const dir = opts.ascending ? 'asc' : 'desc';
  params.push(opts.limit + 1);
  const rows = await em
    .getConnection()
    .execute<Row[]>(
      `select ${COLUMNS} from events e where ${where.join(' and ')} order by e.xid ${dir}, e.seq ${dir} limit ?`,
      params,
    );
  return { items: rows.slice(0, opts.limit).map(toLogged), hasMore: rows.length > opts.limit };
}

/** The log position of one event of this merchant and mode, or null. */
export async function eventPosition(
  em: EntityManager,
  scope: { merchantId: string; livemode: boolean },
  id: string,
): Promise<EventPosition | null> {
  const [row] = await em
    .getConnection()
    .execute<Row[]>(
      `select e.xid::text as xid, e.seq::text as seq from events e where e.id = ? and e.merchant_id = ? and e.livemode = ?`,
      [id, scope.merchantId, scope.livemode],
    );
  return row ? { xid: row.xid, seq: row.seq } : null;
}

/** The cursors of some events by id (for events read without one). */
export async function eventCursors(em: EntityManager, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await em
    .getConnection()
    .execute<Row[]>(
      `select e.id, e.xid::text as xid, e.seq::text as seq from events e where e.id in (select jsonb_array_elements_text(?::jsonb))`,
      [JSON.stringify(ids)],
    );
  return new Map(rows.map((r) => [r.id, encodeEventCursor(r)]));
}

/** The newest position every reader can already see (the start of a tail). */
export async function logHead(em: EntityManager): Promise<EventPosition> {
  const [row] = await em
    .getConnection()
    .execute<Row[]>(
      `select e.xid::text as xid, e.seq::text as seq from events e where ${SAFE} order by e.xid desc, e.seq desc limit 1`,
    );
  return row ? { xid: row.xid, seq: row.seq } : { xid: '0', seq: '0' };
}

/**
 * Every merchant's events after `from`, oldest first, finished transactions only; `heldBack` says
 * that newer events exist whose transaction cannot be placed yet (an older one is still running).
 */
export async function readLogTail(
  em: EntityManager,
  from: EventPosition,
  limit: number,
): Promise<{ items: (LoggedEvent & { position: EventPosition })[]; heldBack: boolean }> {
  const rows = await em
    .getConnection()
    .execute<Row[]>(
      `select ${COLUMNS}, ${SAFE} as safe from events e where (e.xid, e.seq) > (?::xid8, ?::bigint) order by e.xid, e.seq limit ?`,
      [from.xid, from.seq, limit],
    );
  const firstUnsafe = rows.findIndex((r) => !r.safe);
  const safe = firstUnsafe === -1 ? rows : rows.slice(0, firstUnsafe);
  return {
    items: safe.map((r) => ({ ...toLogged(r), position: { xid: r.xid, seq: r.seq } })),
    heldBack: firstUnsafe !== -1,
  };
}
