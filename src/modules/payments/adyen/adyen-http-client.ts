import adyen, { type Config } from '@adyen/api-library';
import type { IRequest } from '@adyen/api-library/lib/src/typings/requestOptions.js';

/** Where the library's fixed base URLs are sent instead (a local stand-in in tests, Adyen itself otherwise). */
export interface AdyenRoutes {
  /** Replaces the Checkout API base (`…/v72`), e.g. `http://127.0.0.1:9000/v72`. */
  checkoutUrl?: string | null;
  /** Replaces the Disputes API base (`…/DisputeService/v30`). */
  disputesUrl?: string | null;
}

const { HttpClientException } = adyen;

const CHECKOUT_BASE = /^https:\/\/[^/]*checkout[^/]*\/(?:checkout\/)?v72(?=\/|$)/;
const DISPUTES_BASE = /^https:\/\/[^/]+\/ca\/services\/DisputeService\/v30(?=\/|$)/;

/**
 * The HTTP transport under `@adyen/api-library`: the library builds every request (paths, bodies,
 * `Idempotency-Key`, `x-api-key`); this sends it with Node's fetch (the library's own client only
 * speaks https, which a local stand-in does not), over the base URLs `routes` override, and fails
 * like the library's client: an `HttpClientException` carrying the status and Adyen's error body.
 */
export class AdyenHttpClient {
  constructor(
    private readonly routes: AdyenRoutes,
    private readonly timeoutMs = 30_000,
  ) {}

  private route(endpoint: string): string {
    if (this.routes.checkoutUrl && CHECKOUT_BASE.test(endpoint)) return endpoint.replace(CHECKOUT_BASE, this.routes.checkoutUrl.replace(/\/$/, ''));
    if (this.routes.disputesUrl && DISPUTES_BASE.test(endpoint)) return endpoint.replace(DISPUTES_BASE, this.routes.disputesUrl.replace(/\/$/, ''));
    return endpoint;
  }

  async request(endpoint: string, json: string | Buffer, config: Config, _isApiKeyRequired: boolean, options: IRequest.Options = {}): Promise<string> {
    const url = new URL(this.route(endpoint));
    if (options.params) for (const [name, value] of new URLSearchParams(options.params as ConstructorParameters<typeof URLSearchParams>[0])) url.searchParams.set(name, value);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (config.apiKey) headers['x-api-key'] = config.apiKey;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const method = options.method ?? 'POST';
    const res = await fetch(url, { method, headers, body: method === 'GET' || method === 'DELETE' ? undefined : json.toString(), signal: AbortSignal.timeout(this.timeoutMs) });
    const body = await res.text();
    if (res.ok) return body;
    throw new HttpClientException({ message: `HTTP Exception: ${res.status}. ${res.statusText}`, statusCode: res.status, responseBody: body });
  }
}
