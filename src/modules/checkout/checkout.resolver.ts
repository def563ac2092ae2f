import { Authorized, Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { toServiceInputDeep } from '../../platform/graphql/input.js';
import { toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { fromGlobalId } from '../../platform/relay/global-id.js';
import { registerNodeType } from '../../platform/relay/node.js';
import { orderLoader } from '../orders/order.loaders.js';
import { OrderNode } from '../orders/order.types.js';
import { productLoader } from '../products/product.loaders.js';
import { ProductNode } from '../products/product.types.js';
import { checkoutLoader } from './checkout.loaders.js';
import * as checkout from './checkout.service.js';
import {
  CheckoutLineItemType,
  CheckoutSessionConnection,
  CheckoutSessionNode,
  CheckoutSessionsArgs,
  CreateCheckoutSessionInput,
  CreateCheckoutSessionPayload,
} from './checkout.types.js';

const present = async (ctx: GraphContext['ctx'], id: string) => {
  const session = await checkout.getCheckoutSession(ctx, id);
  return CheckoutSessionNode.from(session, checkout.effectiveStatus(ctx, session));
};

registerNodeType('CheckoutSession', 'checkout', present);

@Authorized('checkout')
@Resolver(() => CheckoutSessionNode)
export class CheckoutResolver {
  @Query(() => CheckoutSessionNode, {
    nullable: true,
    description: 'A checkout session by global id; null (with a not_found error) when this key cannot see it',
  })
  checkoutSession(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<CheckoutSessionNode> {
    return present(ctx, fromGlobalId(id, 'CheckoutSession'));
  }

  @Query(() => CheckoutSessionConnection, {
    description: "Checkout sessions, most recent first (status at the caller's clock)",
  })
  async checkoutSessions(
    @Args() args: CheckoutSessionsArgs,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ConnectionShape<CheckoutSessionNode>> {
    const filters = {
      status: args.status ?? undefined,
      created_after: args.createdAfter ?? undefined,
      created_before: args.createdBefore ?? undefined,
    };
    const result = await checkout.listCheckoutSessions(
      ctx,
      filters,
      toPageRequest(args, String),
      args.last != null ? 'before' : 'after',
    );
    return toConnection(result, args, (s) => CheckoutSessionNode.from(s, checkout.effectiveStatus(ctx, s)));
  }

  @Mutation(() => CreateCheckoutSessionPayload, {
    description: 'Create a checkout session; send the customer to checkoutUrl',
  })
  async createCheckoutSession(
    @Arg('input', () => CreateCheckoutSessionInput) input: CreateCheckoutSessionInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<CreateCheckoutSessionPayload> {
    return {
      checkoutSession: CheckoutSessionNode.from(await checkout.createCheckoutSession(ctx, toServiceInputDeep(input))),
    };
  }

  @FieldResolver(() => OrderNode, { nullable: true, description: 'The order, once paid' })
  async order(@Root() session: CheckoutSessionNode, @Ctx() { ctx }: GraphContext): Promise<OrderNode | null> {
    const order = session.orderId ? await orderLoader(ctx).load(session.orderId) : null;
    return order ? OrderNode.from(order) : null;
  }
}

/** An order's `checkoutSession` field: checkout extends the order, as refunds and payment links do. */
@Authorized('checkout')
@Resolver(() => OrderNode)
export class OrderCheckoutResolver {
  @FieldResolver(() => CheckoutSessionNode, { nullable: true })
  async checkoutSession(@Root() order: OrderNode, @Ctx() { ctx }: GraphContext): Promise<CheckoutSessionNode | null> {
    const session = order.checkoutId ? await checkoutLoader(ctx).load(order.checkoutId) : null;
    return session ? CheckoutSessionNode.from(session, checkout.effectiveStatus(ctx, session)) : null;
  }
}

@Authorized('checkout')
@Resolver(() => CheckoutLineItemType)
export class CheckoutLineItemResolver {
  @FieldResolver(() => ProductNode, {
    nullable: true,
    description: 'The matched catalog product (null for a pass-through item)',
  })
  async product(@Root() item: CheckoutLineItemType, @Ctx() { ctx }: GraphContext): Promise<ProductNode | null> {
    const product = item.matchedProductId != null ? await productLoader(ctx).load(item.matchedProductId) : null;
    return product ? ProductNode.from(product) : null;
  }
}
