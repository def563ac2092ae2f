import type { ApolloServerPlugin } from '@apollo/server';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { DomainError } from '../errors.js';
import type { GraphContext } from './context.js';
import { requestError } from './errors.js';

/** The most a single operation may cost (a field costs 1; a connection multiplies its selection by its page size). */
export const MAX_QUERY_COMPLEXITY = 20_000;

// A connection's children are resolved once per item of the page it asks for.
const connectionEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const size = Number(args.first ?? args.last ?? ('first' in args || 'last' in args ? 10 : NaN));
  return Number.isFinite(size) ? 1 + childComplexity * Math.max(1, size) : undefined;
};

// Apollo hands the same parsed document for the same query text (its document store): the cost of
// a document with one operation name and one set of variables is computed once.
const costs = new WeakMap<DocumentNode, Map<string, number>>();

/**
 * Refuses an operation whose estimated cost exceeds `max` before it runs, with
 * `extensions.code = query_too_complex`: nested connections multiply (orders(first: 100) {
 * refunds(first: 100) } costs 10,000+), so no single request can ask for unbounded work.
 */
export function complexityLimit(schema: GraphQLSchema, max = MAX_QUERY_COMPLEXITY): ApolloServerPlugin<GraphContext> {
  return {
    requestDidStart() {
      return Promise.resolve({
        // A refusal rejects the hook's promise (Apollo answers it as the request's error).
        didResolveOperation({ request, document }) {
          let known = costs.get(document);
          if (!known) costs.set(document, (known = new Map<string, number>()));
          const key = `${request.operationName ?? ''}\u0000${JSON.stringify(request.variables ?? {})}`;
          let complexity = known.get(key);
          if (complexity === undefined) {
            try {
              complexity = getComplexity({
                schema,
                query: document,
                operationName: request.operationName ?? undefined,
                variables: request.variables ?? {},
                estimators: [connectionEstimator, simpleEstimator({ defaultComplexity: 1 })],
              });
            } catch (err) {
              // Costing coerces the variables first: a missing or mistyped variable is the client's mistake.
              return Promise.reject(requestError(new DomainError('invalid_request', err instanceof Error ? err.message : 'The variables do not match the operation.', { param: 'variables' })));
            }
            if (known.size < 100) known.set(key, complexity);
          }
          if (complexity > max) {
            return Promise.reject(
              requestError(
                new DomainError('query_too_complex', `This operation costs ${complexity}, above the limit of ${max}: ask for smaller pages or fewer nested connections.`, {
                  details: { complexity, maximum: max },
                }),
              ),
            );
          }
          return Promise.resolve();
        },
      });
    },
  };
}
