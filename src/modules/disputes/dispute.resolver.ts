import { Authorized, Arg, Ctx, Extensions, ID, Mutation, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../platform/context.js';
import type { GraphContext } from '../../platform/graphql/context.js';
import { fromGlobalId } from '../../platform/relay/global-id.js';
import type { OrderDisputeRecord } from '../orders/order.read-model.js';
import { readOrder } from '../orders/order.read-model.js';
import { DisputeType, OrderNode } from '../orders/order.types.js';
import * as disputes from './dispute.service.js';
import { DisputePayload } from './dispute.types.js';

const orderIdOf = (orderId: string) => fromGlobalId(orderId, 'Order', 'orderId');

async function payload(ctx: ServiceContext, dispute: OrderDisputeRecord) {
  return { dispute: DisputeType.from(dispute), order: OrderNode.from(await readOrder(ctx, dispute.orderId)) };
}

@Authorized('orders')
@Resolver()
export class DisputeResolver {
  @Mutation(() => DisputePayload, {
    description:
      "Accept the order's open dispute at the processor (the chargeback stands); same rules as POST /api/v2/orders/{id}/dispute/accept",
  })
  @Extensions({ ownTransactions: true }) // calls the processor: never inside one transaction
  async acceptDispute(
    @Arg('orderId', () => ID) orderId: string,
    @Ctx() { ctx }: GraphContext,
  ): Promise<DisputePayload> {
    return payload(ctx, await disputes.acceptDispute(ctx, orderIdOf(orderId)));
  }

  @Mutation(() => DisputePayload, {
    description:
      "Defend the order's open dispute at the processor; same rules as POST /api/v2/orders/{id}/dispute/defend",
  })
  @Extensions({ ownTransactions: true }) // calls the processor: never inside one transaction
  async defendDispute(
    @Arg('orderId', () => ID) orderId: string,
    @Arg('defenseReasonCode', () => String) defenseReasonCode: string,
    @Ctx() { ctx }: GraphContext,
  ): Promise<DisputePayload> {
    return payload(
      ctx,
      await disputes.defendDispute(ctx, orderIdOf(orderId), { defense_reason_code: defenseReasonCode }),
    );
  }
}
