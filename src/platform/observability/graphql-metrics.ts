import type { ApolloServerPlugin } from '@apollo/server';
import { getOperationAST } from 'graphql';
import { graphqlOperationDuration, graphqlOperations } from './metrics.js';

/** Distinct operation names given a label of their own; later ones are counted as `other` (clients choose names: the label stays bounded). */
const MAX_NAMES = 200;
const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;
const names = new Set<string>();

function nameLabel(name: string | null | undefined): string {
  if (!name) return 'anonymous';
  if (names.has(name)) return name;
  if (names.size >= MAX_NAMES || !NAME.test(name)) return 'other';
  names.add(name);
  return name;
}

/**
 * Counts every GraphQL operation over HTTP (`commerce_graphql_operations_total`) by operation
 * name, type (query, mutation; `unknown` when it did not parse) and outcome (`success`,
 * `partial`: data and errors, `error`: no data), and times it by type.
 */
export function graphqlMetrics(): ApolloServerPlugin {
  return {
    requestDidStart() {
      const start = performance.now();
      return Promise.resolve({
        willSendResponse({ operation, operationName, document, request, response }) {
          // An operation that failed validation was never resolved: its name and type are read from the parsed document.
          const op = operation ?? (document ? getOperationAST(document, request.operationName) : null);
          const type = op?.operation ?? 'unknown';
          let outcome = 'success';
          if (response.body.kind === 'single') {
            const { errors, data } = response.body.singleResult;
            if (errors?.length) outcome = data == null ? 'error' : 'partial';
          }
          graphqlOperations.inc({ operation: nameLabel(operationName ?? op?.name?.value), type, outcome });
          graphqlOperationDuration.observe({ type }, (performance.now() - start) / 1000);
          return Promise.resolve();
        },
      });
    },
  };
}
