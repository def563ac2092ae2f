import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, getMetadataStorage, type AuthChecker, type ClassType, type NonEmptyArray, type PubSub } from 'type-graphql';
import { permission, requirePermission } from '../permissions.js';
import { EventPubSub } from '../pubsub/event-pubsub.js';
import type { GraphContext } from './context.js';
import { withUserErrors } from './user-errors.js';

/**
 * `@Authorized('orders')` on a resolver class guards its fields by that resource's permissions:
 * a mutation needs `orders:write`, a query, subscription or field `orders:read`. A field may name
 * its own (`@Authorized('products:read')` on a mutation that only reads). Refusals are 403
 * `insufficient_permissions` naming the permission, as on REST.
 */
const permissionChecker: AuthChecker<GraphContext> = ({ context, info }, roles) => {
  const write = info.parentType === info.schema.getMutationType();
  for (const role of roles) requirePermission(context.ctx.principal, role.includes(':') ? role : permission(role, write ? 'write' : 'read'));
  return true;
};

/**
 * Plain `@Field`s (a property of the object, no `@FieldResolver`) are read by graphql-js's own
 * default resolver: type-graphql otherwise wraps each in a resolver that exists to run field
 * middlewares and `@Authorized` (an object and a call per field per row: most of a page's
 * execution). Our plain fields have neither; one that is given either keeps type-graphql's wrapper.
 */
function plainFieldsAsSimple(): void {
  const storage = getMetadataStorage();
  const guarded = [...storage.authorizedFields, ...storage.middlewares];
  for (const field of storage.fields) {
    if (field.simple === undefined && !guarded.some((m) => m.target === field.target && m.fieldName === field.name)) field.simple = true;
  }
}

/**
 * Builds the executable schema from the resolver classes (input is validated by the services);
 * `pubSub` feeds the subscriptions. Every mutation answers input mistakes as `userErrors`.
 */
export async function buildGraphSchema(resolvers: NonEmptyArray<ClassType>, pubSub: PubSub = new EventPubSub()): Promise<GraphQLSchema> {
  plainFieldsAsSimple();
  return withUserErrors(await buildSchema({ resolvers, validate: false, pubSub, authChecker: permissionChecker }));
}

/** The SDL committed as schema.graphql: sorted, so the file only changes when the schema does. */
export function printGraphSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
