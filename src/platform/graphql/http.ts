import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getOperationAST, parse } from 'graphql';
import { requestFingerprint, runIdempotent } from '../idempotency/idempotency.service.js';
import { contextOf } from '../rest/routes.js';
import type { GraphContext } from './context.js';

/** True when the POSTed document's selected operation is a mutation (only then does a key apply). */
function isMutation(body: unknown): boolean {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return false;
  try {
    return getOperationAST(parse(query), typeof operationName === 'string' ? operationName : undefined)?.operation === 'mutation';
  } catch {
    return false; // Apollo reports the syntax error itself
  }
}

/**
 * `/graphql` over Apollo's `executeHTTPGraphQLRequest`. A mutation POSTed with an
 * `Idempotency-Key` runs through the same idempotency store as REST: replayed for 24 hours,
 * executed once under concurrency.
 */
export function registerGraphqlRoute(http: FastifyInstance, apollo: ApolloServer<GraphContext>): void {
  const execute = async (req: FastifyRequest, ctx: GraphContext['ctx']) => {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const res = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method.toUpperCase(), headers, search: req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '', body: req.body },
      context: async () => ({ ctx }),
    });
    let body = '';
    if (res.body.kind === 'complete') body = res.body.string;
    else for await (const chunk of res.body.asyncIterator) body += chunk;
    return { status: res.status ?? 200, headers: Object.fromEntries(res.headers), body };
  };

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const ctx = contextOf(req);
    const keyHeader = req.headers['idempotency-key'];
    const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
    if (req.method === 'POST' && key !== undefined && isMutation(req.body)) {
      const result = await runIdempotent(ctx, key, requestFingerprint('POST', '/graphql', req.body), async (tx) => {
        const res = await execute(req, tx);
        return { status: res.status, body: { headers: res.headers, body: res.body } };
      });
      const stored = result.body as { headers: Record<string, string>; body: string };
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(result.status).headers(stored.headers).send(stored.body);
    }
    const res = await execute(req, ctx);
    return reply.code(res.status).headers(res.headers).send(res.body);
  };

  http.route({ method: ['GET', 'POST'], url: '/graphql', schema: { hide: true }, handler });
}
