import {
  defaultFieldResolver,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';
import { Field, ObjectType } from 'type-graphql';
import type { ServiceContext } from '../context.js';
import { DomainError, ERROR_STATUS, type ErrorCode } from '../errors.js';
import type { GraphContext } from './context.js';
import { graphqlEnum } from './enums.js';
import { camelCase } from './input.js';

/**
 * The one list of the codes a mutation answers as `userErrors` (in `data`, HTTP 200) instead of a
 * top-level error: the caller's own mistakes, which a client shows its user and fixes by changing
 * the input (REST answers them 400, 402, 404 or 422). Every other code stays a top-level error:
 * authentication (`unauthorized`), permission (`insufficient_permissions`, `invalid_csrf_token`,
 * `test_mode_only`), rate and cost limits, concurrency to retry (`payment_in_progress`,
 * `idempotency_key_in_use`), and system failures (`internal_error`, `service_unavailable`). Request-level codes (`query_too_complex`,
 * `persisted_query_not_found`, `idempotency_key_reused`…) are raised before a mutation runs.
 */
export const USER_ERROR_CODES = [
  'bad_request',
  'invalid_request',
  'validation_error',
  'invalid_price',
  'invalid_currency',
  'invalid_amount',
  'invalid_payment_method',
  'card_declined',
  'already_refunded',
  'invalid_state',
  'not_found',
  'customer_not_found',
] as const satisfies readonly ErrorCode[];

export type UserErrorCode = (typeof USER_ERROR_CODES)[number];

/** One input mistake, as a mutation payload lists it. */
export interface UserError<C extends UserErrorCode = UserErrorCode> {
  field: string[] | null;
  message: string;
  code: C;
}

/**
 * The base class of one domain's mutation payloads: `userErrors: [<Domain>UserError!]!`, whose
 * `code` is the enum `<Domain>UserErrorCode` of `codes` (the REST `error.code` in upper case:
 * `validation_error` is `VALIDATION_ERROR`), so clients switch on them with types. Resolvers
 * return only the payload's own fields; `withUserErrors` fills `userErrors`.
 */
export function mutationPayload<const C extends UserErrorCode>(domain: string, codes: readonly C[]) {
  const codeEnum = graphqlEnum(
    `${domain}UserErrorCode`,
    codes,
    `What went wrong with a ${domain} mutation's input: the REST error code in upper case`,
    Object.fromEntries(
      codes.map((code) => [code.toUpperCase(), { description: `REST: ${ERROR_STATUS[code]} ${code}` }]),
    ),
  );

  @ObjectType(`${domain}UserError`, { description: 'An input mistake: the mutation changed nothing' })
  class DomainUserError implements UserError<C> {
    @Field(() => [String], {
      nullable: true,
      description:
        'Path of the input field at fault in GraphQL names, e.g. ["input", "lineItems", "0", "price"]; null when no one field is',
    })
    field!: string[] | null;

    @Field({ description: 'What is wrong, for people' })
    message!: string;

    @Field(() => codeEnum, { description: 'What is wrong, for programs' })
    code!: C;
  }

  // Registered for its fields to be inherited; never emitted itself (no field answers it).
  @ObjectType(`${domain}MutationPayload`)
  abstract class Payload {
    @Field(() => [DomainUserError], {
      description: "The input's mistakes: empty when the mutation succeeded; when not, every other field is null",
    })
    userErrors?: UserError<C>[];
  }
  return Payload;
}

/** Every path to an `ID` among the mutation's arguments and their input fields: `[["orderId"]]`, `[["input", "customerId"]]`. */
function idPaths(args: readonly GraphQLArgument[]): string[][] {
  return args.flatMap((arg) => {
    const type = getNamedType(arg.type);
    if (type.name === 'ID') return [[arg.name]];
    return isInputObjectType(type)
      ? Object.values(type.getFields()).flatMap((f) => (getNamedType(f.type).name === 'ID' ? [[arg.name, f.name]] : []))
      : [];
  });
}

/**
 * The field path of a service's field name (`line_items.0.price`) in the mutation's arguments:
 * `["input", "lineItems", "0", "price"]`. A name the arguments do not have (a REST path `id` the
 * resolver took as `orderId` or `input.customerId`, the REST `body` of a CSV) points at the one
 * place it can be: for `id`, the only `ID` among the arguments and input fields; else the only
 * argument; else null.
 */
function fieldPath(name: string | undefined, args: readonly GraphQLArgument[]): string[] | null {
  const segments = (name ?? '').split('.').filter(Boolean).map(camelCase);
  if (segments.length === 0) return null;
  if (args.some((arg) => arg.name === segments[0])) return segments;
  const holder = args.find((arg) => {
    const type = getNamedType(arg.type);
    return isInputObjectType(type) && segments[0] in type.getFields();
  });
  if (holder) return [holder.name, ...segments];
  const ids = segments.length === 1 && segments[0] === 'id' ? idPaths(args) : [];
  if (ids.length === 1) return ids[0];
  return args.length === 1 ? [args[0].name] : null;
}

/** A service error as user errors: one per bad field of its `details`, else one naming its `param`. */
function toUserErrors(error: DomainError & { code: UserErrorCode }, args: readonly GraphQLArgument[]): UserError[] {
  const fields = Array.isArray(error.details)
    ? error.details.filter((d) => typeof d.field === 'string' && typeof d.message === 'string')
    : [];
  if (fields.length === 0) return [{ field: fieldPath(error.param, args), message: error.message, code: error.code }];
  return fields.map((d) => {
    const name = d.field.split('.').map(camelCase).join('.');
    return { field: fieldPath(d.field, args), message: name ? `${name} ${d.message}` : d.message, code: error.code };
  });
}

/** The codes of the `userErrors` a mutation's payload declares; throws when it declares none (every mutation must). */
function userErrorCodesOf(mutation: GraphQLField<unknown, unknown>): Set<string> {
  const payload = isNonNullType(mutation.type) ? mutation.type.ofType : mutation.type;
  const list = isObjectType(payload) ? payload.getFields().userErrors?.type : undefined;
  const item = list && isNonNullType(list) && isListType(list.ofType) ? getNamedType(list.ofType) : undefined;
  const code = isObjectType(item) ? getNamedType(item.getFields().code?.type) : undefined;
  if (!isEnumType(code))
    throw new Error(
      `Mutation.${mutation.name} must answer a payload with userErrors (extend a mutationPayload(...) class)`,
    );
  return new Set(code.getValues().map((v) => String(v.value)));
}

/**
 * Units of work (service contexts: Apollo copies its context object per operation, not the
 * `ctx` in it) in which a mutation answered userErrors: such a response is a failure, never kept
 * under an Idempotency-Key.
 */
const answeredUserErrors = new WeakSet<ServiceContext>();

/** True when a mutation run with `ctx` answered userErrors (whether or not the client selected them). */
export function hadUserErrors(ctx: ServiceContext): boolean {
  return answeredUserErrors.has(ctx);
}

/**
 * Runs every mutation so that the caller's input mistake (a DomainError with one of
 * `USER_ERROR_CODES` that the payload's enum lists) is answered as the payload's `userErrors`,
 * its other fields null; anything else is thrown on, a top-level error as before. On success the
 * payload's `userErrors` is empty. Fails the schema build when a mutation has no such payload.
 */
export function withUserErrors(schema: GraphQLSchema): GraphQLSchema {
  for (const mutation of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const codes = userErrorCodesOf(mutation);
    const resolve = mutation.resolve ?? defaultFieldResolver;
    mutation.resolve = async (source, args, context: GraphContext, info) => {
      try {
        const payload = (await resolve(source, args, context, info)) as { userErrors?: UserError[] };
        return { ...payload, userErrors: payload.userErrors ?? [] };
      } catch (err) {
        if (!(err instanceof DomainError) || !(USER_ERROR_CODES as readonly string[]).includes(err.code)) throw err;
        if (!codes.has(err.code)) {
          context.ctx.log.warn(
            { code: err.code, mutation: mutation.name },
            'a user error code missing from the payload enum: answered as a top-level error',
          );
          throw err;
        }
        answeredUserErrors.add(context.ctx);
        return { userErrors: toUserErrors(err as DomainError & { code: UserErrorCode }, mutation.args) };
      }
    };
  }
  return schema;
}
