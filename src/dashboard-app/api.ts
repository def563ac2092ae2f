/** The console's calls to this service: its JSON session routes and GraphQL, with the session cookie and its CSRF token. */
import { print } from '@0no-co/graphql.web';
import type { TadaDocumentNode } from './graphql.js';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    /** `throttled`: how long until the key's query-cost bucket has the points (`extensions.retryAfterSeconds`). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

let csrfToken = '';

/** The session's CSRF token, sent on every request (state-changing ones need it). */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}
export const currentCsrfToken = () => csrfToken;

function headers(): Record<string, string> {
  return { 'content-type': 'application/json', ...(csrfToken && { 'x-csrf-token': csrfToken }) };
}

/** A console session route (`/console/…`): its JSON answer, or an ApiError with the API's message. */
export async function consoleCall<T = Record<string, unknown>>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: headers(),
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
  });
  const json = (await res.json().catch(() => null)) as (T & { error?: { code: string; message: string } }) | null;
  if (!res.ok || !json) throw new ApiError(json?.error?.message ?? `HTTP ${res.status}`, res.status, json?.error?.code);
  return json;
}

/**
 * A typed document's answer (its result type is inferred from schema.graphql), or an ApiError. A
 * mutation's userErrors are thrown, so its payload's objects are there when it returns (hence `!`).
 */
export async function gql<R, V>(
  document: TadaDocumentNode<R, V>,
  ...[variables]: Partial<V> extends V ? [V?] : [V]
): Promise<R> {
  return gqlText<R>(print(document), variables ?? {});
}

/**
 * A document assembled at run time (its fields read by introspection, so no static type): the
 * caller states its answer's type. Every fixed document goes through `gql`.
 */
export async function gqlText<T = unknown>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: headers(),
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json().catch(() => null)) as {
    data?: T;
    errors?: { message: string; extensions?: { code?: string; retryAfterSeconds?: number } }[];
    error?: { code: string; message: string };
  } | null;
  if (body?.errors?.length) {
    const [{ message, extensions }] = body.errors;
    throw new ApiError(
      message,
      res.status,
      extensions?.code,
      extensions?.retryAfterSeconds === undefined ? undefined : extensions.retryAfterSeconds * 1000,
    );
  }
  if (!res.ok || !body?.data)
    throw new ApiError(body?.error?.message ?? `HTTP ${res.status}`, res.status, body?.error?.code);
  // A mutation's input mistakes come back as its payload's userErrors (HTTP 200): the console shows them as errors.
  for (const payload of Object.values(body.data)) {
    const mistakes = (payload as { userErrors?: { message: string; code?: string }[] } | null)?.userErrors;
    if (mistakes?.length)
      throw new ApiError(mistakes.map((m) => m.message).join(' '), res.status, mistakes[0].code ?? 'user_error');
  }
  return body.data;
}

/**
 * The selection for an optional part of the graph (payment links, subscriptions: other modules may
 * not have them yet): the root field's node type is read by introspection, and only the wanted
 * fields it has are selected. Null when the field does not exist (or introspection is off).
 */
export async function discoverList(
  rootField: string,
  wanted: string[],
): Promise<{ fields: string[]; args: string[] } | null> {
  try {
    const data = await gqlText<{
      q: {
        fields: {
          name: string;
          args: { name: string }[];
          type: { name: string | null; ofType: { name: string | null } | null };
        }[];
      } | null;
    }>(`{ q: __type(name: "Query") { fields { name args { name } type { name ofType { name } } } } }`);
    const field = data.q?.fields.find((f) => f.name === rootField);
    const connection = field?.type.name ?? field?.type.ofType?.name;
    if (!field || !connection?.endsWith('Connection')) return null;
    const node = await gqlText<{ t: { fields: { name: string }[] } | null }>(
      `query($n: String!) { t: __type(name: $n) { fields { name } } }`,
      { n: connection.replace(/Connection$/, '') },
    );
    const have = new Set(node.t?.fields.map((f) => f.name) ?? []);
    const fields = wanted.filter((w) => have.has(w));
    return fields.length ? { fields, args: field.args.map((a) => a.name) } : null;
  } catch {
    return null;
  }
}
