import http from 'node:http';
import https from 'node:https';
import type { Config } from '@adyen/api-library';
import { HttpClientException } from './adyen-library.js';
import type { IRequest } from '@adyen/api-library/lib/src/typings/requestOptions.js';

/** Where the library's fixed base URLs are sent instead (a local stand-in in tests, Adyen itself otherwise). */
export interface AdyenRoutes {
  /** Replaces the Checkout API base (`…/v72`), e.g. `http://127.0.0.1:9000/v72`. */
  checkoutUrl?: string | null;
  /** Replaces the Disputes API base (`…/DisputeService/v30`). */
  disputesUrl?: string | null;
}

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
    if (this.routes.checkoutUrl && CHECKOUT_BASE.test(endpoint))
      return endpoint.replace(CHECKOUT_BASE, this.routes.checkoutUrl.replace(/\/$/, ''));
    if (this.routes.disputesUrl && DISPUTES_BASE.test(endpoint))
      return endpoint.replace(DISPUTES_BASE, this.routes.disputesUrl.replace(/\/$/, ''));
    return endpoint;
  }

  async request(
    endpoint: string,
    json: string | Buffer,
    config: Config,
    _isApiKeyRequired: boolean,
    options: IRequest.Options = {},
  ): Promise<string> {
    const url = new URL(this.route(endpoint));
    if (options.params)
      for (const [name, value] of new URLSearchParams(
        options.params as ConstructorParameters<typeof URLSearchParams>[0],
      ))
        url.searchParams.set(name, value);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (config.apiKey) headers['x-api-key'] = config.apiKey;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const method = options.method ?? 'POST';
    const payload = method === 'GET' || method === 'DELETE' ? undefined : json.toString();
    const res = await send(url, method, headers, payload, this.timeoutMs);
    if (res.status >= 200 && res.status < 300) return res.body;
    throw new HttpClientException({
      message: `HTTP Exception: ${res.status}. ${res.statusMessage}`,
      statusCode: res.status,
      responseBody: res.body,
    });
  }
}

// Kept-alive connections to Adyen (or a stand-in), shared by every merchant's client.
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/** One request with Node's http(s) client (lighter than fetch per call); a timeout or a dropped connection rejects. */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  payload: string | undefined,
  timeoutMs: number,
): Promise<{ status: number; statusMessage: string; body: string }> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method,
        headers: payload === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(payload)) },
        agent: agents[url.protocol as 'http:' | 'https:'],
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? '',
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url.host} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}
