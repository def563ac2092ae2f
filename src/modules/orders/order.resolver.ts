import { Authorized, Arg, Args, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { thenMap } from '../../platform/graphql/loaders.js';
import { lookAhead } from '../../platform/graphql/look-ahead.js';
import { toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { fromGlobalId } from '../../platform/relay/global-id.js';
import { registerNodeType } from '../../platform/relay/node.js';
import { productLoader } from '../products/product.loaders.js';
import { ProductNode } from '../products/product.types.js';
import { disputeLoader, paymentsLoader } from './order.loaders.js';
import { readOrder, readOrderPage } from './order.read-model.js';
import { revenueByDay } from './order-stats.service.js';
import {
  DisputeType,
  OrderConnection,
  OrderLineItemType,
  OrderNode,
  OrdersArgs,
  PaymentType,
  RevenueDayType,
} from './order.types.js';
import { receiptUrl } from './receipt.service.js';

registerNodeType('Order', 'orders', async (ctx, id) => OrderNode.from(await readOrder(ctx, id)));

const paymentsOf = lookAhead(OrderNode, ['payments', 'payment'], paymentsLoader, (order) => order.orderId);
const disputeOf = lookAhead(OrderNode, ['dispute'], disputeLoader, (order) => order.orderId);
const productOf = lookAhead(OrderLineItemType, ['product'], productLoader, (item) => item.productId);

@Authorized('orders')
@Resolver(() => OrderNode)
export class OrderResolver {
  @Query(() => OrderNode, {
    nullable: true,
    description: 'An order by global id; null (with a not_found error) when this key cannot see it',
  })
  async order(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<OrderNode> {
    return OrderNode.from(await readOrder(ctx, fromGlobalId(id, 'Order')));
  }

  @Query(() => OrderConnection, { description: 'Orders, most recent first' })
  async orders(@Args() args: OrdersArgs, @Ctx() { ctx }: GraphContext): Promise<ConnectionShape<OrderNode>> {
    const page = toPageRequest(args, String);
    const filters = {
      status: args.status,
      payment_status: args.paymentStatus,
      customer_email: args.customerEmail ?? undefined,
      reference_id: args.referenceId ?? undefined,
      created_after: args.createdAfter ?? undefined,
      created_before: args.createdBefore ?? undefined,
    };
    return toConnection(await readOrderPage(ctx, filters, page, 'after'), args, (o) => OrderNode.from(o));
  }

  @Query(() => [RevenueDayType], {
    description: 'Revenue per UTC day for the last `days` days (today included), HSA/FSA vs regular, and refunds',
  })
  async revenueByDay(
    @Arg('days', () => Int, { defaultValue: 30 }) days: number,
    @Arg('currency', () => String, { defaultValue: 'usd' }) currency: string,
    @Ctx() { ctx }: GraphContext,
  ): Promise<RevenueDayType[]> {
    return revenueByDay(ctx, days, currency);
  }

  @FieldResolver(() => [PaymentType], { description: 'Every captured payment (a split order has two)' })
  payments(@Root() order: OrderNode, @Ctx() { ctx }: GraphContext): PaymentType[] | Promise<PaymentType[]> {
    return thenMap(paymentsOf(ctx, order), (payments) => payments.map((p) => PaymentType.from(p)));
  }

  @FieldResolver(() => PaymentType, {
    nullable: true,
    description: 'The HSA/FSA payment when there is one, else the card payment',
  })
  payment(@Root() order: OrderNode, @Ctx() { ctx }: GraphContext): PaymentType | null | Promise<PaymentType | null> {
    return thenMap(paymentsOf(ctx, order), (payments) => {
      const primary = payments.find((p) => p.paymentMethod === 'hsa_fsa_card') ?? payments[0];
      return primary ? PaymentType.from(primary) : null;
    });
  }

  @FieldResolver(() => DisputeType, {
    nullable: true,
    description: 'The latest dispute (chargeback) of the order, or null',
  })
  dispute(@Root() order: OrderNode, @Ctx() { ctx }: GraphContext): DisputeType | null | Promise<DisputeType | null> {
    return thenMap(disputeOf(ctx, order), (dispute) => (dispute ? DisputeType.from(dispute) : null));
  }

  @FieldResolver(() => String, { nullable: true, description: 'Signed link to the PDF receipt, valid one hour' })
  receiptUrl(@Root() order: OrderNode, @Ctx() { ctx }: GraphContext): Promise<string | null> {
    return receiptUrl(ctx, order.record);
  }
}

@Authorized('orders')
@Resolver(() => OrderLineItemType)
export class OrderLineItemResolver {
  @FieldResolver(() => ProductNode, {
    nullable: true,
    description: 'The catalog product now (null for a pass-through item)',
  })
  product(
    @Root() item: OrderLineItemType,
    @Ctx() { ctx }: GraphContext,
  ): ProductNode | null | Promise<ProductNode | null> {
    return thenMap(productOf(ctx, item), (product) => (product ? ProductNode.from(product) : null));
  }
}
