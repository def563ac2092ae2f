import { Authorized, Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root, ID } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { toServiceInput } from '../../platform/graphql/input.js';
import { thenMap } from '../../platform/graphql/loaders.js';
import { lookAhead } from '../../platform/graphql/look-ahead.js';
import { paginateLoaded } from '../../platform/pagination/keyset.js';
import { ConnectionArgs, toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { fromGlobalId } from '../../platform/relay/global-id.js';
import { registerNodeType } from '../../platform/relay/node.js';
import { OrderNode } from '../orders/order.types.js';
import { refundsByOrderLoader } from './refund.loaders.js';
import * as refunds from './refund.service.js';
import { CreateRefundInput, CreateRefundPayload, RefundConnection, RefundNode, RefundsArgs } from './refund.types.js';

registerNodeType('Refund', 'refunds', async (ctx, id) => RefundNode.from(await refunds.getRefund(ctx, id)));

const refundsOf = lookAhead(OrderNode, ['refunds'], refundsByOrderLoader, (order) => order.orderId);

@Authorized('refunds')
@Resolver(() => RefundNode)
export class RefundResolver {
  @Query(() => RefundNode, {
    nullable: true,
    description: 'A refund by global id; null (with a not_found error) when this key cannot see it',
  })
  async refund(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<RefundNode> {
    return RefundNode.from(await refunds.getRefund(ctx, fromGlobalId(id, 'Refund')));
  }

  @Query(() => RefundConnection, { description: 'Refunds, most recent first' })
  async refunds(@Args() args: RefundsArgs, @Ctx() { ctx }: GraphContext): Promise<ConnectionShape<RefundNode>> {
    const filters = {
      order_id: args.orderId ? fromGlobalId(args.orderId, 'Order', 'orderId') : undefined,
      status: args.status,
    };
    return toConnection(await refunds.listRefunds(ctx, filters, toPageRequest(args, String), 'after'), args, (r) =>
      RefundNode.from(r),
    );
  }

  @Mutation(() => CreateRefundPayload, {
    description: 'Refund an order in full or in part (same rules as POST /api/v2/refunds)',
  })
  async createRefund(
    @Arg('input', () => CreateRefundInput) input: CreateRefundInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<CreateRefundPayload> {
    const body = { ...toServiceInput(input), order_id: fromGlobalId(input.orderId, 'Order', 'orderId') };
    return { refund: RefundNode.from(await refunds.createRefund(ctx, body)) };
  }
}

@Authorized('refunds')
@Resolver(() => OrderNode)
export class OrderRefundsResolver {
  @FieldResolver(() => RefundConnection, { description: "The order's refunds, newest first" })
  refunds(
    @Root() order: OrderNode,
    @Args() args: ConnectionArgs,
    @Ctx() { ctx }: GraphContext,
  ): ConnectionShape<RefundNode> | Promise<ConnectionShape<RefundNode>> {
    return thenMap(refundsOf(ctx, order), (all) =>
      toConnection(paginateLoaded(all, toPageRequest(args, String)), args, (r) => RefundNode.from(r)),
    );
  }
}
