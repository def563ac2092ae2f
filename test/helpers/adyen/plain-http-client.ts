import adyen from '@adyen/api-library';

type ClientInterface = NonNullable<ConstructorParameters<typeof adyen.Client>[1]>;
type Config = Parameters<ClientInterface['request']>[2];
type Options = NonNullable<Parameters<ClientInterface['request']>[4]>;

/**
 * The library's own transport (HttpURLConnectionClient) sends every call with `https.request`
 * and an https Agent, so `http://` base URLs (a local stand-in, Prism) fail with
 * `Protocol "http:" not supported`. This transport sends the same headers the library sends
 * (X-API-Key, Idempotency-Key, its library name and version) over plain HTTP and fails the way
 * the library fails (HttpClientException with the status, Adyen's errorCode and the ServiceError
 * as `apiError`), so everything above the transport is the library's own code.
 */
export function plainHttpClient(): ClientInterface {
  return {
    async request(endpoint: string, json: string | Buffer, config: Config, _isApiKeyRequired: boolean, options: Options = {}): Promise<string> {
      const url = new URL(endpoint);
      if (options.params) url.search = new URLSearchParams(options.params as Record<string, string>).toString();
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        'Accept-Charset': 'utf-8',
        'Cache-Control': 'no-cache',
        'User-Agent': 'adyen-node-api-library',
        'adyen-library-name': 'adyen-node-api-library',
      };
      for (const [k, v] of Object.entries(options.headers ?? {})) if (typeof v === 'string') headers[k] = v;
      if (config.apiKey) headers['X-API-Key'] = config.apiKey;
      if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
      const method = options.method ?? 'POST';
      const res = await fetch(url, { method, headers, body: method === 'GET' || method === 'DELETE' ? undefined : json.toString() });
      const body = await res.text();
      if (res.ok) return body;
      let apiError: { status?: number; errorCode?: string; message?: string } | undefined;
      try {
        apiError = JSON.parse(body) as typeof apiError;
      } catch {
        apiError = undefined;
      }
      throw new adyen.HttpClientException({
        message: `HTTP Exception: ${apiError?.status ?? res.status}. ${res.statusText}: ${apiError?.message ?? body}`,
        statusCode: apiError?.status ?? res.status,
        errorCode: apiError?.errorCode,
        responseHeaders: headersOf(res),
        responseBody: body,
        apiError: apiError,
      });
    },
  };
}

function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => (out[name] = value));
  return out;
}
