import { isDatabaseUnavailable } from './db/database-health.js';

/**
 * The one table of error codes: each spec code with its HTTP status. REST answers
 * `{ error: { code, message, param?, details? } }` with that status; GraphQL puts the same
 * `code`, `param` and `details` in `extensions`. Anything that is not a DomainError is masked.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  bad_request: 400,
  invalid_payment_method: 400,
  invalid_price: 400,
  invalid_currency: 400,
  invalid_amount: 400,
  already_refunded: 400,
  invalid_state: 400,
  idempotency_key_reused: 400,
  query_too_complex: 400,
  persisted_query_not_found: 400,
  unauthorized: 401,
  card_declined: 402,
  test_mode_only: 403,
  insufficient_permissions: 403,
  invalid_csrf_token: 403,
  not_found: 404,
  customer_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  idempotency_key_in_use: 409,
  payment_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  validation_error: 422,
  rate_limit_exceeded: 429,
  throttled: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  field: string;
  message: string;
}

export type ErrorDetails = FieldError[] | Record<string, unknown>;

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly param?: string;
  readonly details?: ErrorDetails;
  /** Extra response headers (e.g. `Retry-After`). */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { param?: string; details?: ErrorDetails; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.param = opts.param;
    this.details = opts.details;
    this.headers = opts.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** The spec's error body. */
  toBody(): { error: { code: string; message: string; param?: string; details?: ErrorDetails } } {
    const error: { code: string; message: string; param?: string; details?: ErrorDetails } = {
      code: this.code,
      message: this.message,
    };
    if (this.param !== undefined) error.param = this.param;
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }

  static notFound(what: string, id: string | number, param = 'id'): DomainError {
    return new DomainError('not_found', `No such ${what}: '${id}'`, { param });
  }

  /** One bad field: `Invalid request: <field> <message>`, with `param` and one `details` entry naming it. */
  static field(field: string, message: string, code: ErrorCode = 'validation_error'): DomainError {
    return new DomainError(code, `Invalid request: ${field} ${message}`, {
      param: field,
      details: [{ field, message }],
    });
  }

  /** 403 `test_mode_only` for a live key on something that exists only in test mode. */
  static testModeOnly(message = 'Test helpers work only with a glm_test_ key.'): DomainError {
    return new DomainError('test_mode_only', message);
  }
}

/** The answer while PostgreSQL cannot be reached (stopped, restarting, failing over): retry in a second. */
export function databaseUnavailable(): DomainError {
  return new DomainError(
    'service_unavailable',
    'The service is briefly unavailable (its database cannot be reached); retry in a moment.',
    { headers: { 'Retry-After': '1' } },
  );
}

/** Wraps anything thrown into a DomainError; unknown errors become a masked `internal_error`. */
export function toDomainError(err: unknown): { error: DomainError; unexpected: boolean } {
  if (err instanceof DomainError) return { error: err, unexpected: false };
  if (isDatabaseUnavailable(err)) return { error: databaseUnavailable(), unexpected: false };
  return {
    error: new DomainError(
      'internal_error',
      'An internal error occurred. It has been logged; retry later or contact support with the request id.',
    ),
    unexpected: true,
  };
}
