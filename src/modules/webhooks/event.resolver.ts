import { Authorized, Arg, Args, Ctx, FieldResolver, ID, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { Principal } from '../../platform/context.js';
import { getEvent, listEvents } from '../../platform/events/events.service.js';
import type { GraphContext } from '../../platform/graphql/context.js';
import { EVENTS_TOPIC, scopeTopicId, type LiveEvent } from '../../platform/pubsub/event-pubsub.js';
import { pageSize, toCursorConnection, type ConnectionShape } from '../../platform/relay/connection.js';
import { eventCursorLoader } from './event.loaders.js';
import { fromGlobalId } from '../../platform/relay/global-id.js';
import { registerNodeType } from '../../platform/relay/node.js';
import { parseInput } from '../../platform/validation.js';
import { listEventsSchema } from './webhook.schemas.js';
import { EventConnection, EventNode, EventsArgs } from './webhook.types.js';

registerNodeType('Event', 'webhooks', async (ctx, id) => EventNode.from(await getEvent(ctx, id)));

/** Options of a live-event subscription: the caller's merchant and mode only, and the events `accept` lets through. */
function live(description: string, accept: (event: LiveEvent, args: { types?: string[] | null }) => boolean) {
  return {
    description,
    topics: EVENTS_TOPIC,
    topicId: ({ context }: { context: GraphContext }) => scopeTopicId(context.ctx.principal satisfies Principal),
    filter: ({ payload, args }: { payload: LiveEvent; args: { types?: string[] | null } }) => accept(payload, args),
  };
}

@Authorized('webhooks')
@Resolver(() => EventNode)
export class EventResolver {
  @Query(() => EventNode, {
    nullable: true,
    description: 'An event by global id; null (with a not_found error) when this key cannot see it',
  })
  async event(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<EventNode> {
    return EventNode.from(await getEvent(ctx, fromGlobalId(id, 'Event')));
  }

  @Query(() => EventConnection, {
    description:
      'Events in log order, most recent first unless order: OLDEST_FIRST (catch-up after a cursor), optionally of some types only',
  })
  async events(@Args() args: EventsArgs, @Ctx() { ctx }: GraphContext): Promise<ConnectionShape<EventNode>> {
    const filters = parseInput(
      listEventsSchema,
      {
        types: args.types ?? undefined,
        order: args.order ?? undefined,
        createdAfter: args.createdAfter ?? undefined,
        createdBefore: args.createdBefore ?? undefined,
      },
      'invalid_request',
    );
    return toCursorConnection(
      await listEvents(ctx, filters, {
        limit: pageSize(args),
        after: args.after ?? undefined,
        before: args.before ?? undefined,
        fromEnd: args.last != null,
      }),
      args,
      (e) => e.cursor,
      (e) => EventNode.fromLive(e),
    );
  }

  @FieldResolver(() => String, {
    description: 'Its position in the log: pass it as `after` to events(order: OLDEST_FIRST) to get every later event',
  })
  async cursor(@Root() event: EventNode, @Ctx() { ctx }: GraphContext): Promise<string> {
    return event.logCursor ?? (await eventCursorLoader(ctx).load(event.eventId));
  }

  @Authorized('orders:read')
  @Subscription(
    () => EventNode,
    live('Live order.* events of this merchant and mode (over graphql-ws)', (e) => e.type.startsWith('order.')),
  )
  orderEvents(@Root() event: LiveEvent): EventNode {
    return EventNode.fromLive(event);
  }

  @Authorized('subscriptions:read')
  @Subscription(
    () => EventNode,
    live('Live subscription.* events of this merchant and mode (over graphql-ws)', (e) =>
      e.type.startsWith('subscription.'),
    ),
  )
  subscriptionEvents(@Root() event: LiveEvent): EventNode {
    return EventNode.fromLive(event);
  }

  @Subscription(() => EventNode, {
    name: 'events',
    ...live(
      'Every live event of this merchant and mode, or only the given types (over graphql-ws)',
      (e, args) => !args.types?.length || args.types.includes(e.type),
    ),
  })
  liveEvents(
    @Root() event: LiveEvent,
    @Arg('types', () => [String], { nullable: true }) _types?: string[] | null,
  ): EventNode {
    return EventNode.fromLive(event);
  }
}
