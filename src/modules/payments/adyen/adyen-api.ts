import { adyenApiClasses, EnvironmentEnum, HttpClientException, type AdyenApiClasses } from './adyen-library.js';
import { AdyenHttpClient, type AdyenRoutes } from './adyen-http-client.js';

/** A merchant's Adyen account, as `processor set` stored it (decrypted). */
export interface AdyenAccount {
  merchantAccount: string;
  apiKey: string;
  liveUrlPrefix: string | null;
}

export interface AdyenSettings extends AdyenRoutes {
  environment: 'test' | 'live';
  /** `user:password` Adyen must send with its notifications (Customer Area → Webhooks → Basic authentication), when set. */
  notificationBasicAuth?: string | null;
}

// The library's clients, per merchant account and settings: built once, not on every request.
export interface AdyenApis {
  checkout: InstanceType<AdyenApiClasses['CheckoutAPI']>;
  disputes: InstanceType<AdyenApiClasses['DisputesAPI']>['DisputesApi'];
}
const adyenApis = new WeakMap<AdyenSettings, Map<string, AdyenApis>>();

export function adyenApisFor(account: AdyenAccount, settings: AdyenSettings): AdyenApis {
  let bySettings = adyenApis.get(settings);
  if (!bySettings) adyenApis.set(settings, (bySettings = new Map<string, AdyenApis>()));
  const id = `${account.apiKey}\u0000${account.liveUrlPrefix ?? ''}`;
  let apis = bySettings.get(id);
  if (!apis) {
    const { Client, CheckoutAPI, DisputesAPI } = adyenApiClasses();
    const environment = settings.environment === 'live' ? EnvironmentEnum.LIVE : EnvironmentEnum.TEST;
    const client = new Client(
      { apiKey: account.apiKey, environment, liveEndpointUrlPrefix: account.liveUrlPrefix ?? undefined },
      new AdyenHttpClient(settings),
    );
    apis = { checkout: new CheckoutAPI(client), disputes: new DisputesAPI(client).DisputesApi };
    if (bySettings.size > 10_000) bySettings.clear();
    bySettings.set(id, apis);
  }
  return apis;
}

/** Runs one call; an answer of Adyen's that refuses the request (4xx but auth and rate limits) comes back as a refusal, anything else throws. */
export async function callAdyen<T>(
  fn: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; code: string; message: string }> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    if (err instanceof HttpClientException && [400, 422].includes(err.statusCode)) {
      const body = parseJson(err.responseBody);
      const message = typeof body?.message === 'string' ? body.message : 'Adyen refused the request.';
      return { ok: false, code: 'invalid_payment_method', message };
    }
    throw err;
  }
}

function parseJson(text: string | undefined): Record<string, unknown> | null {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
