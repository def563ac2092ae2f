import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getOperationAST, Kind, OperationTypeNode, parse, type GraphQLSchema } from 'graphql';
import { requestFingerprint, runIdempotent } from '../idempotency/idempotency.service.js';
import { contextOf } from '../rest/routes.js';
import type { GraphContext } from './context.js';
import { hadUserErrors } from './user-errors.js';

/**
 * How an idempotency key applies to a POSTed operation: only to a mutation; `ownTransactions`
 * when one of its fields calls the payment processor (declared on the resolver with
 * `@Extensions({ ownTransactions: true })`), so the work cannot run inside one transaction.
 */
function mutationOf(schema: GraphQLSchema, body: unknown): { ownTransactions: boolean } | null {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return null;
  try {
    const operation = getOperationAST(parse(query), typeof operationName === 'string' ? operationName : undefined);
    if (operation?.operation !== OperationTypeNode.MUTATION) return null;
    const fields = schema.getMutationType()?.getFields() ?? {};
    const ownTransactions = operation.selectionSet.selections.some(
      (s) => s.kind === Kind.FIELD && Boolean(fields[s.name.value]?.extensions?.ownTransactions),
    );
    return { ownTransactions };
  } catch {
    return null; // Apollo reports the syntax error itself
  }
}

/**
 * `/graphql` over Apollo's `executeHTTPGraphQLRequest`. A mutation POSTed with an
 * `Idempotency-Key` runs through the same idempotency store as REST: replayed for 24 hours,
 * executed once under concurrency.
 */
export function registerGraphqlRoute(
  http: FastifyInstance,
  apollo: ApolloServer<GraphContext>,
  schema: GraphQLSchema,
): void {
  const execute = async (req: FastifyRequest, ctx: GraphContext['ctx']) => {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const res = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: req.method.toUpperCase(),
        headers,
        search: req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '',
        body: req.body,
      },
      context: () => Promise.resolve({ ctx }),
    });
    let body = '';
    if (res.body.kind === 'complete') body = res.body.string;
    else for await (const chunk of res.body.asyncIterator) body += chunk;
    return {
      status: res.status ?? 200,
      headers: Object.fromEntries(res.headers),
      body,
      userErrors: hadUserErrors(ctx),
    };
  };

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const ctx = contextOf(req);
    const keyHeader = req.headers['idempotency-key'];
    const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
    const mutation = req.method === 'POST' && key !== undefined ? mutationOf(schema, req.body) : null;
    if (mutation) {
      const result = await runIdempotent(
        ctx,
        key,
        () => requestFingerprint('POST', req.url, req.body),
        async (run) => {
          const res = await execute(req, run);
          // A mutation answered with errors or userErrors failed: like a failed REST call, it is not kept under the key.
          return {
            status: res.status,
            body: res.body,
            store: res.status < 400 && !hasErrors(res.body) && !res.userErrors,
          };
        },
        { transactional: !mutation.ownTransactions },
      );
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(result.status).type('application/json; charset=utf-8').send(result.body);
    }
    const res = await execute(req, ctx);
    return reply.code(res.status).headers(res.headers).send(res.body);
  };

  http.route({ method: ['GET', 'POST'], url: '/graphql', schema: { hide: true }, handler });
}

function hasErrors(body: string): boolean {
  try {
    return Array.isArray((JSON.parse(body) as { errors?: unknown }).errors);
  } catch {
    return true;
  }
}
