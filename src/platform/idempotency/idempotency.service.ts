import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context.js';
import { DomainError } from '../errors.js';

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** How long a first response is kept and replayed. */
export const IDEMPOTENCY_TTL_HOURS = 24;

/** JSON with object keys sorted, so equal bodies hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Fingerprint of one request: the same key sent with another request is refused. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${canonicalJson(body ?? null)}`).digest('hex');
}

/**
 * Runs `execute` at most once per `Idempotency-Key` (per merchant and mode) within 24 hours.
 * The key is claimed by an INSERT in the same transaction as the work, so a concurrent request
 * with the same key waits on that row and then replays the stored response; a failed attempt
 * (an error) rolls the claim back with the work, so the key can be retried.
 */
export async function runIdempotent(
  ctx: ServiceContext,
  key: string | undefined,
  fingerprint: string,
  execute: (ctx: ServiceContext) => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  if (key === undefined) return { ...(await execute(ctx)), replayed: false };
  if (key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new DomainError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID v4 is recommended).', { param: 'Idempotency-Key' });
  }
  const { merchantId, livemode } = ctx.principal;
  return ctx.em.transactional(async (em) => {
    const claimed = await em.execute<{ id: string }[]>(
      `insert into idempotency_keys (merchant_id, livemode, key, request_hash, response_status, response_body, created_at, expires_at)
       values (?, ?, ?, ?, 0, 'null', now(), now() + interval '${IDEMPOTENCY_TTL_HOURS} hours')
       on conflict (merchant_id, livemode, key) do update
         set request_hash = excluded.request_hash, response_status = 0, response_body = 'null', created_at = now(), expires_at = excluded.expires_at
         where idempotency_keys.expires_at < now()
       returning id`,
      [merchantId, livemode, key, fingerprint],
    );
    if (claimed.length === 0) {
      const [stored] = await em.execute<{ request_hash: string; response_status: number; response_body: unknown }[]>(
        'select request_hash, response_status, response_body from idempotency_keys where merchant_id = ? and livemode = ? and key = ?',
        [merchantId, livemode, key],
      );
      if (stored.request_hash !== fingerprint) {
        throw new DomainError('idempotency_key_reused', `Idempotency-Key '${key}' was already used with a different request; use a new key for a new operation.`, { param: 'Idempotency-Key' });
      }
      return { status: stored.response_status, body: stored.response_body, replayed: true };
    }
    const response = await execute({ ...ctx, em });
    await em.execute('update idempotency_keys set response_status = ?, response_body = ? where id = ?', [response.status, JSON.stringify(response.body ?? null), claimed[0].id]);
    return { ...response, replayed: false };
  });
}

/** Deletes keys past their 24 hours (run by a periodic job). */
export async function purgeExpiredIdempotencyKeys(em: ServiceContext['em']): Promise<number> {
  const res = await em.execute<{ count?: number }>('delete from idempotency_keys where expires_at < now()', [], 'run');
  return Number((res as { affectedRows?: number }).affectedRows ?? 0);
}
