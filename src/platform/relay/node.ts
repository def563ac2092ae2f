import { Arg, Ctx, Field, ID, InterfaceType, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../graphql/context.js';
import type { ServiceContext } from '../context.js';
import { DomainError } from '../errors.js';
import { permission, requirePermission } from '../permissions.js';
import { parseGlobalId } from './global-id.js';

@InterfaceType({ description: 'An object with a global id' })
export abstract class Node {
  @Field(() => ID, { description: 'Opaque global id, usable with node(id:)' })
  id!: string;
}

type NodeFetcher = (ctx: ServiceContext, rawId: string) => Promise<Node>;
const fetchers = new Map<string, { fetch: NodeFetcher; resource: string }>();

/** Each domain registers how to fetch its node type by raw id (throwing `not_found` if absent), and the resource whose read permission it needs. */
export function registerNodeType(type: string, resource: string, fetch: NodeFetcher): void {
  fetchers.set(type, { fetch, resource });
}

async function fetchNode(ctx: ServiceContext, globalId: string): Promise<Node | null> {
  const parsed = parseGlobalId(globalId);
  const fetcher = parsed && fetchers.get(parsed.type);
  if (!parsed || !fetcher) return null;
  requirePermission(ctx.principal, permission(fetcher.resource, 'read'));
  try {
    return await fetcher.fetch(ctx, parsed.id);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'not_found') return null;
    throw err;
  }
}

@Resolver()
export class NodeResolver {
  @Query(() => Node, {
    nullable: true,
    description: 'Any object by its global id; null when it does not exist for this key',
  })
  node(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<Node | null> {
    return fetchNode(ctx, id);
  }

  @Query(() => [Node], { nullable: 'items', description: 'Several objects by global id, in order' })
  nodes(@Arg('ids', () => [ID]) ids: string[], @Ctx() { ctx }: GraphContext): Promise<(Node | null)[]> {
    if (ids.length > 100)
      throw new DomainError('invalid_request', 'At most 100 ids per nodes() call', { param: 'ids' });
    return Promise.all(ids.map((id) => fetchNode(ctx, id)));
  }
}
