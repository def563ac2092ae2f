// A tiny JSON client over real HTTP (global fetch).

/**
 * A parsed JSON body as the tests read it when they name no shape: the suites assert on it field by
 * field (eslint.config.js turns the no-unsafe-* rules off in test/ for it). A test that keeps a value
 * names its shape instead: `api.get<Order>(…)`, `ApiResponse<Page<Order>>`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one untyped default: a response body is whatever JSON the server sent, and each assertion reads it
export type Json = any;

/** An invalid field, as REST's `error.details` and GraphQL's `extensions.details` list them. */
export interface FieldError {
  field: string;
  message: string;
}

/** A REST list: one page of `data` and the cursor after it (a product id is a number, the other ids strings). */
export interface Page<T, Cursor = string> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: Cursor | null;
}

/** A GraphQL response's `extensions.cost` (Shopify's shape). */
export interface QueryCost {
  requestedQueryCost: number | null;
  actualQueryCost: number | null;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/** One entry of a GraphQL response's `errors`. */
export interface GraphQLErrorBody {
  message: string;
  path?: string[];
  /** `code` always; `param` and `details` (field errors, or a domain error's own object) when the error has them. */
  extensions: { code: string; param?: string; details?: Json; retryAfterSeconds?: number };
}

/** A REST error answer's body (`error.details` lists field errors, or carries a domain error's own object). */
export interface ErrorBody {
  error: { code: string; message: string; param?: string; details?: Json };
}

/** The REST envelope around a created or fetched resource (checkout sessions, refunds, payment links). */
export interface Envelope<T> {
  success: boolean;
  message?: string;
  data: T;
  metadata?: { request_id: string };
}

/** An answer: its status, its headers and its body parsed as JSON (the text when it is not JSON). */
export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  body: T;
}

/** The JSON client `client()` returns. */
export type Client = ReturnType<typeof client>;

export function client(baseUrl: string, apiKey?: string) {
  const request = async <T = Json>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(apiKey && { authorization: `Bearer ${apiKey}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  };
  return {
    get: <T = Json>(path: string, headers?: Record<string, string>) => request<T>('GET', path, undefined, headers),
    post: <T = Json>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>('POST', path, body ?? {}, headers),
    put: <T = Json>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>('PUT', path, body ?? {}, headers),
    patch: <T = Json>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>('PATCH', path, body ?? {}, headers),
    delete: <T = Json>(path: string, headers?: Record<string, string>) =>
      request<T>('DELETE', path, undefined, headers),
    /** POST /graphql; returns `{ data, errors, extensions }`. */
    graphql: async <T = Json>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) =>
      request<{ data: T; errors?: GraphQLErrorBody[]; extensions?: { cost: QueryCost } }>(
        'POST',
        '/graphql',
        { query, variables },
        headers,
      ),
  };
}
