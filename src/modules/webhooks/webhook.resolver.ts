import {
  Authorized,
  Arg,
  Args,
  Ctx,
  Extensions,
  FieldResolver,
  ID,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { Event } from '../../platform/events/event.entity.js';
import type { GraphContext } from '../../platform/graphql/context.js';
import { toServiceInput } from '../../platform/graphql/input.js';
import { toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { fromGlobalId, toGlobalId } from '../../platform/relay/global-id.js';
import { registerNodeType } from '../../platform/relay/node.js';
import { firstDeliveryPagesLoader } from './webhook.loaders.js';
import * as webhooks from './webhook.service.js';
import {
  CreateWebhookEndpointInput,
  CreateWebhookEndpointPayload,
  DeleteWebhookEndpointInput,
  DeleteWebhookEndpointPayload,
  EnableWebhookEndpointInput,
  EnableWebhookEndpointPayload,
  RecoverWebhookEndpointInput,
  RecoverWebhookEndpointPayload,
  TestWebhookEndpointInput,
  TestWebhookEndpointPayload,
  UpdateWebhookEndpointInput,
  UpdateWebhookEndpointPayload,
  DisableWebhookEndpointInput,
  DisableWebhookEndpointPayload,
  EventNode,
  RetryWebhookDeliveryInput,
  RetryWebhookDeliveryPayload,
  RotateWebhookEndpointSecretInput,
  RotateWebhookEndpointSecretPayload,
  WebhookDeliveriesArgs,
  WebhookDeliveryConnection,
  WebhookDeliveryNode,
  WebhookEndpointConnection,
  WebhookEndpointNode,
} from './webhook.types.js';
import { ConnectionArgs } from '../../platform/relay/connection.js';

registerNodeType('WebhookEndpoint', 'webhooks', async (ctx, id) =>
  WebhookEndpointNode.from(await webhooks.getWebhookEndpoint(ctx, id)),
);
registerNodeType('WebhookDelivery', 'webhooks', async (ctx, id) =>
  WebhookDeliveryNode.from(await webhooks.getWebhookDelivery(ctx, id)),
);

const endpointId = (globalId: string, param = 'id') => fromGlobalId(globalId, 'WebhookEndpoint', param);
const deliveryId = (globalId: string, param = 'id') => fromGlobalId(globalId, 'WebhookDelivery', param);

@Authorized('webhooks')
@Resolver(() => WebhookEndpointNode)
export class WebhookEndpointResolver {
  @Query(() => WebhookEndpointNode, {
    nullable: true,
    description: 'A webhook endpoint by global id; null (with a not_found error) when this key cannot see it',
  })
  async webhookEndpoint(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<WebhookEndpointNode> {
    return WebhookEndpointNode.from(await webhooks.getWebhookEndpoint(ctx, endpointId(id)));
  }

  @Query(() => WebhookEndpointConnection, { description: 'Webhook endpoints, most recent first' })
  async webhookEndpoints(
    @Args() args: ConnectionArgs,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ConnectionShape<WebhookEndpointNode>> {
    const page = toPageRequest(args, String);
    return toConnection(await webhooks.listWebhookEndpoints(ctx, page, 'after'), args, (e) =>
      WebhookEndpointNode.from(e),
    );
  }

  @FieldResolver(() => WebhookDeliveryConnection, {
    description:
      "This endpoint's deliveries with their attempts, most recent first (first pages are batched across endpoints)",
  })
  async webhookDeliveries(
    @Root() endpoint: WebhookEndpointNode,
    @Args() args: WebhookDeliveriesArgs,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ConnectionShape<WebhookDeliveryNode>> {
    const page = toPageRequest(args, String);
    const filters = { status: args.status ?? undefined };
    const firstPage = page.after === undefined && page.before === undefined && !page.fromEnd;
    const result = firstPage
      ? await firstDeliveryPagesLoader(ctx).load(
          JSON.stringify({ endpointId: endpoint.endpointId, status: filters.status ?? null, limit: page.limit }),
        )
      : await webhooks.listWebhookDeliveries(ctx, endpoint.endpointId, filters, page, 'after');
    return toConnection(result, args, (d) => WebhookDeliveryNode.from(d));
  }

  @Mutation(() => CreateWebhookEndpointPayload, {
    description: 'Register an endpoint; the payload carries its secret, shown only here',
  })
  async createWebhookEndpoint(
    @Arg('input', () => CreateWebhookEndpointInput) input: CreateWebhookEndpointInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<CreateWebhookEndpointPayload> {
    const { endpoint, secret } = await webhooks.createWebhookEndpoint(ctx, toServiceInput(input));
    return { webhookEndpoint: WebhookEndpointNode.from(endpoint), secret };
  }

  @Mutation(() => RotateWebhookEndpointSecretPayload, {
    description: 'Issue a new secret; the old one keeps signing beside it for 24 hours',
  })
  async rotateWebhookEndpointSecret(
    @Arg('input', () => RotateWebhookEndpointSecretInput) input: RotateWebhookEndpointSecretInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<RotateWebhookEndpointSecretPayload> {
    const { endpoint, secret } = await webhooks.rotateWebhookEndpointSecret(ctx, endpointId(input.id));
    return { webhookEndpoint: WebhookEndpointNode.from(endpoint), secret };
  }

  @Mutation(() => DisableWebhookEndpointPayload, {
    description: 'Stop sending to an endpoint; its queued deliveries become dead letters',
  })
  async disableWebhookEndpoint(
    @Arg('input', () => DisableWebhookEndpointInput) input: DisableWebhookEndpointInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<DisableWebhookEndpointPayload> {
    return {
      webhookEndpoint: WebhookEndpointNode.from(await webhooks.disableWebhookEndpoint(ctx, endpointId(input.id))),
    };
  }

  @Mutation(() => UpdateWebhookEndpointPayload, {
    description: "Change an endpoint's url (vetted as on create), events, description or metadata",
  })
  async updateWebhookEndpoint(
    @Arg('input', () => UpdateWebhookEndpointInput) input: UpdateWebhookEndpointInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<UpdateWebhookEndpointPayload> {
    return {
      webhookEndpoint: WebhookEndpointNode.from(
        await webhooks.updateWebhookEndpoint(ctx, endpointId(input.id), toServiceInput(input, ['id'])),
      ),
    };
  }

  @Mutation(() => DeleteWebhookEndpointPayload, {
    description: 'Delete an endpoint: its queued deliveries become dead letters, then it is not found',
  })
  async deleteWebhookEndpoint(
    @Arg('input', () => DeleteWebhookEndpointInput) input: DeleteWebhookEndpointInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<DeleteWebhookEndpointPayload> {
    const { id } = await webhooks.deleteWebhookEndpoint(ctx, endpointId(input.id));
    return { deletedWebhookEndpointId: toGlobalId('WebhookEndpoint', id) };
  }

  @Mutation(() => EnableWebhookEndpointPayload, { description: 'Enable a disabled endpoint again' })
  async enableWebhookEndpoint(
    @Arg('input', () => EnableWebhookEndpointInput) input: EnableWebhookEndpointInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<EnableWebhookEndpointPayload> {
    return {
      webhookEndpoint: WebhookEndpointNode.from(await webhooks.enableWebhookEndpoint(ctx, endpointId(input.id))),
    };
  }

  @Mutation(() => TestWebhookEndpointPayload, {
    description: 'Send a signed test event (webhook_endpoint.test, or type) to the endpoint now',
  })
  @Extensions({ ownTransactions: true }) // an HTTP call to the receiver: never inside a transaction
  async testWebhookEndpoint(
    @Arg('input', () => TestWebhookEndpointInput) input: TestWebhookEndpointInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<TestWebhookEndpointPayload> {
    const r = await webhooks.sendTestWebhookEvent(ctx, endpointId(input.id), toServiceInput(input, ['id']));
    return {
      eventId: r.event.id,
      eventType: r.event.type,
      deliveryId: r.attemptId,
      ok: r.ok,
      responseStatus: r.responseStatus,
      error: r.error,
      durationMs: r.durationMs,
    };
  }

  @Mutation(() => RecoverWebhookEndpointPayload, {
    description: 'Queue again every failed or dead-letter delivery whose event was created since the given time',
  })
  async recoverWebhookEndpoint(
    @Arg('input', () => RecoverWebhookEndpointInput) input: RecoverWebhookEndpointInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<RecoverWebhookEndpointPayload> {
    const { endpoint, recovered } = await webhooks.recoverWebhookEndpoint(ctx, endpointId(input.id), {
      since: input.since.toISOString(),
    });
    return { webhookEndpoint: WebhookEndpointNode.from(endpoint), recovered };
  }

  @Mutation(() => RetryWebhookDeliveryPayload, {
    description: 'Send a failed or dead-letter delivery again now, as a new attempt',
  })
  async retryWebhookDelivery(
    @Arg('input', () => RetryWebhookDeliveryInput) input: RetryWebhookDeliveryInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<RetryWebhookDeliveryPayload> {
    return {
      webhookDelivery: WebhookDeliveryNode.from(await webhooks.retryWebhookDelivery(ctx, deliveryId(input.id))),
    };
  }
}

@Authorized('webhooks')
@Resolver(() => WebhookDeliveryNode)
export class WebhookDeliveryResolver {
  @FieldResolver(() => EventNode, { description: 'The event delivered (batched across deliveries)' })
  async event(@Root() delivery: WebhookDeliveryNode, @Ctx() { ctx }: GraphContext): Promise<EventNode> {
    return EventNode.from(
      await ctx.em.getReference(Event, delivery.eventId, { wrapped: true }).loadOrFail({ dataloader: true }),
    );
  }
}
