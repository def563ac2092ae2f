import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { requireConsoleUser } from '../../platform/permissions.js';
import { parseInput } from '../../platform/validation.js';
import { recordAudit } from '../audit/audit-log.service.js';
import { createApiKeySchema, rollApiKeySchema } from './api-key.schemas.js';
import { ApiKey, type KeyMode } from './merchant.entity.js';
import { announcePrincipalChange, hashApiKey, newApiKey } from './merchant.service.js';

/** An API key as Settings → API keys shows it: never the secret, which is shown once at creation. */
export interface ApiKeyView {
  id: string;
  object: 'api_key';
  name: string;
  mode: KeyMode;
  type: 'secret' | 'restricted';
  /** A restricted key's permissions; null for a secret key. */
  permissions: string[] | null;
  /** `glm_test_AbCd…`: enough to tell keys apart. */
  redacted_key: string;
  status: 'active' | 'expiring' | 'expired' | 'revoked';
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A key just made: the only time its secret is returned. */
export interface CreatedApiKey {
  api_key: ApiKeyView;
  secret: string;
}

/**
 * Keys are handed out in the console (the spec: "issued in the merchant dashboard under
 * Settings, API Keys"), never by an API key: a leaked key must not be able to mint its successors.
 */
function consoleUser(ctx: ServiceContext, access: 'read' | 'write'): string {
  requireConsoleUser(
    ctx.principal,
    `api_keys:${access}`,
    'API keys are managed in the console (Settings → API keys) by a signed-in team member, not with an API key.',
  );
  return ctx.principal.actor.id;
}

function modeOf(ctx: ServiceContext): KeyMode {
  return ctx.principal.livemode ? 'live' : 'test';
}

export function presentApiKey(key: ApiKey, now: Date): ApiKeyView {
  const expired = key.expiresAt != null && key.expiresAt <= now;
  return {
    id: key.id,
    object: 'api_key',
    name: key.name,
    mode: key.mode,
    type: key.permissions ? 'restricted' : 'secret',
    permissions: key.permissions ?? null,
    redacted_key: `${key.keyPrefix}…`,
    status: key.revokedAt ? 'revoked' : expired ? 'expired' : key.expiresAt ? 'expiring' : 'active',
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

/** The keys of the caller's mode, newest first (revoked and expired ones too, as history). */
export async function listApiKeys(ctx: ServiceContext): Promise<ApiKeyView[]> {
  consoleUser(ctx, 'read');
  const keys = await ctx.em.find(
    ApiKey,
    { merchant: ctx.principal.merchantId, mode: modeOf(ctx) },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 500 },
  );
  return keys.map((k) => presentApiKey(k, new Date()));
}

async function keyOf(ctx: ServiceContext, id: string): Promise<ApiKey> {
  const key =
    typeof id === 'string' &&
    (await ctx.em.findOne(ApiKey, { id, merchant: ctx.principal.merchantId, mode: modeOf(ctx) }));
  if (!key) throw new DomainError('not_found', `No API key ${String(id)} in this mode.`, { param: 'id' });
  return key;
}

/** Creates a secret key, or a restricted one when `permissions` are given; the secret is returned once. */
export async function createApiKey(ctx: ServiceContext, input: unknown): Promise<CreatedApiKey> {
  const userId = consoleUser(ctx, 'write');
  const { name, permissions } = parseInput(createApiKeySchema, input);
  const secret = newApiKey(modeOf(ctx));
  const key = ctx.em.create(ApiKey, {
    merchant: ctx.principal.merchantId,
    mode: modeOf(ctx),
    name,
    permissions: permissions ?? null,
    keyHash: hashApiKey(secret),
    keyPrefix: secret.slice(0, 13),
    createdBy: userId,
  });
  recordAudit(ctx, 'api_key.created', key.id, {
    name,
    type: permissions ? 'restricted' : 'secret',
    ...(permissions && { permissions }),
  });
  await ctx.em.flush();
  return { api_key: presentApiKey(key, new Date()), secret };
}

/**
 * Rolls a key: a successor with the same name and permissions, returned once; the old key keeps
 * working for `expires_in_hours` (24 by default, 0: stops now), then every process refuses it.
 */
export async function rollApiKey(
  ctx: ServiceContext,
  id: string,
  input: unknown,
): Promise<CreatedApiKey & { previous: ApiKeyView }> {
  const userId = consoleUser(ctx, 'write');
  const { expires_in_hours } = parseInput(rollApiKeySchema, input);
  const old = await keyOf(ctx, id);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + expires_in_hours * 3_600_000);
  // One roll per key, even under concurrency: the successor of a rolled key is the one to roll next.
  const claimed = await ctx.em.nativeUpdate(ApiKey, { id: old.id, expiresAt: null, revokedAt: null }, { expiresAt });
  if (!claimed)
    throw new DomainError(
      'invalid_state',
      'This key was revoked or rolled already: roll its successor, or create a new key.',
      { param: 'id' },
    );
  old.expiresAt = expiresAt;
  const secret = newApiKey(old.mode);
  const key = ctx.em.create(ApiKey, {
    merchant: old.merchant,
    mode: old.mode,
    name: old.name,
    permissions: old.permissions ?? null,
    keyHash: hashApiKey(secret),
    keyPrefix: secret.slice(0, 13),
    createdBy: userId,
  });
  recordAudit(ctx, 'api_key.rolled', old.id, { successor: key.id, expires_at: expiresAt.toISOString() });
  await ctx.em.flush();
  await announcePrincipalChange(ctx);
  return { api_key: presentApiKey(key, now), secret, previous: presentApiKey(old, now) };
}

/** Revokes a key: every API process refuses it within a second (NOTIFY), this one at once. */
export async function revokeApiKey(ctx: ServiceContext, id: string): Promise<ApiKeyView> {
  consoleUser(ctx, 'write');
  const key = await keyOf(ctx, id);
  key.revokedAt ??= new Date();
  recordAudit(ctx, 'api_key.revoked', key.id);
  await ctx.em.flush();
  await announcePrincipalChange(ctx);
  return presentApiKey(key, new Date());
}
