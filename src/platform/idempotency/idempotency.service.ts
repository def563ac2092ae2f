import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { insideTransaction, withEm, type ServiceContext } from '../context.js';
import { DomainError } from '../errors.js';
import { holdLease, LEASE_SECONDS } from '../db/leases.js';

/** A response as sent: its status and the exact bytes of its body. */
export interface StoredResponse {
  status: number;
  body: string;
}

/** What `execute` answers; `store: false` marks a failure that must not be kept under the key. */
export interface ExecutedResponse extends StoredResponse {
  store?: boolean;
}

/** How long a first response is kept and replayed. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/**
 * How long a concurrent duplicate waits for the first request's response before answering 409:
 * longer than a claim's lease, so a duplicate of a request that died takes its key over rather
 * than being refused.
 */
const WAIT_FOR_FIRST_MS = (LEASE_SECONDS + 1) * 1000;
/** Renews the claims of the requests running in this process (see `holdLease`). */
const RENEW_CLAIMS = `update idempotency_keys set locked_at = now() where id in (select jsonb_array_elements_text(?::jsonb)::bigint) and response_status = 0`;

/** The claim (`idempotency_keys.id`) of the request whose work runs here, for work that commits on its own (see `runningClaim`). */
const claimOfWork = new AsyncLocalStorage<string>();

/**
 * The claim of the running request when it has an `Idempotency-Key` and its handler commits on its
 * own (`transactional: false`), else undefined. A claim keeps its id when a retry takes it over, so
 * work that records it (a payment attempt) tells a retry of the same request that it already
 * committed, though the response was never stored (the connection cut right after the commit).
 */
export function runningClaim(): string | undefined {
  return claimOfWork.getStore();
}

/** JSON with object keys sorted, so equal bodies hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Fingerprint of one request (method, path with its query string, body): the same key sent with another request is refused. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

/** Marks a failed execution inside the transaction, so the work rolls back and the key stays free. */
class NotStored extends Error {
  constructor(readonly response: StoredResponse) {
    super('not stored');
  }
}

/**
 * Runs `execute` at most once per `Idempotency-Key` (per merchant and mode) within 24 hours and
 * replays the first response's exact bytes. The key is claimed by one autocommit INSERT before
 * the work; a concurrent duplicate holds no connection while it waits (polling) for the first
 * response, and gets 409 `idempotency_key_in_use` if the first is still running after 6 s.
 *
 * A claim lives as long as its request: renewed every second while the request runs (a lease,
 * `locked_at`), it lapses 5 s after its request died (its process crashed, or its database
 * connection was cut in a failover and the release could not reach the database). A retry then
 * takes the key over and runs afresh; a duplicate waiting meanwhile takes it over as it lapses.
 *
 * `transactional` (the default) runs the work and stores its response in one transaction: both
 * commit or neither. Handlers that call the payment processor manage their own short
 * transactions (never one open while the processor works): their response is stored right after
 * (a crash in between leaves a claim that lapses; such handlers are idempotent by their own
 * state, e.g. a checkout is paid once, and a retry of a pay answers the order its attempt, opened
 * under this claim, committed: see `runningClaim`).
 *
 * A failed request (an error thrown, or `store: false`) is not stored and its work is rolled
 * back, so the key can be retried; a declined payment is an answer, stored and replayed.
 * `fingerprint` (`requestFingerprint`) is computed only when a key was sent.
 */
export async function runIdempotent(
  ctx: ServiceContext,
  key: string | undefined,
  fingerprintOf: () => string,
  execute: (ctx: ServiceContext) => Promise<ExecutedResponse>,
  opts: { transactional?: boolean } = {},
  claims = 0,
): Promise<StoredResponse & { replayed: boolean }> {
  if (key === undefined) return { ...(await execute(ctx)), replayed: false };
  if (key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new DomainError(
      'invalid_request',
      'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID v4 is recommended).',
      { param: 'Idempotency-Key' },
    );
  }
  const fingerprint = fingerprintOf();
  const { merchantId, livemode } = ctx.principal;
  const connection = ctx.em.getConnection();
  const claimed = await connection.execute<{ id: string }[]>(
    `insert into idempotency_keys (merchant_id, livemode, key, request_hash, response_status, response_body, created_at, expires_at, locked_at)
     values (?, ?, ?, ?, 0, null, now(), now() + interval '${IDEMPOTENCY_TTL_HOURS} hours', now())
     on conflict (merchant_id, livemode, key) do update
       set request_hash = excluded.request_hash, response_status = 0, response_body = null, created_at = now(), expires_at = excluded.expires_at, locked_at = now()
       where idempotency_keys.expires_at < now()
          or (idempotency_keys.response_status = 0 and idempotency_keys.locked_at < now() - interval '${LEASE_SECONDS} seconds')
     returning id`,
    [merchantId, livemode, key, fingerprint],
  );
  if (claimed.length === 0) {
    const first = await awaitFirstResponse(ctx, key, fingerprint);
    if (first) return { ...first, replayed: true };
    // The first request failed and released the key meanwhile: this one claims it afresh.
    if (claims < 3) return runIdempotent(ctx, key, () => fingerprint, execute, opts, claims + 1);
    throw new DomainError(
      'idempotency_key_in_use',
      `Requests with Idempotency-Key '${key}' keep failing; check the request and retry.`,
      { param: 'Idempotency-Key' },
    );
  }

  const id = claimed[0].id;
  const releaseLease = holdLease(ctx.base, RENEW_CLAIMS, String(id));
  const store = (run: ServiceContext, response: StoredResponse) =>
    run.em.execute('update idempotency_keys set response_status = ?, response_body = ? where id = ?', [
      response.status,
      response.body,
      id,
    ]);
  const release = () =>
    connection
      .execute('delete from idempotency_keys where id = ? and response_status = 0', [id])
      .catch(() => undefined);
  try {
    if (opts.transactional === false) {
      const response = await claimOfWork.run(String(id), () => execute(ctx));
      if (response.store === false) {
        await release();
        return { status: response.status, body: response.body, replayed: false };
      }
      await store(ctx, response);
      return { status: response.status, body: response.body, replayed: false };
    }
    return await ctx.em.transactional(async (em) => {
      const run = withEm(ctx, em);
      const response = await insideTransaction.run(true, () => execute(run));
      if (response.store === false) throw new NotStored(response);
      await store(run, response);
      return { status: response.status, body: response.body, replayed: false };
    });
  } catch (err) {
    await release();
    if (err instanceof NotStored) return { ...err.response, replayed: false };
    throw err;
  } finally {
    releaseLease();
  }
}

/** Waits (holding no connection) for the first request under `key` to store its response; null if it failed and let the key go, or died and its claim lapsed. */
async function awaitFirstResponse(
  ctx: ServiceContext,
  key: string,
  fingerprint: string,
): Promise<StoredResponse | null> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    const [stored] = await ctx.em
      .getConnection()
      .execute<{ request_hash: string; response_status: number; response_body: string | null; lapsed: boolean }[]>(
        `select request_hash, response_status, response_body, locked_at < now() - interval '${LEASE_SECONDS} seconds' as lapsed from idempotency_keys where merchant_id = ? and livemode = ? and key = ?`,
        [ctx.principal.merchantId, ctx.principal.livemode, key],
      );
    if (!stored) return null;
    if (stored.request_hash !== fingerprint) {
      throw new DomainError(
        'idempotency_key_reused',
        `Idempotency-Key '${key}' was already used with a different request; use a new key for a new operation.`,
        { param: 'Idempotency-Key' },
      );
    }
    if (stored.response_status > 0) return { status: stored.response_status, body: stored.response_body ?? 'null' };
    if (stored.lapsed) return null;
    if (Date.now() + pause > deadline) {
      throw new DomainError(
        'idempotency_key_in_use',
        `A request with Idempotency-Key '${key}' is still in progress; retry it in a moment to get its response.`,
        { param: 'Idempotency-Key' },
      );
    }
    await sleep(pause);
  }
}

/** Deletes keys past their 24 hours (run by a periodic job). */
export async function purgeExpiredIdempotencyKeys(em: ServiceContext['em']): Promise<number> {
  const res = await em.execute<{ count?: number }>('delete from idempotency_keys where expires_at < now()', [], 'run');
  return Number((res as { affectedRows?: number }).affectedRows ?? 0);
}
