import { hash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.js';
import { randomBase62 } from '../../platform/db/ids.js';
import type { Principal, ServiceContext } from '../../platform/context.js';
import { ApiKey, Merchant, type KeyMode } from './merchant.entity.js';
import { bulkUpdate, runBulk } from '../../platform/db/bulk.js';
import { runStatement } from '../../platform/db/sql.js';

export interface CreatedMerchant {
  id: string;
  name: string;
  test_api_key: string;
  live_api_key: string;
  webhook_secret: string;
}

const KEY_PATTERN = /^glm_(test|live)_[0-9A-Za-z]{32}$/;

export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function newApiKey(mode: KeyMode): string {
  return `glm_${mode}_${randomBase62(32)}`;
}

/** Creates a merchant with a test key, a live key and a webhook secret (`em`: a fork or transaction); the keys are returned once and stored only as hashes. */
export async function createMerchant(em: EntityManager, name: string): Promise<CreatedMerchant> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 255) {
    throw new DomainError('validation_error', 'name must be 1 to 255 characters', {
      param: 'name',
      details: [{ field: 'name', message: 'must be 1 to 255 characters' }],
    });
  }
  const merchant = em.create(Merchant, { name: trimmed, webhookSecret: `whsec_${randomBase62(32)}` });
  const keys = { test: newApiKey('test'), live: newApiKey('live') };
  for (const mode of ['test', 'live'] as const) {
    em.create(ApiKey, { merchant, mode, keyHash: hashApiKey(keys[mode]), keyPrefix: keys[mode].slice(0, 13) });
  }
  await em.flush();
  return {
    id: merchant.id,
    name: merchant.name,
    test_api_key: keys.test,
    live_api_key: keys.live,
    webhook_secret: merchant.webhookSecret,
  };
}

// Key hash → principal, so a request does not pay a query for its key. Every process forgets a
// merchant's entries on NOTIFY (a test clock moved: see advanceTestClock) and all of them when its
// LISTEN connection comes back (notifications are not replayed); the lifetime is a safety net only.
const CACHE_MS = 10 * 60_000;
const principals = new Map<string, { principal: Principal; until: number }>();

/** A caller acting for `merchant` in one mode, on the merchant's test clock in test mode (an API key or a console session). */
export function merchantPrincipal(
  merchant: Merchant,
  livemode: boolean,
  who: Pick<Principal, 'keyId' | 'actor' | 'permissions'>,
): Principal {
  return {
    merchantId: merchant.id,
    livemode,
    clockOffsetMs: livemode ? 0 : Number(merchant.testClockOffsetMs),
    ...who,
  };
}

/**
 * Resolves `Authorization: Bearer <key>` to the calling merchant and mode, or throws 401
 * `unauthorized`: a cached key answers at once (no promise: every request of a known key takes
 * this path), an unknown one with a promise of its lookup.
 */
export function authenticate(em: EntityManager, authorization: string | undefined): Principal | Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match || !KEY_PATTERN.test(match[1])) {
    throw new DomainError(
      'unauthorized',
      'Missing or invalid API key. Send Authorization: Bearer glm_test_… or glm_live_….',
    );
  }
  const keyHash = hashApiKey(match[1]);
  const now = Date.now();
  const hit = principals.get(keyHash);
  if (hit && hit.until > now) {
    keyUse.set(hit.principal.keyId, now);
    return hit.principal;
  }
  return loadPrincipal(em, keyHash, now);
}

/** The principal of a key not in this process's cache, looked up and cached. */
async function loadPrincipal(em: EntityManager, keyHash: string, now: number): Promise<Principal> {
  const key = await em
    .fork()
    .findOne(
      ApiKey,
      { keyHash, revokedAt: null, $or: [{ expiresAt: null }, { expiresAt: { $gt: new Date(now) } }] },
      { populate: ['merchant'] },
    );
  if (!key)
    throw new DomainError(
      'unauthorized',
      'Invalid API key: it does not exist, was revoked, or its rolling overlap ended.',
    );
  const principal = merchantPrincipal(key.merchant.$, key.mode === 'live', {
    keyId: key.id,
    actor: { kind: 'key', id: key.id, label: `${key.name} (${key.keyPrefix}…)` },
    ...(key.permissions && { permissions: new Set(key.permissions) }),
  });
  if (principals.size > 10_000) principals.clear();
  // A rolled key is forgotten when its overlap ends, whatever the cache lifetime.
  principals.set(keyHash, { principal, until: Math.min(now + CACHE_MS, key.expiresAt?.getTime() ?? Infinity) });
  keyUse.set(key.id, now);
  return principal;
}

// Key id → last request time, written to api_keys.last_used_at in one statement a minute
// (`recordKeyUse`), never per request.
const keyUse = new Map<string, number>();

/** Writes the keys used since the last call to `last_used_at` (one statement; the app calls it every minute and at shutdown). */
export async function recordKeyUse(em: EntityManager): Promise<void> {
  if (keyUse.size === 0) return;
  const used = [...keyUse];
  keyUse.clear();
  // A later use another process recorded stays.
  await runBulk(
    em,
    [
      bulkUpdate(
        em,
        ApiKey,
        used.map(([id, at]) => ({ id, lastUsedAt: new Date(at) })),
        ['lastUsedAt'],
        { assign: { lastUsedAt: (stored, given) => `greatest(${stored}, ${given})` } },
      ),
    ],
    { autocommit: true },
  );
}

/** NOTIFY channel on which a merchant id means "reload its keys and clock". */
export const PRINCIPALS_CHANNEL = 'principals';

/** Drops this process's cached principals of `merchantId`. */
export function forgetMerchant(merchantId: string): void {
  for (const [hash, entry] of principals) if (entry.principal.merchantId === merchantId) principals.delete(hash);
}

/** Drops every cached principal of this process (its LISTEN connection was down: a NOTIFY may have been missed). */
export function forgetAllPrincipals(): void {
  principals.clear();
}

/** Every API process forgets its cached principals of the caller's merchant (keys or clock changed; NOTIFY is delivered on commit), this one at once. */
export async function announcePrincipalChange(ctx: ServiceContext): Promise<void> {
  await runStatement(ctx.em, `select pg_notify('${PRINCIPALS_CHANNEL}', ?)`, [ctx.principal.merchantId]);
  forgetMerchant(ctx.principal.merchantId);
}

/** Moves the caller's test-mode clock forward by `seconds`; returns the new test time. */
export async function advanceTestClock(ctx: ServiceContext, seconds: number): Promise<Date> {
  if (ctx.principal.livemode)
    throw DomainError.testModeOnly('The test clock exists only in test mode; use a glm_test_ key.');
  const ms = Math.round(seconds * 1000);
  const [row] = await runStatement<{ offset: string }>(
    ctx.em,
    'update merchants set test_clock_offset_ms = test_clock_offset_ms + ? where id = ? returning test_clock_offset_ms as "offset"',
    [ms, ctx.principal.merchantId],
  );
  await announcePrincipalChange(ctx);
  ctx.principal.clockOffsetMs = Number(row.offset);
  return ctx.now();
}
