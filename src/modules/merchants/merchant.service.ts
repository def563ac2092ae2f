import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.js';
import { randomBase62 } from '../../platform/db/ids.js';
import type { Principal } from '../../platform/context.js';
import { ApiKey, Merchant, type KeyMode } from './merchant.entity.js';

export interface CreatedMerchant {
  id: string;
  name: string;
  test_api_key: string;
  live_api_key: string;
  webhook_secret: string;
}

const KEY_PATTERN = /^glm_(test|live)_[0-9A-Za-z]{32}$/;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function newApiKey(mode: KeyMode): string {
  return `glm_${mode}_${randomBase62(32)}`;
}

/** Creates a merchant with a test key, a live key and a webhook secret (`em`: a fork or transaction); the keys are returned once and stored only as hashes. */
export async function createMerchant(em: EntityManager, name: string): Promise<CreatedMerchant> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 255) {
    throw new DomainError('validation_error', 'name must be 1 to 255 characters', { param: 'name', details: [{ field: 'name', message: 'must be 1 to 255 characters' }] });
  }
  const merchant = em.create(Merchant, { name: trimmed, webhookSecret: `whsec_${randomBase62(32)}` });
  const keys = { test: newApiKey('test'), live: newApiKey('live') };
  for (const mode of ['test', 'live'] as const) {
    em.create(ApiKey, { merchant, mode, keyHash: hashApiKey(keys[mode]), keyPrefix: keys[mode].slice(0, 13) });
  }
  await em.flush();
  return { id: merchant.id, name: merchant.name, test_api_key: keys.test, live_api_key: keys.live, webhook_secret: merchant.webhookSecret };
}

/** Resolves `Authorization: Bearer <key>` to the calling merchant and mode, or throws 401 `unauthorized`. */
export async function authenticate(em: EntityManager, authorization: string | undefined): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match || !KEY_PATTERN.test(match[1])) {
    throw new DomainError('unauthorized', 'Missing or invalid API key. Send Authorization: Bearer glm_test_… or glm_live_….');
  }
  const key = await em.fork().findOne(ApiKey, { keyHash: hashApiKey(match[1]), revokedAt: null }, { populate: ['merchant'] });
  if (!key) throw new DomainError('unauthorized', 'Invalid API key.');
  const livemode = key.mode === 'live';
  return {
    merchantId: key.merchant.id,
    livemode,
    clockOffsetMs: livemode ? 0 : Number(key.merchant.$.testClockOffsetMs),
    keyId: key.id,
  };
}
