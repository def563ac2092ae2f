import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** How one selected field is priced: its estimate, and what the result walk needs. */
interface FieldCost {
  /** Its response key (alias or name). */
  key: string;
  /** The field's estimated cost with everything under it. */
  requested: number;
  /** A connection (a `first`/`last` argument): its selection is priced once per item. */
  connection: boolean;
  /** The fields selected under a composite field, by response key (every fragment merged). */
  selection?: SelectionCost;
  /** The same fields as a list, for the result walk (set once the plan is complete). */
  fields?: FieldCost[];
}

/** A selection set's fields by response key. */
export type SelectionCost = Map<string, FieldCost>;

/** An operation's estimated cost and the plan that prices its result. */
export interface CostPlan {
  requested: number;
  selection: SelectionCost;
  /** The root fields as a list, for the result walk. */
  fields: FieldCost[];
}

/** A document that expands (through fragments) to more selections than this is refused. */
export const MAX_EVALUATED_SELECTIONS = 10_000;

/** Thrown by `planCost` for a document past `MAX_EVALUATED_SELECTIONS`. */
export class TooManySelectionsError extends Error {
  constructor() {
    super(
      `The operation expands to more than ${MAX_EVALUATED_SELECTIONS} selections (fragments spread within fragments).`,
    );
  }
}

/** The page a connection asks for (`first`, else `last`; 10 when one is given as null), or undefined for a plain field. */
function pageSize(args: Record<string, unknown>): number | undefined {
  if (!('first' in args) && !('last' in args)) return undefined;
  const size = Number(args.first ?? args.last ?? 10);
  return Number.isFinite(size) ? size : undefined;
}

function mergeField(into: SelectionCost, key: string, field: FieldCost): void {
  const known = into.get(key);
  if (!known) {
    into.set(key, field);
    return;
  }
  known.requested = Math.max(known.requested, field.requested);
  known.connection ||= field.connection;
  if (field.selection && field.selection !== known.selection) {
    if (!known.selection) known.selection = field.selection;
    else for (const [k, f] of field.selection) mergeField(known.selection, k, f);
  }
}

/**
 * Prices an operation before it runs (the rule of `graphql-query-complexity` with our two
 * estimators): a field costs 1 plus its selection; a connection (a field with `first` or `last`)
 * costs 1 plus its selection times its page size (at least 1); fragments on an abstract type
 * count the most expensive possible type. Skipped fields cost nothing. In the same walk it
 * records, by response key, what `actualCost` needs to price the result. Throws a GraphQLError
 * when the variables or an argument do not coerce (the client's mistake).
 */
export function planCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  inputs: Record<string, unknown>,
): CostPlan {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], inputs);
  if (coerced.errors) throw coerced.errors[0];
  const variables = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let evaluated = 0;
  const active = new Set<string>();

  const skipped = (node: Parameters<typeof getDirectiveValues>[1]): boolean =>
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true ||
    getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if === false;

  const walk = (selectionSet: SelectionSetNode, type: GraphQLCompositeType, plan: SelectionCost): number => {
    const fields: Record<string, GraphQLField<unknown, unknown>> = isObjectType(type) || isInterfaceType(type)
      ? type.getFields()
      : {};
    const possible = isAbstractType(type) ? schema.getPossibleTypes(type).map((t) => t.name) : [type.name];
    const byType = new Map<string, number>();
    const add = (cost: number, types: readonly string[]) => {
      for (const t of types) byType.set(t, (byType.get(t) ?? 0) + cost);
    };
    const addFragment = (fragmentType: GraphQLCompositeType, cost: number) =>
      add(
        cost,
        isAbstractType(fragmentType) ? schema.getPossibleTypes(fragmentType).map((t) => t.name) : [fragmentType.name],
      );
    for (const node of selectionSet.selections) {
      if (++evaluated > MAX_EVALUATED_SELECTIONS) throw new TooManySelectionsError();
      if (skipped(node)) continue;
      if (node.kind === Kind.FIELD) {
        const name = node.name.value;
        const def =
          name === '__typename'
            ? TypeNameMetaFieldDef
            : name === '__schema'
              ? SchemaMetaFieldDef
              : name === '__type'
                ? TypeMetaFieldDef
                : fields[name];
        if (!def) continue; // validation reports it
        const size = pageSize(getArgumentValues(def, node, variables));
        const named = getNamedType(def.type);
        const key = node.alias?.value ?? name;
        const field: FieldCost = { key, requested: 1, connection: size !== undefined };
        if (isCompositeType(named) && node.selectionSet) {
          field.selection = new Map();
          const child = walk(node.selectionSet, named, field.selection);
          field.requested = size === undefined ? 1 + child : 1 + child * Math.max(1, size);
        }
        mergeField(plan, key, field);
        add(field.requested, possible);
      } else if (node.kind === Kind.INLINE_FRAGMENT) {
        const fragmentType = node.typeCondition ? schema.getType(node.typeCondition.name.value) : type;
        if (isCompositeType(fragmentType)) addFragment(fragmentType, walk(node.selectionSet, fragmentType, plan));
      } else {
        const fragment = fragments.get(node.name.value);
        const fragmentType = fragment && schema.getType(fragment.typeCondition.name.value);
        if (!fragment || !isCompositeType(fragmentType) || active.has(fragment.name.value)) continue;
        active.add(fragment.name.value);
        addFragment(fragmentType, walk(fragment.selectionSet, fragmentType, plan));
        active.delete(fragment.name.value);
      }
    }
    return Math.max(0, ...byType.values());
  };

  const root = schema.getRootType(operation.operation);
  const selection: SelectionCost = new Map();
  const requested = root ? walk(operation.selectionSet, root, selection) : 0;
  return { requested, selection, fields: listed(selection, new Set()) };
}

/** Lists each selection's fields (`FieldCost.fields`), so that pricing a result walks arrays, allocating nothing. */
function listed(selection: SelectionCost, done: Set<FieldCost>): FieldCost[] {
  const fields = [...selection.values()];
  for (const field of fields) {
    if (!field.selection || done.has(field)) continue;
    done.add(field);
    field.fields = listed(field.selection, done);
  }
  return fields;
}

function valueCost(field: FieldCost, value: unknown): number {
  const fields = field.fields;
  if (!fields) return field.requested;
  if (value === null || value === undefined) return 1;
  if (Array.isArray(value)) {
    // A plain list is priced as its costliest item, as the estimate prices it once.
    let most = 0;
    for (const item of value) most = Math.max(most, valueCost(field, item) - 1);
    return 1 + most;
  }
  const object = value as Record<string, unknown>;
  if (!field.connection) return 1 + selectionCost(fields, object);
  // A connection: what is not a list (pageInfo, totalCount) and each list's own field count once
  // per item returned, as the estimate counts them once per item asked for; the items themselves
  // count as they came back.
  let once = 0;
  let items = 0;
  let count = 0;
  for (const child of fields) {
    const v = object[child.key];
    if (v === undefined) continue;
    if (Array.isArray(v) && child.fields) {
      once += 1;
      count = Math.max(count, v.length);
      for (const item of v) items += item === null ? 0 : selectionCost(child.fields, item as Record<string, unknown>);
    } else once += valueCost(child, v);
  }
  return 1 + Math.max(1, count) * once + items;
}

function selectionCost(fields: readonly FieldCost[], object: Record<string, unknown>): number {
  let cost = 0;
  for (const field of fields) {
    const value = object[field.key];
    if (value !== undefined) cost += valueCost(field, value);
  }
  return cost;
}

/**
 * What an executed operation actually cost, priced from its result with the estimate's rule:
 * a connection counts the items it returned instead of the page it asked for, a field that came
 * back null counts 1 without its selection. Never more than the estimate; equal when every
 * connection filled its page. One walk over the response data (only the keys the plan names),
 * no schema or document.
 */
export function actualCost(plan: CostPlan, data: Record<string, unknown> | null): number {
  // `data: null`: a non-null root field failed; each root field ran, and counts 1.
  return Math.min(plan.requested, data ? selectionCost(plan.fields, data) : plan.fields.length);
}
