import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import {
  buildSchema,
  getMetadataStorage,
  type AuthChecker,
  type ClassType,
  type NonEmptyArray,
  type PubSub,
} from 'type-graphql';
import { EventPubSub } from '../pubsub/event-pubsub.js';
import { guardFields } from './field-permissions.js';
import { callFieldResolversDirectly } from './field-resolvers.js';
import { withLookAhead } from './look-ahead.js';
import { withUserErrors } from './user-errors.js';

/**
 * Plain `@Field`s (a property of the object, no `@FieldResolver`) are read by graphql-js's own
 * default resolver: type-graphql otherwise wraps each in a resolver that exists to run field
 * middlewares (an object and a call per field per row: most of a page's execution). Our plain
 * fields have none; one that is given a middleware keeps type-graphql's wrapper. (`@Authorized`
 * is applied by `guardFields`, around whatever resolves the field.)
 */
function plainFieldsAsSimple(): void {
  const storage = getMetadataStorage();
  for (const field of storage.fields) {
    if (
      field.simple === undefined &&
      !storage.middlewares.some((m) => m.target === field.target && m.fieldName === field.name)
    )
      field.simple = true;
  }
}

/**
 * Builds the executable schema from the resolver classes (input is validated by the services);
 * `pubSub` feeds the subscriptions. `@Authorized('orders')` on a resolver class guards its fields
 * by that resource's permissions: a mutation needs `orders:write`, a query, subscription or field
 * `orders:read`; a field may name its own (`@Authorized('products:read')` on a mutation that only
 * reads). Refusals are 403 `insufficient_permissions` naming the permission, as on REST
 * (`guardFields`). A page reads ahead what its rows' fields will load (`lookAhead`). Every mutation
 * answers input mistakes as `userErrors`.
 */
export async function buildGraphSchema(
  resolvers: NonEmptyArray<ClassType>,
  pubSub: PubSub = new EventPubSub(),
): Promise<GraphQLSchema> {
  plainFieldsAsSimple();
  // type-graphql would run a checker as an async middleware around every guarded field; it refuses
  // `@Authorized` without one (undefined), and runs none when it is null.
  const authChecker = null as unknown as AuthChecker;
  const schema = callFieldResolversDirectly(
    await buildSchema({ resolvers, validate: false, pubSub, authChecker }),
    resolvers,
  );
  return withUserErrors(withLookAhead(guardFields(schema, resolvers)));
}

/** The SDL committed as schema.graphql: sorted, so the file only changes when the schema does. */
export function printGraphSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
