import { ArgsType, Field, GraphQLISODateTime, Int, ObjectType, type ClassType } from 'type-graphql';
import { DomainError } from '../errors.js';
import { hasControlCharacter } from '../validation.js';
import type { Page, PageRequest } from '../pagination/keyset.js';

@ObjectType({ description: 'Relay page information' })
export class PageInfo {
  @Field() hasNextPage!: boolean;
  @Field() hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true }) startCursor!: string | null;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
}

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Items after `after`, newest first (default 10, max 100)' })
  first?: number | null;

  @Field(() => String, { nullable: true })
  after?: string | null;

  @Field(() => Int, { nullable: true, description: 'Items before `before` (max 100)' })
  last?: number | null;

  @Field(() => String, { nullable: true })
  before?: string | null;
}

/** Connection arguments of a list that can also be narrowed to a window of creation time (every list of the graph). */
@ArgsType()
export class CreatedRangeArgs extends ConnectionArgs {
  @Field(() => GraphQLISODateTime, { nullable: true }) createdAfter?: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) createdBefore?: Date | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface ConnectionShape<T> {
  edges: Edge<T>[];
  nodes: T[];
  pageInfo: PageInfo;
  totalCount?: number;
}

/** Declares `<Name>Connection` and `<Name>Edge` object types for `node`. */
export function connectionType<T extends object>(name: string, node: ClassType<T>): ClassType<ConnectionShape<T>> {
  @ObjectType(`${name}Edge`)
  class EdgeType {
    @Field() cursor!: string;
    @Field(() => node) node!: T;
  }

  @ObjectType(`${name}Connection`)
  class ConnectionType {
    @Field(() => [EdgeType]) edges!: EdgeType[];
    @Field(() => [node], { description: 'The nodes of `edges`, for clients that need no cursors' }) nodes!: T[];
    @Field(() => PageInfo) pageInfo!: PageInfo;
  }
  return ConnectionType;
}

const encodeCursor = (id: string | number) => Buffer.from(`cursor:${id}`).toString('base64url');

function decodeCursor(cursor: string, param: string): string {
  const raw = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!raw.startsWith('cursor:') || hasControlCharacter(raw) || encodeCursor(raw.slice(7)) !== cursor) {
    throw new DomainError('invalid_request', `${param} is not a cursor returned by this API`, { param });
  }
  return raw.slice(7);
}

/** The page size the Relay arguments ask for (default 10, 0 to 100: 0 is an empty page with its pageInfo, as Relay allows; `first` and `last` exclusive). */
export function pageSize(args: ConnectionArgs): number {
  if (args.first != null && args.last != null)
    throw new DomainError('invalid_request', 'Pass either first or last, not both', { param: 'last' });
  const size = args.last ?? args.first ?? 10;
  const param = args.last != null ? 'last' : 'first';
  if (!Number.isInteger(size) || size < 0 || size > 100)
    throw new DomainError('invalid_request', `${param} must be between 0 and 100`, { param });
  return size;
}

/**
 * Turns Relay arguments into the keyset paginator's page request (`parseId` maps the cursor's
 * id; a cursor whose id it cannot map is refused): `after`/`before` bound the range, `first`
 * takes its first (newest) items, `last` its last (oldest) ones.
 */
export function toPageRequest<Id extends string | number>(
  args: ConnectionArgs,
  parseId: (raw: string) => Id,
): PageRequest<Id> {
  const size = pageSize(args);
  const cursorId = (cursor: string, name: string) => {
    const id = parseId(decodeCursor(cursor, name));
    if (typeof id === 'number' && !Number.isSafeInteger(id))
      throw new DomainError('invalid_request', `${name} is not a cursor returned by this API`, { param: name });
    return id;
  };
  const after = args.after != null ? cursorId(args.after, 'after') : undefined;
  const before = args.before != null ? cursorId(args.before, 'before') : undefined;
  return { limit: size, after, before, fromEnd: args.last != null };
}

/**
 * Builds a connection from a page read for `args`. Per the Relay spec, reading forward
 * `hasNextPage` says whether more items follow and `hasPreviousPage` whether `after` was given
 * (items precede it); reading backward (`last`) the other way round.
 */
export function toConnection<T extends { id: string | number }, N>(
  page: Page<T>,
  args: ConnectionArgs,
  present: (item: T) => N,
): ConnectionShape<N> {
  return toCursorConnection(page, args, (item) => encodeCursor(item.id), present);
}

/** An edge whose cursor is encoded when a client selects it (most pages ask for nodes only). */
class LazyEdge<T, N> implements Edge<N> {
  constructor(
    private readonly item: T,
    readonly node: N,
    private readonly cursorOf: (item: T) => string,
  ) {}

  get cursor(): string {
    return this.cursorOf(this.item);
  }
}

/** The same from a page whose items carry their own cursors (e.g. the event log's positions). */
export function toCursorConnection<T, N>(
  page: Page<T>,
  args: ConnectionArgs,
  cursorOf: (item: T) => string,
  present: (item: T) => N,
): ConnectionShape<N> {
  const backward = args.last != null;
  const edges = page.items.map((item) => new LazyEdge(item, present(item), cursorOf));
  const startCursor = edges.length ? edges[0].cursor : null;
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: backward ? args.before != null : page.hasMore,
      hasPreviousPage: backward ? page.hasMore : args.after != null,
      startCursor,
      endCursor: edges.length > 1 ? edges[edges.length - 1].cursor : startCursor,
    },
  };
}
