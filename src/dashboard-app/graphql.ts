/**
 * The console's GraphQL documents, typed from schema.graphql: `graphql-env.d.ts` is its
 * introspection (`npm run graphql-env` writes it). `npm run typecheck` fails when it is stale, when
 * a document asks for what the schema lacks (`gql-tada check`), or when a panel reads an answer
 * the way the schema no longer gives it (tsc).
 */
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.js';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTimeISO: string; JSONObject: Record<string, unknown> };
  disableMasking: true;
}>();

export type { ResultOf, VariablesOf, TadaDocumentNode } from 'gql.tada';
