import { Field, ObjectType } from 'type-graphql';
import { DisputeType, OrderNode } from '../orders/order.types.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';

/** The base of the disputes mutations' payloads: `userErrors` with these codes. */
const DisputeMutationPayload = mutationPayload('Dispute', ['validation_error', 'invalid_state', 'not_found']);

@ObjectType({ description: 'What acceptDispute and defendDispute answer: the dispute as recorded, and its order' })
export class DisputePayload extends DisputeMutationPayload {
  @Field(() => DisputeType, { nullable: true }) dispute!: DisputeType | null;
  @Field(() => OrderNode, { nullable: true, description: 'The disputed order' }) order!: OrderNode | null;
}
