import { z } from 'zod';
import { DomainError, type ErrorCode, type FieldError } from './errors.js';

/** Field name of a zod issue path (`images.3`, `customer.email`). */
function fieldOf(path: PropertyKey[]): string {
  return path.map(String).join('.');
}

/**
 * The issues of the union branch the input meant: the first branch whose own keys it used (no
 * unknown field at the union's level), e.g. a test card object, not `{payment_method_data}`.
 */
function meantBranch(issue: z.core.$ZodIssueInvalidUnion): z.core.$ZodIssue[] {
  const branch =
    issue.errors.find((issues) => !issues.some((i) => i.code === 'unrecognized_keys' && i.path.length === 0)) ??
    issue.errors[0] ??
    [];
  return branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
}

function describe(issue: z.core.$ZodIssue): FieldError[] {
  if (issue.code === 'invalid_union' && issue.errors.length) return meantBranch(issue).flatMap(describe);
  const field = fieldOf(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ field: field ? `${field}.${key}` : key, message: 'is not a recognised field' }));
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return [{ field, message: 'is required' }];
  return [{ field, message: issue.message }];
}

/** Turns every zod issue into the spec's `details` entries, one per bad field. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap(describe);
}

/**
 * Validates `input` against the one definition of that input and returns the typed value,
 * or throws `code` (422 `validation_error` by default) listing every bad field.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  code: ErrorCode = 'validation_error',
  /** Code when a field is missing, of the wrong type or unknown (checkout answers 400 `bad_request` then). */
  structuralCode: ErrorCode = code,
): z.output<S> {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const details = fieldErrors(result.error);
  const structural = result.error.issues
    .flatMap((i) => (i.code === 'invalid_union' && i.errors.length ? meantBranch(i) : [i]))
    .some((i) => i.code === 'invalid_type' || i.code === 'unrecognized_keys');
  if (structural) code = structuralCode;
  const summary = details.map((d) => (d.field ? `${d.field} ${d.message}` : d.message)).join('; ');
  throw new DomainError(code, `Invalid request: ${summary}`, { param: details[0]?.field || undefined, details });
}

/** A JSON object of custom key-value pairs (`metadata`). */
export const metadataSchema = z
  .record(z.string().max(40, 'keys are at most 40 characters'), z.unknown())
  .refine((m) => Object.keys(m).length <= 50, 'at most 50 keys')
  .refine((m) => JSON.stringify(m).length <= 8192, 'at most 8 KB of JSON');

/** Query-string booleans: `true`/`false` (also `1`/`0`). */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  // Documented as what it is, a boolean query parameter (`true`/`false`; `1`/`0` are accepted too).
  .meta({ type: 'boolean', enum: undefined });

/** An ISO 8601 timestamp in a query string or body. */
export const timestamp = z.iso.datetime({ offset: true }).transform((v) => new Date(v));

/** `limit` of a list: default 10, max 100. */
export const pageLimit = z.coerce.number().int().min(1).max(100).default(10);

/** ISO 4217 codes known to this runtime's ICU data. */
const ISO_4217 = new Set(Intl.supportedValuesOf('currency'));

export function isIso4217(code: string): boolean {
  return ISO_4217.has(code.toUpperCase());
}

/**
 * A request body as an object; anything else (an array, a string, a number) is refused with
 * `code`. An absent body is `{}` (Fastify hands `null` for a request without one), so a route
 * whose fields are all optional needs none; one with required fields names them.
 */
export function requireObject(body: unknown, code: ErrorCode = 'invalid_request'): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new DomainError(code, 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** True when `value` contains a control character (ids and cursors never do; PostgreSQL text cannot hold U+0000). */
// eslint-disable-next-line no-control-regex -- matching control characters is this function's purpose
export const hasControlCharacter = (value: string): boolean => /[\u0000-\u001f\u007f]/.test(value);
