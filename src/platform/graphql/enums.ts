import { registerEnumType } from 'type-graphql';

/** The GraphQL enum of a list of values: `pending` is exposed as `PENDING`, `api_key.created` as `API_KEY_CREATED`. */
export type GraphqlEnum<T extends string> = { [K in T as Uppercase<K>]: K };

/**
 * Declares a GraphQL enum from the one list of values the domain already has (an entity's
 * `as const` array), so the values are written once; resolvers keep using the plain strings.
 */
export function graphqlEnum<const T extends string>(
  name: string,
  values: readonly T[],
  description?: string,
  valuesConfig?: Record<string, { description?: string }>,
): GraphqlEnum<T> {
  const enumObject = Object.fromEntries(
    values.map((v) => [v.toUpperCase().replace(/[^A-Z0-9_]/g, '_'), v]),
  ) as GraphqlEnum<T>;
  registerEnumType(enumObject, { name, description, valuesConfig });
  return enumObject;
}

/** The values of an enum object (`ValueOf<typeof OrderStatusEnum>` = 'pending' | …). */
export type ValueOf<E> = E[keyof E];
