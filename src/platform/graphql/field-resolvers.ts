import { getNamedType, isLeafType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage, type ClassType } from 'type-graphql';

type ParamMetadata = NonNullable<ReturnType<typeof getMetadataStorage>['fieldResolvers'][number]['params']>[number];
type Param = (root: unknown, args: Record<string, unknown>, context: Record<string, unknown>, info: unknown) => unknown;

/** How type-graphql fills a parameter, for the kinds that need no conversion (null: another kind, left to type-graphql). */
function paramOf(p: ParamMetadata): Param | null {
  switch (p.kind) {
    case 'root': {
      const name = p.propertyName;
      return name ? (root) => (root as Record<string, unknown>)[name] : (root) => root;
    }
    case 'context': {
      const name = p.propertyName;
      return name ? (_r, _a, context) => context[name] : (_r, _a, context) => context;
    }
    case 'info':
      return (_r, _a, _c, info) => info;
    case 'arg': {
      const name = p.name;
      return (_r, args) => args[name];
    }
    case 'args': {
      const type = p.getType() as ClassType;
      return (_r, args) => Object.assign(Object.create(type.prototype) as object, args);
    }
    default:
      return null;
  }
}

/**
 * Calls the field resolvers of resolver classes (`@FieldResolver` in a `@Resolver(() => T)`) and
 * their queries straight, when nothing needs type-graphql between the field and the method: no
 * middleware, and arguments that are scalars or enums (validation is off: the services validate).
 * type-graphql otherwise runs its (async) argument validation even when off, a promise for every
 * row of a page that selects a field with arguments (an order's `refunds(first:)`) and for every
 * query, and sorts the parameters on every call. `@Authorized` is applied after (`guardFields`).
 * Others (mutations among them) keep type-graphql's resolver.
 */
export function callFieldResolversDirectly(schema: GraphQLSchema, resolvers: readonly ClassType[]): GraphQLSchema {
  const storage = getMetadataStorage();
  const instances = new Map<ClassType, Record<string, (...args: unknown[]) => unknown>>();
  const queryType = schema.getQueryType();
  const handlers = [
    ...storage.fieldResolvers
      .filter((fr) => fr.kind === 'external')
      .map((fr) => ({
        fr,
        type: schema.getType(storage.objectTypes.find((t) => t.target === fr.getObjectType?.())?.name ?? ''),
      })),
    ...storage.queries.map((fr) => ({ fr, type: queryType })),
  ];
  for (const { fr, type } of handlers) {
    const target = fr.target as ClassType;
    if (!resolvers.includes(target) || fr.middlewares?.length) continue;
    const field = isObjectType(type) ? type.getFields()[fr.schemaName] : undefined;
    if (!field || !field.args.every((a) => isLeafType(getNamedType(a.type)))) continue;
    const params = [...(fr.params ?? [])].sort((a, b) => a.index - b.index).map(paramOf);
    if (params.some((p) => p === null)) continue;
    const fill = params as Param[];
    let instance = instances.get(target);
    if (!instance) instances.set(target, (instance = new target() as Record<string, (...args: unknown[]) => unknown>));
    const self = instance;
    const method = self[fr.methodName];
    const resolve: GraphQLFieldResolver<unknown, Record<string, unknown>, Record<string, unknown>> = (
      root,
      args,
      context,
      info,
    ) =>
      method.apply(
        self,
        fill.map((p) => p(root, args, context, info)),
      );
    field.resolve = resolve as typeof field.resolve;
  }
  return schema;
}
