/** The dashboard's calls to this service: GraphQL over HTTP with the tab's API key. */

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

export async function gql<T = unknown>(apiKey: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json().catch(() => null)) as {
    data?: T;
    errors?: { message: string; extensions?: { code?: string; retryAfterSeconds?: number } }[];
    error?: { code: string; message: string };
  } | null;
  if (body?.errors?.length) {
    const [{ message, extensions }] = body.errors;
    throw new ApiError(message, res.status, extensions?.code, extensions?.retryAfterSeconds === undefined ? undefined : extensions.retryAfterSeconds * 1000);
  }
  if (!res.ok || !body?.data) throw new ApiError(body?.error?.message ?? `HTTP ${res.status}`, res.status, body?.error?.code);
  return body.data;
}

/**
 * The selection for an optional part of the graph (payment links, subscriptions: other modules may
 * not have them yet): the root field's node type is read by introspection, and only the wanted
 * fields it has are selected. Null when the field does not exist (or introspection is off).
 */
export async function discoverList(apiKey: string, rootField: string, wanted: string[]): Promise<{ fields: string[]; args: string[] } | null> {
  try {
    const data = await gql<{ q: { fields: { name: string; args: { name: string }[]; type: { name: string | null; ofType: { name: string | null } | null } }[] } | null }>(
      apiKey,
      `{ q: __type(name: "Query") { fields { name args { name } type { name ofType { name } } } } }`,
    );
    const field = data.q?.fields.find((f) => f.name === rootField);
    const connection = field?.type.name ?? field?.type.ofType?.name;
    if (!field || !connection?.endsWith('Connection')) return null;
    const node = await gql<{ t: { fields: { name: string }[] } | null }>(apiKey, `query($n: String!) { t: __type(name: $n) { fields { name } } }`, { n: connection.replace(/Connection$/, '') });
    const have = new Set(node.t?.fields.map((f) => f.name) ?? []);
    const fields = wanted.filter((w) => have.has(w));
    return fields.length ? { fields, args: field.args.map((a) => a.name) } : null;
  } catch {
    return null;
  }
}
