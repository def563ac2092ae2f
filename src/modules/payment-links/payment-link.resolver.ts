import { Authorized, Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { toServiceInputDeep } from '../../platform/graphql/input.js';
import { toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { fromGlobalId, parseGlobalId } from '../../platform/relay/global-id.js';
import { registerNodeType } from '../../platform/relay/node.js';
import { checkoutLoader } from '../checkout/checkout.loaders.js';
import { effectiveStatus } from '../checkout/checkout.service.js';
import { CheckoutSessionNode } from '../checkout/checkout.types.js';
import { customerLoader } from '../customers/customer.loaders.js';
import { CustomerNode } from '../customers/customer.types.js';
import { orderLoader } from '../orders/order.loaders.js';
import { OrderNode } from '../orders/order.types.js';
import { paymentLinkLoader } from './payment-link.loaders.js';
import * as links from './payment-link.service.js';
import {
  CancelPaymentLinkInput,
  CancelPaymentLinkPayload,
  CreatePaymentLinkInput,
  CreatePaymentLinkPayload,
  PaymentLinkConnection,
  PaymentLinkNode,
  PaymentLinksArgs,
} from './payment-link.types.js';

const present = async (ctx: GraphContext['ctx'], id: string) => {
  const link = await links.getPaymentLink(ctx, id);
  return PaymentLinkNode.from(link, links.effectiveLinkStatus(ctx, link));
};

registerNodeType('PaymentLink', 'payment_links', present);

@Authorized('payment_links')
@Resolver(() => PaymentLinkNode)
export class PaymentLinkResolver {
  @Query(() => PaymentLinkNode, {
    nullable: true,
    description: 'A payment link by global id; null (with a not_found error) when this key cannot see it',
  })
  paymentLink(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<PaymentLinkNode> {
    return present(ctx, fromGlobalId(id, 'PaymentLink'));
  }

  @Query(() => PaymentLinkConnection, { description: 'Payment links, most recent first, with the REST filters' })
  async paymentLinks(
    @Args() args: PaymentLinksArgs,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ConnectionShape<PaymentLinkNode>> {
    const page = toPageRequest(args, String);
    const filters = {
      status: args.status ?? undefined,
      customer_email: args.customerEmail ?? undefined,
      payment_type: args.paymentType ?? undefined,
      created_after: args.createdAfter ?? undefined,
      created_before: args.createdBefore ?? undefined,
    };
    const result = await links.listPaymentLinks(ctx, filters, page, args.last != null ? 'before' : 'after');
    return toConnection(result, args, (l) => PaymentLinkNode.from(l, links.effectiveLinkStatus(ctx, l)));
  }

  @FieldResolver(() => OrderNode, { nullable: true, description: 'The order, once paid (batched)' })
  async order(@Root() link: PaymentLinkNode, @Ctx() { ctx }: GraphContext): Promise<OrderNode | null> {
    const order = link.orderId ? await orderLoader(ctx).load(link.orderId) : null;
    return order ? OrderNode.from(order) : null;
  }

  @FieldResolver(() => CustomerNode, {
    nullable: true,
    description: 'The stored customer, when the link was made for one by id (batched)',
  })
  async storedCustomer(@Root() link: PaymentLinkNode, @Ctx() { ctx }: GraphContext): Promise<CustomerNode | null> {
    const customer = link.customerId ? await customerLoader(ctx).load(link.customerId) : null;
    return customer ? CustomerNode.from(customer) : null;
  }

  @FieldResolver(() => CheckoutSessionNode, { description: 'The link’s checkout session (batched)' })
  async checkoutSession(@Root() link: PaymentLinkNode, @Ctx() { ctx }: GraphContext): Promise<CheckoutSessionNode> {
    const session = (await checkoutLoader(ctx).load(link.checkoutId))!;
    return CheckoutSessionNode.from(session, effectiveStatus(ctx, session));
  }

  @Mutation(() => CreatePaymentLinkPayload, {
    description: 'Create a payment link: products (eligibility and the HSA/FSA split apply) or amount and description',
  })
  async createPaymentLink(
    @Arg('input', () => CreatePaymentLinkInput) input: CreatePaymentLinkInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<CreatePaymentLinkPayload> {
    const { customerId, expiresAt, ...rest } = input;
    const body = toServiceInputDeep(rest) as Record<string, unknown>;
    if (customerId != null) {
      const parsed = parseGlobalId(customerId);
      body.customer_id = parsed?.type === 'Customer' ? parsed.id : customerId;
    }
    if (expiresAt != null) body.expires_at = expiresAt.toISOString();
    return { paymentLink: PaymentLinkNode.from(await links.createPaymentLink(ctx, body)) };
  }

  @Mutation(() => CancelPaymentLinkPayload, {
    description: 'Cancel an active link; paid, expired and cancelled links are invalid_state',
  })
  async cancelPaymentLink(
    @Arg('input', () => CancelPaymentLinkInput) input: CancelPaymentLinkInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<CancelPaymentLinkPayload> {
    const body = input.reason != null ? { reason: input.reason } : {};
    return {
      paymentLink: PaymentLinkNode.from(
        await links.cancelPaymentLink(ctx, fromGlobalId(input.id, 'PaymentLink'), body),
      ),
    };
  }
}

@Authorized('payment_links')
@Resolver(() => OrderNode)
export class OrderPaymentLinkResolver {
  @FieldResolver(() => PaymentLinkNode, { nullable: true, description: 'The payment link this order paid (batched)' })
  async paymentLink(@Root() order: OrderNode, @Ctx() { ctx }: GraphContext): Promise<PaymentLinkNode | null> {
    const link = order.paymentLinkId ? await paymentLinkLoader(ctx).load(order.paymentLinkId) : null;
    return link ? PaymentLinkNode.from(link, links.effectiveLinkStatus(ctx, link)) : null;
  }
}
