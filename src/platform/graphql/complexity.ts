import type { ApolloServerPlugin, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import { DomainError } from '../errors.js';
import type { GraphContext } from './context.js';
import type { Admission, CostBuckets } from './cost-bucket.js';
import { requestError } from './errors.js';
import { actualCost, planCost, TooManySelectionsError, type CostPlan } from './query-cost.js';

/** The most a single operation may cost (a field costs 1; a connection multiplies its selection by its page size). */
export const MAX_QUERY_COMPLEXITY = 20_000;

// Apollo hands the same parsed document for the same query text (its document store): the plan of
// a document with one operation name and one set of variables is made once.
const plans = new WeakMap<DocumentNode, Map<string, CostPlan>>();

/**
 * Query cost, Shopify's way. Each operation is priced before it runs (`planCost`): above `max`
 * (or above the bucket, which could never hold it) it is refused with `query_too_complex`;
 * otherwise it takes its price from the API key's bucket (`CostBuckets`), or is refused with
 * `throttled` and the seconds to wait. After it ran, its actual cost is priced from its result and
 * the difference goes back to the bucket. Every response Apollo answers carries `extensions.cost`:
 * `requestedQueryCost` (null when the document could not be priced), `actualQueryCost` (null when
 * nothing ran) and the bucket's `throttleStatus`.
 */
export function queryCost(buckets: CostBuckets, max = MAX_QUERY_COMPLEXITY): ApolloServerPlugin<GraphContext> {
  const maximum = Math.min(max, buckets.maximum);
  return {
    requestDidStart({ contextValue }) {
      const key = contextValue.ctx.principal.keyId;
      let plan: CostPlan | undefined;
      let taken = 0;
      let retryAfterSeconds: number | undefined;
      const admitOperation = ({
        request,
        document,
        operation,
        schema,
      }: GraphQLRequestContextDidResolveOperation<GraphContext>): Promise<void> => {
        if (!operation) return Promise.resolve();
        let known = plans.get(document);
        if (!known) plans.set(document, (known = new Map<string, CostPlan>()));
        const variablesKey = `${request.operationName ?? ''}\u0000${JSON.stringify(request.variables ?? {})}`;
        plan = known.get(variablesKey);
        if (!plan) {
          try {
            plan = planCost(schema, document, operation, request.variables ?? {});
          } catch (err) {
            if (err instanceof TooManySelectionsError)
              throw requestError(new DomainError('query_too_complex', err.message));
            // Pricing coerces the variables first: a missing or mistyped variable is the client's mistake.
            throw requestError(
              new DomainError(
                'invalid_request',
                err instanceof Error ? err.message : 'The variables do not match the operation.',
                { param: 'variables' },
              ),
            );
          }
          if (known.size < 100) known.set(variablesKey, plan);
        }
        const cost = plan.requested;
        if (cost > maximum) {
          throw requestError(
            new DomainError(
              'query_too_complex',
              `This operation costs ${cost}, above the limit of ${maximum}: ask for smaller pages or fewer nested connections.`,
              {
                details: { complexity: cost, maximum },
              },
            ),
          );
        }
        const admit = (admission: Admission): void => {
          if (!admission.admitted) {
            retryAfterSeconds = admission.retryAfterSeconds;
            const { currentlyAvailable, restoreRate } = buckets.status(key);
            const error = requestError(
              new DomainError(
                'throttled',
                `Throttled: this operation costs ${cost} points and this API key has ${currentlyAvailable} of ${buckets.maximum} (restored at ${restoreRate} a second). Retry after ${retryAfterSeconds} s.`,
                { details: { requestedQueryCost: cost, currentlyAvailable, restoreRate } },
              ),
            );
            error.extensions.retryAfterSeconds = retryAfterSeconds;
            throw error;
          }
          taken = cost;
        };
        const admission = buckets.take(key, cost);
        if (admission instanceof Promise) return admission.then(admit);
        admit(admission);
        return Promise.resolve();
      };
      return Promise.resolve({
        // A refusal rejects the hook's promise (Apollo answers it as the request's error). Synchronous
        // but for a lease: nearly every operation is admitted on the points this process holds.
        didResolveOperation(requestContext) {
          try {
            return admitOperation(requestContext);
          } catch (err) {
            return Promise.reject(err instanceof Error ? err : new Error(String(err)));
          }
        },
        willSendResponse({ response }) {
          if (response.body.kind !== 'single') return Promise.resolve();
          const result = response.body.singleResult;
          const actual = plan && result.data !== undefined ? actualCost(plan, result.data) : null;
          if (taken) buckets.refund(key, taken - (actual ?? 0));
          result.extensions = {
            ...result.extensions,
            cost: {
              requestedQueryCost: plan?.requested ?? null,
              actualQueryCost: actual,
              throttleStatus: buckets.status(key),
            },
          };
          if (retryAfterSeconds !== undefined) response.http.headers.set('retry-after', String(retryAfterSeconds));
          return Promise.resolve();
        },
      });
    },
  };
}
