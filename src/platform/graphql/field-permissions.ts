import {
  defaultFieldResolver,
  isInterfaceType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { getMetadataStorage, type ClassType } from 'type-graphql';
import type { Principal } from '../context.js';
import { holds, permission, requirePermission } from '../permissions.js';
import type { GraphContext } from './context.js';

type Roles = readonly string[] | undefined;

/** The permissions `@Authorized(roles)` asks of a field: `orders` is `orders:read` (`orders:write` on a mutation), `products:read` as written. */
function requiredPermissions(roles: readonly string[], mutation: boolean): string[] {
  return roles.map((role) => (role.includes(':') ? role : permission(role, mutation ? 'write' : 'read')));
}

const guarded = new WeakMap<GraphQLField<unknown, GraphContext>, readonly string[]>();

/** Whether `principal` may resolve `field` (holds the permissions its `@Authorized` asks). */
export function permitted(field: GraphQLField<unknown, GraphContext>, principal: Principal): boolean {
  return guarded.get(field)?.every((p) => holds(principal, p)) ?? true;
}

/**
 * The field refuses (403 `insufficient_permissions` naming the permission, thrown where the field
 * resolves: its path, null-or-error as any resolver's error) unless the caller holds every one of
 * `required`; then it resolves as it did. A subscription checks when it starts and at each event.
 */
function guard(field: GraphQLField<unknown, GraphContext>, required: readonly string[]): void {
  guarded.set(field, required);
  const resolve = field.resolve ?? defaultFieldResolver;
  field.resolve = (source, args, context, info) => {
    for (const p of required) requirePermission(context.ctx.principal, p);
    return resolve(source, args, context, info);
  };
  const subscribe = field.subscribe;
  if (subscribe) {
    field.subscribe = (source, args, context, info) => {
      for (const p of required) requirePermission(context.ctx.principal, p);
      return subscribe(source, args, context, info);
    };
  }
}

/**
 * The `@Authorized` roles of each field of the type class `target`, as type-graphql builds its
 * fields: its superclass's, then its interfaces', then its own (the later win).
 */
function rolesOfFields(target: object, into = new Map<string, Roles>()): Map<string, Roles> {
  const storage = getMetadataStorage();
  const meta =
    storage.objectTypes.find((t) => t.target === target) ?? storage.interfaceTypes.find((t) => t.target === target);
  const parent = Object.getPrototypeOf(target) as { prototype?: unknown };
  if (parent.prototype !== undefined) rolesOfFields(parent, into);
  if (!meta) return into;
  for (const iface of meta.interfaceClasses ?? []) rolesOfFields(iface, into);
  for (const f of meta.fields ?? []) into.set(f.schemaName, f.roles);
  return into;
}

/**
 * Applies `@Authorized` (the resource of a resolver class, or a field's own permission) to the
 * schema built without type-graphql's auth checker: its check is an async middleware chain
 * around every guarded field, several promises per field per row, most of a large page's work.
 * Ours is one synchronous check before the field's own resolver, for every guarded field of every
 * type and root alike; the metadata's roles are the ones type-graphql would have checked.
 */
export function guardFields(schema: GraphQLSchema, resolvers: readonly ClassType[]): GraphQLSchema {
  const storage = getMetadataStorage();
  const roots: [GraphQLObjectType | null | undefined, { target: object; schemaName: string; roles?: string[] }[]][] = [
    [schema.getQueryType(), storage.queries],
    [schema.getMutationType(), storage.mutations],
    [schema.getSubscriptionType(), storage.subscriptions],
  ];
  for (const [type, handlers] of roots) {
    const fields = type?.getFields() as Record<string, GraphQLField<unknown, GraphContext>> | undefined;
    if (!fields) continue;
    const mutation = type === schema.getMutationType();
    for (const h of handlers) {
      if (h.roles && resolvers.includes(h.target as ClassType) && fields[h.schemaName])
        guard(fields[h.schemaName], requiredPermissions(h.roles, mutation));
    }
  }
  const classes = [...storage.objectTypes, ...storage.interfaceTypes];
  for (const type of Object.values(schema.getTypeMap())) {
    if (
      !(isObjectType(type) || isInterfaceType(type)) ||
      type === schema.getQueryType() ||
      type === schema.getMutationType() ||
      type === schema.getSubscriptionType()
    )
      continue;
    const meta = classes.find((c) => c.name === type.name);
    if (!meta) continue;
    const fields = type.getFields() as Record<string, GraphQLField<unknown, GraphContext>>;
    for (const [name, roles] of rolesOfFields(meta.target)) {
      if (roles && fields[name]) guard(fields[name], requiredPermissions(roles, false));
    }
  }
  return schema;
}
