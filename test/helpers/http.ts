/** A tiny JSON client over real HTTP (global fetch). */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export function client(baseUrl: string, apiKey?: string) {
  const request = async <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> => {
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
    get: <T = any>(path: string, headers?: Record<string, string>) => request<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => request<T>('POST', path, body ?? {}, headers),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => request<T>('PUT', path, body ?? {}, headers),
    delete: <T = any>(path: string, headers?: Record<string, string>) => request<T>('DELETE', path, undefined, headers),
    /** POST /graphql; returns `{ data, errors }`. */
    graphql: async <T = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) =>
      request<{ data: T; errors?: { message: string; extensions: Record<string, any>; path?: string[] }[] }>('POST', '/graphql', { query, variables }, headers),
  };
}
