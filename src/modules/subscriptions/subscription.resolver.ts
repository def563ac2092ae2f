import {
  Authorized,
  Arg,
  Extensions,
  Args,
  Ctx,
  FieldResolver,
  ID,
  Mutation,
  Query,
  Resolver,
  Root,
  Subscription,
} from 'type-graphql';
import { DomainError } from '../../platform/errors.js';
import type { GraphContext } from '../../platform/graphql/context.js';
import { toServiceInput } from '../../platform/graphql/input.js';
import { paginateLoaded } from '../../platform/pagination/keyset.js';
import { EVENTS_TOPIC, scopeTopicId, type LiveEvent } from '../../platform/pubsub/event-pubsub.js';
import { ConnectionArgs, toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { fromGlobalId } from '../../platform/relay/global-id.js';
import { registerNodeType } from '../../platform/relay/node.js';
import { customerLoader } from '../customers/customer.loaders.js';
import { CustomerNode, PaymentMethodNode, PaymentMethodSetupLinkNode } from '../customers/customer.types.js';
import { EventConnection, EventNode } from '../webhooks/webhook.types.js';
import {
  attemptsByInvoiceLoader,
  invoiceByIdLoader,
  invoicesBySubscriptionLoader,
  paymentMethodByIdLoader,
} from './subscription.loaders.js';
import * as subscriptions from './subscription.service.js';
import {
  CancelSubscriptionInput,
  CardUpdateLinkPayload,
  CreateCardUpdateLinkInput,
  CreateSubscriptionInput,
  ReplaceSubscriptionPaymentMethodInput,
  ResumeSubscriptionInput,
  SubscriptionContractConnection,
  SubscriptionContractNode,
  SubscriptionContractPayload,
  SubscriptionInvoiceAttemptType,
  SubscriptionInvoiceConnection,
  SubscriptionInvoiceNode,
  SubscriptionsArgs,
  UpdateSubscriptionInput,
} from './subscription.types.js';

registerNodeType('SubscriptionContract', 'subscriptions', async (ctx, id) =>
  SubscriptionContractNode.from(await subscriptions.getSubscription(ctx, id)),
);
registerNodeType('SubscriptionInvoice', 'subscriptions', async (ctx, id) => {
  const invoice = await invoiceByIdLoader(ctx).load(id);
  if (!invoice) throw DomainError.notFound('subscription invoice', id);
  return SubscriptionInvoiceNode.from(invoice);
});

const subId = (globalId: string, param = 'id') => fromGlobalId(globalId, 'SubscriptionContract', param);
const payload = (s: Parameters<typeof SubscriptionContractNode.from>[0]): SubscriptionContractPayload => ({
  subscription: SubscriptionContractNode.from(s),
});

@Authorized('subscriptions')
@Resolver(() => SubscriptionContractNode)
export class SubscriptionContractResolver {
  @Query(() => SubscriptionContractNode, {
    nullable: true,
    description: 'A subscription by global id; null (with a not_found error) when this key cannot see it',
  })
  async subscriptionContract(
    @Arg('id', () => ID) id: string,
    @Ctx() { ctx }: GraphContext,
  ): Promise<SubscriptionContractNode> {
    return SubscriptionContractNode.from(await subscriptions.getSubscription(ctx, subId(id)));
  }

  @Query(() => SubscriptionContractConnection, {
    description: 'Subscriptions, most recent first, with the REST filters (the renewal polling list)',
  })
  async subscriptions(
    @Args() args: SubscriptionsArgs,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ConnectionShape<SubscriptionContractNode>> {
    const filters = {
      status: args.status ?? undefined,
      customer_id: args.customerId ? fromGlobalId(args.customerId, 'Customer', 'customerId') : undefined,
      created_after: args.createdAfter ?? undefined,
      created_before: args.createdBefore ?? undefined,
    };
    return toConnection(
      await subscriptions.listSubscriptions(
        ctx,
        filters,
        toPageRequest(args, String),
        args.last != null ? 'before' : 'after',
      ),
      args,
      (s) => SubscriptionContractNode.from(s),
    );
  }

  @FieldResolver(() => CustomerNode, { nullable: true, description: 'The customer (batched)' })
  async customer(@Root() sub: SubscriptionContractNode, @Ctx() { ctx }: GraphContext): Promise<CustomerNode | null> {
    const c = await customerLoader(ctx).load(sub.customerId);
    return c ? CustomerNode.from(c) : null;
  }

  @FieldResolver(() => PaymentMethodNode, { nullable: true, description: 'The card charged (batched)' })
  async paymentMethod(
    @Root() sub: SubscriptionContractNode,
    @Ctx() { ctx }: GraphContext,
  ): Promise<PaymentMethodNode | null> {
    const pm = await paymentMethodByIdLoader(ctx).load(sub.paymentMethodId);
    return pm ? PaymentMethodNode.from(pm) : null;
  }

  @FieldResolver(() => SubscriptionInvoiceNode, { nullable: true, description: 'The latest cycle (batched)' })
  async latestInvoice(
    @Root() sub: SubscriptionContractNode,
    @Ctx() { ctx }: GraphContext,
  ): Promise<SubscriptionInvoiceNode | null> {
    if (!sub.latestInvoiceId) return null;
    const invoice = await invoiceByIdLoader(ctx).load(sub.latestInvoiceId);
    return invoice ? SubscriptionInvoiceNode.from(invoice) : null;
  }

  @FieldResolver(() => SubscriptionInvoiceConnection, {
    description: 'Its cycles, newest first (batched across subscriptions)',
  })
  async invoices(
    @Root() sub: SubscriptionContractNode,
    @Args() args: ConnectionArgs,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ConnectionShape<SubscriptionInvoiceNode>> {
    const all = await invoicesBySubscriptionLoader(ctx).load(sub.subscriptionId);
    return toConnection(paginateLoaded(all, toPageRequest(args, String)), args, (i) => SubscriptionInvoiceNode.from(i));
  }

  @FieldResolver(() => EventConnection, { description: 'Its subscription.* events, newest first' })
  async events(
    @Root() sub: SubscriptionContractNode,
    @Args() args: ConnectionArgs,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ConnectionShape<EventNode>> {
    return toConnection(
      await subscriptions.listSubscriptionEvents(
        ctx,
        sub.subscriptionId,
        toPageRequest(args, String),
        args.last != null ? 'before' : 'after',
      ),
      args,
      (e) => EventNode.from(e),
    );
  }

  @Mutation(() => SubscriptionContractPayload, {
    description: 'Create a subscription (same rules as POST /api/v2/subscriptions)',
  })
  @Extensions({ ownTransactions: true }) // charges: never inside one transaction
  async createSubscription(
    @Arg('input', () => CreateSubscriptionInput) input: CreateSubscriptionInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<SubscriptionContractPayload> {
    const body = {
      ...toServiceInput(input),
      customer_id: fromGlobalId(input.customerId, 'Customer', 'customerId'),
      payment_method_id: fromGlobalId(input.paymentMethodId, 'PaymentMethod', 'paymentMethodId'),
    };
    return payload(await subscriptions.createSubscription(ctx, body));
  }

  @Mutation(() => SubscriptionContractPayload, {
    description: 'Change the amount (next cycle on), metadata or cancelAtPeriodEnd',
  })
  async updateSubscription(
    @Arg('input', () => UpdateSubscriptionInput) input: UpdateSubscriptionInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<SubscriptionContractPayload> {
    return payload(await subscriptions.updateSubscription(ctx, subId(input.id), toServiceInput(input, ['id'])));
  }

  @Mutation(() => SubscriptionContractPayload, { description: 'Cancel now or at the period end' })
  async cancelSubscription(
    @Arg('input', () => CancelSubscriptionInput) input: CancelSubscriptionInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<SubscriptionContractPayload> {
    return payload(await subscriptions.cancelSubscription(ctx, subId(input.id), toServiceInput(input, ['id'])));
  }

  @Mutation(() => SubscriptionContractPayload, {
    description: 'Reverse a scheduled cancellation (subscription.resumed)',
  })
  async resumeSubscription(
    @Arg('input', () => ResumeSubscriptionInput) input: ResumeSubscriptionInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<SubscriptionContractPayload> {
    return payload(await subscriptions.resumeSubscription(ctx, subId(input.id)));
  }

  @Mutation(() => SubscriptionContractPayload, {
    description: 'Replace the card; a past_due or action_required subscription is charged at once',
  })
  @Extensions({ ownTransactions: true }) // charges: never inside one transaction
  async replaceSubscriptionPaymentMethod(
    @Arg('input', () => ReplaceSubscriptionPaymentMethodInput) input: ReplaceSubscriptionPaymentMethodInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<SubscriptionContractPayload> {
    const body = { payment_method_id: fromGlobalId(input.paymentMethodId, 'PaymentMethod', 'paymentMethodId') };
    return payload(await subscriptions.replacePaymentMethod(ctx, subId(input.id), body));
  }

  @Mutation(() => CardUpdateLinkPayload, {
    description:
      "A one-time hosted page (24 h) where the shopper enters a new card: it replaces the subscription's, and a past_due or action_required subscription is charged at once",
  })
  async createCardUpdateLink(
    @Arg('input', () => CreateCardUpdateLinkInput) input: CreateCardUpdateLinkInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<CardUpdateLinkPayload> {
    return {
      setupLink: PaymentMethodSetupLinkNode.from(
        await subscriptions.createCardUpdateLink(ctx, subId(input.subscriptionId, 'subscriptionId')),
        ctx.now(),
      ),
    };
  }

  @Subscription(() => EventNode, {
    description: 'Live events of one subscription (over graphql-ws)',
    topics: EVENTS_TOPIC,
    topicId: ({ context }: { context: GraphContext }) => scopeTopicId(context.ctx.principal),
    filter: ({ payload: e, args }: { payload: LiveEvent; args: { id: string } }) =>
      e.type.startsWith('subscription.') &&
      (e.data as { subscription_id?: string }).subscription_id === fromGlobalId(args.id, 'SubscriptionContract'),
  })
  subscriptionContractEvents(
    @Root() event: LiveEvent,
    @Arg('id', () => ID, { description: 'Global id of the subscription' }) _id: string,
  ): EventNode {
    return EventNode.fromLive(event);
  }
}

@Authorized('subscriptions')
@Resolver(() => SubscriptionInvoiceNode)
export class SubscriptionInvoiceResolver {
  @FieldResolver(() => [SubscriptionInvoiceAttemptType], {
    description: 'Processor calls of this cycle, in order (batched)',
  })
  async attempts(
    @Root() invoice: SubscriptionInvoiceNode,
    @Ctx() { ctx }: GraphContext,
  ): Promise<SubscriptionInvoiceAttemptType[]> {
    return (await attemptsByInvoiceLoader(ctx).load(invoice.invoiceId)).map((a) =>
      SubscriptionInvoiceAttemptType.from(a),
    );
  }
}
