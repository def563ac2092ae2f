import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import {
  GraphQLError,
  Kind,
  OperationTypeNode,
  type ASTVisitor,
  type GraphQLFormattedError,
  type ValidationContext,
} from 'graphql';
import type { Log } from '../context.js';
import { DomainError, ERROR_STATUS, toDomainError, type ErrorCode, type ErrorDetails } from '../errors.js';
import { hasLoneSurrogate } from '../text.js';
import { camelCase } from './input.js';

/**
 * The one GraphQL error vocabulary is the spec's (the `ERROR_STATUS` table): Apollo's and
 * graphql-js's own upper-case codes are translated here, and nowhere else.
 */
const APOLLO_CODES: Record<string, ErrorCode> = {
  GRAPHQL_PARSE_FAILED: 'invalid_request',
  GRAPHQL_VALIDATION_FAILED: 'invalid_request',
  BAD_USER_INPUT: 'invalid_request',
  OPERATION_RESOLUTION_FAILURE: 'invalid_request',
  PERSISTED_QUERY_NOT_FOUND: 'persisted_query_not_found',
  PERSISTED_QUERY_NOT_SUPPORTED: 'bad_request',
  BAD_REQUEST: 'bad_request',
};

/** Most tokens a document may have: bounds parsing and validation work (20,000 aliases are refused). */
export const MAX_DOCUMENT_TOKENS = 10_000;

function camelDetails(details: ErrorDetails | undefined): ErrorDetails | undefined {
  if (!Array.isArray(details)) return details;
  return details.map((d) => ({ ...d, field: d.field.split('.').map(camelCase).join('.') }));
}

/**
 * A GraphQL request error's message without the input values it quotes: graphql-js echoes a
 * variable or literal that failed coercion (`got invalid value 4111110000000047 at
 * "input.card.number"; String cannot represent a non string value: 4111110000000047`), and those
 * may be card numbers, cvcs or secrets that clients then write to their own logs. The path and
 * the reason stay; the value goes, and any card-like digit run left is masked.
 */
export function withoutInputValues(message: string): string {
  return message
    .replace(/got invalid value [\s\S]*? at "/, 'got an invalid value at "')
    .replace(/got invalid value [\s\S]*?; /, 'got an invalid value; ')
    .replace(/(cannot represent[^:;"]*?(?:value|values)): [\s\S]*?(?=;|$)/g, '$1')
    .replace(/(Expected value of type "[^"]+"), found [\s\S]*?(?=; |\.$|$)/g, '$1')
    .replace(/(Enum "[^"]+" cannot represent [^:]*?): [\s\S]*?(?=;|\.$|$)/g, '$1')
    .replace(/\d(?:[ -]?\d){11,18}/g, '[redacted]');
}

/** The HTTP status Apollo attached to one of its own errors (e.g. 405 for a mutation over GET). */
function httpStatusOf(error: unknown): number | undefined {
  const http = error instanceof GraphQLError ? (error.extensions?.http as { status?: number } | undefined) : undefined;
  return http?.status;
}

/** The spec code of an error GraphQL or Apollo raised itself (document, variables, HTTP request). */
function requestErrorCode(formatted: GraphQLFormattedError, original: unknown): ErrorCode | undefined {
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && code in ERROR_STATUS) return code as ErrorCode; // ours, raised by a plugin
  const status = httpStatusOf(original);
  if (status === 405) return 'method_not_allowed';
  if (typeof code === 'string' && code in APOLLO_CODES) return APOLLO_CODES[code];
  if (status !== undefined && status >= 400 && status < 500) return 'bad_request';
  return undefined;
}

/**
 * Apollo `formatError`: every error carries a spec code in `extensions.code` (the same code REST
 * puts in `error.code`), with `param` and `details` in the graph's field names; anything
 * unexpected is logged and masked as `internal_error`.
 */
export function graphqlErrorFormatter(log: Log) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (!(original instanceof DomainError)) {
      const code = requestErrorCode(formatted, original);
      if (code) {
        const { param, details, retryAfterSeconds } = (formatted.extensions ?? {}) as {
          param?: string;
          details?: ErrorDetails;
          retryAfterSeconds?: number;
        };
        const extensions = {
          code,
          ...(param !== undefined && { param }),
          ...(details !== undefined && { details }),
          ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
        };
        return { ...formatted, message: withoutInputValues(formatted.message), extensions };
      }
    }
    const { error: domain, unexpected } = toDomainError(original);
    if (unexpected) log.error({ err: original, path: formatted.path }, 'unhandled GraphQL error');
    const extensions: Record<string, unknown> = { code: domain.code };
    if (domain.param !== undefined) extensions.param = camelCase(domain.param);
    const details = camelDetails(domain.details);
    if (details !== undefined) extensions.details = details;
    return { message: domain.message, locations: formatted.locations, path: formatted.path, extensions };
  };
}

/** A GraphQLError raised before execution, in the spec vocabulary with its table status. */
export function requestError(error: DomainError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: {
      code: error.code,
      ...(error.param !== undefined && { param: error.param }),
      ...(error.details !== undefined && { details: error.details }),
      http: { status: error.status },
    },
  });
}

/**
 * Request-level rules of GraphQL over HTTP: subscriptions are refused (they are served over
 * graphql-ws), and a request that never executed (no `data` entry at all) answers the HTTP
 * status of its first error, so that no client mistake is a 200 or a 5xx. A request that executed
 * answers 200 even when `data` is `null` (GraphQL over HTTP): the errors then reach clients as
 * GraphQL errors with their `extensions.code`, not as an opaque network error.
 */
export function httpRequestRules(): ApolloServerPlugin {
  // The hooks hold no state of a request: one object serves them all.
  const hooks: GraphQLRequestListener<BaseContext> = {
    didResolveOperation({ operation }) {
      if (operation?.operation === OperationTypeNode.SUBSCRIPTION) {
        return Promise.reject(
          requestError(
            new DomainError(
              'invalid_request',
              'Subscriptions are served over graphql-ws on the same /graphql path, not over HTTP.',
              { param: 'query' },
            ),
          ),
        );
      }
      return Promise.resolve();
    },
    willSendResponse({ response }) {
      const { body } = response;
      // Never executed (no `data` entry, an error): its first error's status. Executed: 200, whatever its data.
      if (body.kind === 'single' && body.singleResult.data === undefined && body.singleResult.errors?.length) {
        const code = body.singleResult.errors[0].extensions?.code;
        const status = typeof code === 'string' && code in ERROR_STATUS ? ERROR_STATUS[code as ErrorCode] : undefined;
        if (status !== undefined && (response.http.status === undefined || response.http.status === 200))
          response.http.status = status;
      }
      return Promise.resolve();
    },
  };
  return { requestDidStart: () => Promise.resolve(hooks) };
}

/** Validation rule: string literals may not hold U+0000 or a lone surrogate (PostgreSQL text can store neither). */
export function noNulInStrings(context: ValidationContext): ASTVisitor {
  return {
    [Kind.STRING](node) {
      if (node.value.includes('\u0000'))
        context.reportError(new GraphQLError('Strings may not contain the NUL character (U+0000).', { nodes: node }));
      else if (hasLoneSurrogate(node.value))
        context.reportError(
          new GraphQLError(
            'A string holds a lone UTF-16 surrogate (an escape such as \\ud800 without its pair): not valid Unicode text.',
            { nodes: node },
          ),
        );
    },
  };
}
