import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import type { Log } from '../context.js';
import { DomainError, ERROR_STATUS, toDomainError, type ErrorDetails } from '../errors.js';
import { camelCase } from './input.js';

/** Errors GraphQL itself raises about the document (parse, validation, variable coercion) stay as they are. */
const DOCUMENT_ERRORS = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'OPERATION_RESOLUTION_FAILURE', 'PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED', 'BAD_REQUEST']);

function camelDetails(details: ErrorDetails | undefined): ErrorDetails | undefined {
  if (!Array.isArray(details)) return details;
  return details.map((d) => ({ ...d, field: d.field.split('.').map(camelCase).join('.') }));
}

/**
 * Apollo `formatError`: a DomainError keeps its spec code in `extensions.code` (the same code
 * REST puts in `error.code`) with `param` and `details` in the graph's field names; anything
 * unexpected is logged and masked.
 */
export function graphqlErrorFormatter(log: Log) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const code = formatted.extensions?.code;
    // GraphQL's own document errors, and ours raised outside resolvers (plugins) already in our vocabulary.
    if (!(original instanceof DomainError) && typeof code === 'string' && (DOCUMENT_ERRORS.has(code) || code in ERROR_STATUS)) return formatted;
    const { error: domain, unexpected } = toDomainError(original);
    if (unexpected) log.error({ err: original, path: formatted.path }, 'unhandled GraphQL error');
    const extensions: Record<string, unknown> = { code: domain.code };
    if (domain.param !== undefined) extensions.param = camelCase(domain.param);
    const details = camelDetails(domain.details);
    if (details !== undefined) extensions.details = details;
    return { message: domain.message, locations: formatted.locations, path: formatted.path, extensions };
  };
}
