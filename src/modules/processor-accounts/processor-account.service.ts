import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { openSecret, parseSecretsKey, sealSecret } from '../../platform/secrets.js';
import { parseInput } from '../../platform/validation.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { ProcessorAccount, type ProcessorProvider } from './processor-account.entity.js';
import { setProcessorAccountSchema } from './processor-account.schemas.js';

/**
 * Merchants' processor configuration (Adyen). Writes: `setProcessorAccount` (the CLI). Reads with
 * the ORM, none of them hot: the masked view (REST, GraphQL, CLI), and the decrypted credentials
 * the Adyen adapter and the notification handler use, kept briefly per process.
 */

export type AdyenEnvironment = 'test' | 'live';
/** Adyen Web's environments: test, or the live platform of a region. */
export type AdyenWebEnvironment = 'test' | 'live' | 'live-us' | 'live-au' | 'live-apse' | 'live-in' | 'live-nea';

/** What the Adyen adapter needs to call Adyen for one merchant, decrypted. Never logged or returned. */
export interface AdyenCredentials {
  merchantAccount: string;
  apiKey: string;
  clientKey: string;
  hmacKey: string;
  liveUrlPrefix: string | null;
}

/** The configuration as it may be shown: the API key and HMAC key masked to their last 4 characters. */
export interface ProcessorConfigurationView {
  provider: ProcessorProvider;
  merchant_account: string;
  api_key: string;
  client_key: string;
  hmac_key: string;
  live_url_prefix: string | null;
  environment: AdyenEnvironment;
  updated_at: string;
}

interface Settings {
  secretsKey: Buffer | null;
  environment: AdyenEnvironment;
  webEnvironment: AdyenWebEnvironment;
}

let settings: Settings = { secretsKey: null, environment: 'test', webEnvironment: 'test' };

// merchant id → its credentials, for a few seconds: a `processor set` run by another process (the
// CLI) is seen within CACHE_MS. A merchant without a configuration is never cached.
const CACHE_MS = 2_000;
const cache = new Map<string, { credentials: AdyenCredentials; until: number }>();
// Adyen merchant account → the merchants configured with it (notifications), for as long.
const byMerchantAccount = new Map<
  string,
  { accounts: { merchantId: string; credentials: AdyenCredentials }[]; until: number }
>();

/** Sets this process's SECRETS_KEY, ADYEN_ENVIRONMENT and ADYEN_WEB_ENVIRONMENT (from the configuration, when the app or a command starts). */
export function configureProcessorAccounts(config: {
  SECRETS_KEY?: string;
  ADYEN_ENVIRONMENT: AdyenEnvironment;
  ADYEN_WEB_ENVIRONMENT?: AdyenWebEnvironment;
}): void {
  settings = {
    secretsKey: config.SECRETS_KEY ? parseSecretsKey(config.SECRETS_KEY) : null,
    environment: config.ADYEN_ENVIRONMENT,
    webEnvironment: config.ADYEN_WEB_ENVIRONMENT ?? config.ADYEN_ENVIRONMENT,
  };
  cache.clear();
  byMerchantAccount.clear();
}

/** The Adyen platform this process's live mode uses. */
export function adyenEnvironment(): AdyenEnvironment {
  return settings.environment;
}

/** The environment Adyen Web runs in on live-mode pages (the region of the live platform). */
export function adyenWebEnvironment(): AdyenWebEnvironment {
  return settings.webEnvironment;
}

/** The merchant's Adyen client key (public: Adyen Web runs with it in the shopper's browser); null when it has no configuration. */
export async function adyenClientKeyFor(em: EntityManager, merchantId: string): Promise<string | null> {
  const account = await em
    .fork()
    .findOne(ProcessorAccount, { merchant: merchantId, provider: 'adyen' }, { fields: ['clientKey'] });
  return account?.clientKey ?? null;
}

// A sealed value opens only in its own row and column: copied to another merchant, it is refused.
const aad = (merchantId: string, column: 'api_key' | 'hmac_key') => `processor_accounts.${column}:${merchantId}`;

function secretsKey(): Buffer {
  if (!settings.secretsKey) {
    throw new DomainError(
      'invalid_request',
      'SECRETS_KEY is not set: processor keys are stored only encrypted. Generate one with `openssl rand -hex 32` and set it for every process.',
      {
        param: 'SECRETS_KEY',
      },
    );
  }
  return settings.secretsKey;
}

/**
 * Seals `plain` with this process's SECRETS_KEY for the row and column `where` names (a value that
 * must wait in a table, such as Adyen Web's encrypted card fields of a payment parked for 3-D
 * Secure); null when no key is set, which only test mode allows.
 */
export function sealAtRest(plain: string, where: string): string | null {
  return settings.secretsKey ? sealSecret(plain, settings.secretsKey, where) : null;
}

/** Opens what `sealAtRest` sealed for `where`. */
export function openAtRest(sealed: string, where: string): string {
  return openSecret(sealed, secretsKey(), where);
}

function toView(account: ProcessorAccount): ProcessorConfigurationView {
  return {
    provider: account.provider,
    merchant_account: account.merchantAccount,
    api_key: `****${account.apiKeyLast4}`,
    client_key: account.clientKey,
    hmac_key: `****${account.hmacKeyLast4}`,
    live_url_prefix: account.liveUrlPrefix,
    environment: settings.environment,
    updated_at: account.updatedAt.toISOString(),
  };
}

function open(account: ProcessorAccount, key: Buffer): AdyenCredentials {
  const merchantId = account.merchant.id;
  try {
    return {
      merchantAccount: account.merchantAccount,
      apiKey: openSecret(account.apiKeySealed, key, aad(merchantId, 'api_key')),
      clientKey: account.clientKey,
      hmacKey: openSecret(account.hmacKeySealed, key, aad(merchantId, 'hmac_key')),
      liveUrlPrefix: account.liveUrlPrefix,
    };
  } catch {
    throw new Error(
      `SECRETS_KEY cannot open the processor configuration of merchant ${merchantId}: it is not the key the configuration was stored with (or the row was altered)`,
    );
  }
}

/**
 * What `processor set` can refuse before reading anything: the fields, the live environment's rules
 * and this process's SECRETS_KEY (422 `validation_error` names the bad field without quoting it).
 */
export function checkProcessorAccountInput(input: unknown) {
  const values = parseInput(setProcessorAccountSchema, input);
  if (settings.environment === 'live') {
    if (!values.client_key.startsWith('live_'))
      throw DomainError.field('client_key', 'must start with live_ when ADYEN_ENVIRONMENT is live');
    if (!values.live_url_prefix)
      throw DomainError.field('live_url_prefix', 'is required when ADYEN_ENVIRONMENT is live');
  }
  return { values, key: secretsKey() };
}

/**
 * Stores (or replaces) a merchant's processor configuration from `processor set`; returns the
 * masked view. 422 `validation_error` names the bad field without quoting it.
 */
export async function setProcessorAccount(
  em: EntityManager,
  merchantId: string,
  input: unknown,
): Promise<ProcessorConfigurationView> {
  const { values: v, key } = checkProcessorAccountInput(input);
  if (!(await em.findOne(Merchant, { id: merchantId }, { fields: ['id'] })))
    throw DomainError.notFound('merchant', merchantId, 'merchant');
  // Every configuration is sealed with the one key the service starts with: a different key here
  // would store a row the service then refuses to start with (there is no key rotation yet).
  const [stored] = await em.find(ProcessorAccount, {}, { orderBy: { createdAt: 'asc' }, limit: 1 });
  if (stored) {
    try {
      open(stored, key);
    } catch {
      throw new DomainError(
        'invalid_request',
        'SECRETS_KEY is not the key the stored processor configurations were sealed with: use the same key as the service.',
        { param: 'SECRETS_KEY' },
      );
    }
  }
  const account = Object.assign(new ProcessorAccount(), {
    merchant: em.getReference(Merchant, merchantId),
    provider: v.provider,
    merchantAccount: v.merchant_account,
    apiKeySealed: sealSecret(v.api_key, key, aad(merchantId, 'api_key')),
    apiKeyLast4: v.api_key.slice(-4),
    clientKey: v.client_key,
    hmacKeySealed: sealSecret(v.hmac_key, key, aad(merchantId, 'hmac_key')),
    hmacKeyLast4: v.hmac_key.slice(-4),
    liveUrlPrefix: v.live_url_prefix ?? null,
    updatedAt: new Date(),
  });
  const saved = await em.upsert(ProcessorAccount, account, {
    onConflictFields: ['merchant'],
    onConflictExcludeFields: ['id', 'createdAt'],
  });
  cache.delete(merchantId);
  byMerchantAccount.clear();
  return toView(saved);
}

/** The merchant's configuration, masked; null when none is set. */
export async function showProcessorAccount(
  em: EntityManager,
  merchantId: string,
): Promise<ProcessorConfigurationView | null> {
  const account = await em.findOne(ProcessorAccount, { merchant: merchantId });
  return account ? toView(account) : null;
}

/** The caller's processor configuration, masked (either key mode); null when none is set. */
export async function readProcessorConfiguration(ctx: ServiceContext): Promise<ProcessorConfigurationView | null> {
  return showProcessorAccount(ctx.em, ctx.principal.merchantId);
}

/** The caller's processor configuration, masked, or 404 `not_found`. */
export async function getProcessorConfiguration(ctx: ServiceContext): Promise<ProcessorConfigurationView> {
  const view = await readProcessorConfiguration(ctx);
  if (!view)
    throw new DomainError(
      'not_found',
      'No processor configuration is set for this merchant: set one with `npm run cli -- processor set`.',
    );
  return view;
}

/** The merchant's Adyen credentials, decrypted; null when it has no configuration. */
export async function adyenCredentialsFor(em: EntityManager, merchantId: string): Promise<AdyenCredentials | null> {
  const hit = cache.get(merchantId);
  if (hit && hit.until > Date.now()) return hit.credentials;
  const account = await em.fork().findOne(ProcessorAccount, { merchant: merchantId, provider: 'adyen' });
  if (!account) return null;
  const credentials = open(account, secretsKey());
  if (cache.size > 10_000) cache.clear();
  cache.set(merchantId, { credentials, until: Date.now() + CACHE_MS });
  return credentials;
}

/** Every merchant configured with Adyen merchant account `merchantAccount` (notifications name it), with its credentials. */
export async function adyenAccountsByMerchantAccount(
  em: EntityManager,
  merchantAccount: string,
): Promise<{ merchantId: string; credentials: AdyenCredentials }[]> {
  const hit = byMerchantAccount.get(merchantAccount);
  if (hit && hit.until > Date.now()) return hit.accounts;
  const rows = await em
    .fork()
    .find(ProcessorAccount, { merchantAccount, provider: 'adyen' }, { orderBy: { createdAt: 'asc' } });
  if (!rows.length) return [];
  const key = secretsKey();
  const accounts = rows.map((account) => ({ merchantId: account.merchant.id, credentials: open(account, key) }));
  if (byMerchantAccount.size > 10_000) byMerchantAccount.clear();
  byMerchantAccount.set(merchantAccount, { accounts, until: Date.now() + CACHE_MS });
  return accounts;
}

/**
 * At startup: when any processor configuration is stored, SECRETS_KEY must be set and open every
 * one of them; otherwise this throws a message saying what to do. Returns how many were checked.
 */
export async function checkStoredProcessorSecrets(em: EntityManager): Promise<number> {
  const accounts = await em.fork().find(ProcessorAccount, {});
  if (!accounts.length) return 0;
  if (!settings.secretsKey) {
    throw new Error(
      `SECRETS_KEY is not set, but ${accounts.length} merchant processor configuration(s) are stored encrypted with it: live mode cannot run without it. Set SECRETS_KEY to the key they were stored with.`,
    );
  }
  for (const account of accounts) open(account, settings.secretsKey);
  return accounts.length;
}
