import { Field, ObjectType } from 'type-graphql';
import { DisputeType, OrderNode } from '../orders/order.types.js';

@ObjectType({ description: 'What acceptDispute and defendDispute answer: the dispute as recorded, and its order' })
export class DisputePayload {
  @Field(() => DisputeType) dispute!: DisputeType;
  @Field(() => OrderNode, { description: 'The disputed order' }) order!: OrderNode;
}
