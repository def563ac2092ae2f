import {
  getNamedType,
  isAbstractType,
  isObjectType,
  Kind,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionNode,
} from 'graphql';
import { getMetadataStorage, type ClassType } from 'type-graphql';
import type { Principal, ServiceContext } from '../context.js';
import type { GraphContext } from './context.js';
import { permitted } from './field-permissions.js';
import type { RequestLoader } from './loaders.js';

/** Reads what field resolvers will ask their loaders for, for many parents at once. */
type ReadAhead = (ctx: ServiceContext, parents: object[]) => Promise<unknown>;
type Field = GraphQLField<unknown, GraphContext>;

const registered: { type: ClassType; field: string; read: ReadAhead }[] = [];

/**
 * Declares that the `fields` of the object type `type` answer from the request's `loaderOf`
 * at `keyOf(parent)` (null: nothing to read), and returns how they read it: the value at once
 * when it was read, else a promise (`RequestLoader.now`). A field that answers a page or list of
 * such objects (`orders`, a customer's orders) then reads, before it answers, every such field its
 * selection asks for, for all its rows at once (the statements the loaders would have sent
 * anyway, side by side); the rows then resolve without a promise each.
 */
export function lookAhead<T extends object, K, V, Key extends K | null>(
  type: ClassType<T>,
  fields: readonly string[],
  loaderOf: (ctx: ServiceContext) => RequestLoader<K, V>,
  keyOf: (parent: T) => Key,
): (ctx: ServiceContext, parent: T) => V | Promise<V> | (null extends Key ? null : never) {
  const read: ReadAhead = (ctx, parents) =>
    loaderOf(ctx).loadMany((parents as T[]).map(keyOf).filter((k): k is NonNullable<Key> => k !== null));
  for (const field of fields) registered.push({ type, field, read });
  return (ctx, parent) => {
    const key = keyOf(parent);
    return (key === null ? null : loaderOf(ctx).now(key)) as V | Promise<V> | (null extends Key ? null : never);
  };
}

/** The objects of a field's value: itself, or the items of a list (of lists), nulls left out. */
function objectsOf(value: unknown, into: object[] = []): object[] {
  if (Array.isArray(value)) for (const v of value) objectsOf(v, into);
  else if (value != null && typeof value === 'object') into.push(value);
  return into;
}

interface Walk {
  reads: Map<Field, ReadAhead>;
  leading: Set<GraphQLObjectType>;
  info: GraphQLResolveInfo;
  principal: Principal;
  found: Map<ReadAhead, object[]>;
}

/** Finds, under `selections` of `parents` (objects of `type`), the fields read ahead, through plain fields only (a resolver's answer is not known yet). */
function collect(w: Walk, type: GraphQLObjectType, parents: object[], selections: readonly SelectionNode[]): void {
  if (parents.length === 0) return;
  for (const sel of selections) {
    if (sel.kind === Kind.FIELD) {
      const field = type.getFields()[sel.name.value] as Field | undefined;
      const read = field && w.reads.get(field);
      if (read) {
        if (permitted(field, w.principal)) w.found.set(read, [...(w.found.get(read) ?? []), ...parents]);
        continue;
      }
      const named = field && !field.resolve && sel.selectionSet ? getNamedType(field.type) : undefined;
      if (!isObjectType(named) || !w.leading.has(named)) continue;
      const name = sel.name.value;
      collect(
        w,
        named,
        parents.flatMap((p) => objectsOf((p as Record<string, unknown>)[name])),
        sel.selectionSet!.selections,
      );
    } else {
      const fragment = sel.kind === Kind.INLINE_FRAGMENT ? sel : w.info.fragments[sel.name.value];
      const on = fragment?.typeCondition && w.info.schema.getType(fragment.typeCondition.name.value);
      if (fragment && (!on || on === type || (isAbstractType(on) && w.info.schema.isSubType(on, type))))
        collect(w, type, parents, fragment.selectionSet.selections);
    }
  }
}

/**
 * Makes every field whose type leads, through plain fields, to a field read ahead (`lookAhead`)
 * read those for all of its answer's objects before it answers. Fails the build when a
 * registered field is not in the schema.
 */
export function withLookAhead(schema: GraphQLSchema): GraphQLSchema {
  const storage = getMetadataStorage();
  const reads = new Map<Field, ReadAhead>();
  for (const r of registered) {
    const type = schema.getType(storage.objectTypes.find((t) => t.target === r.type)?.name ?? '');
    const field = isObjectType(type) ? (type.getFields()[r.field] as Field | undefined) : undefined;
    if (!field) throw new Error(`lookAhead(${r.type.name}, '${r.field}'): no such field in the schema`);
    reads.set(field, r.read);
  }
  const objectTypes = Object.values(schema.getTypeMap()).filter(isObjectType);
  // The types with a field read ahead, and those that lead to one through plain fields (to a fixed point).
  const leading = new Set(objectTypes.filter((t) => Object.values(t.getFields()).some((f) => reads.has(f as Field))));
  for (let grew = true; grew;) {
    grew = false;
    for (const t of objectTypes) {
      if (leading.has(t)) continue;
      const leads = Object.values(t.getFields()).some((f) => {
        const named = getNamedType(f.type);
        return !f.resolve && isObjectType(named) && leading.has(named);
      });
      if (leads) grew = leading.add(t) !== undefined;
    }
  }
  for (const t of objectTypes) {
    for (const field of Object.values(t.getFields()) as Field[]) {
      const named = getNamedType(field.type);
      const resolve = field.resolve;
      if (!resolve || !isObjectType(named) || !leading.has(named)) continue;
      field.resolve = (source, args, context, info) => {
        const answer = (value: unknown) => {
          const w: Walk = { reads, leading, info, principal: context.ctx.principal, found: new Map() };
          const parents = objectsOf(value);
          for (const node of info.fieldNodes)
            if (node.selectionSet) collect(w, named, parents, node.selectionSet.selections);
          if (w.found.size === 0) return value;
          // A read that fails fails nothing here: the field that asks for it gets the loader's error, at its path.
          return Promise.all(
            [...w.found].map(([read, objects]) => read(context.ctx, objects).catch(() => undefined)),
          ).then(() => value);
        };
        const value = resolve(source, args, context, info);
        return value instanceof Promise ? value.then(answer) : answer(value);
      };
    }
  }
  return schema;
}
