import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { ConnectionArgs, connectionType } from '../../platform/relay/connection.js';
import { toGlobalId } from '../../platform/relay/global-id.js';
import { Node } from '../../platform/relay/node.js';
import { PaymentMethodEnum } from '../orders/order.types.js';
import { REFUND_REASONS, REFUND_STATUSES } from './refund.entity.js';
import type { RefundRecord } from './refund.read-model.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';

/** The base of the refunds mutations' payloads: `userErrors` with these codes. */
const RefundMutationPayload = mutationPayload('Refund', [
  'validation_error',
  'invalid_amount',
  'already_refunded',
  'invalid_state',
  'not_found',
]);

export const RefundStatusEnum = graphqlEnum('RefundStatus', REFUND_STATUSES);

export const RefundReasonEnum = graphqlEnum('RefundReason', REFUND_REASONS);

@ObjectType()
export class RefundBreakdown {
  @Field(() => Int) hsaAmount!: number;
  @Field(() => Int) regularAmount!: number;
}

@ObjectType({ description: 'What one payment got back' })
export class RefundPartType {
  @Field() paymentId!: string;
  @Field(() => PaymentMethodEnum) paymentMethod!: ValueOf<typeof PaymentMethodEnum>;
  @Field(() => Int) amount!: number;
  @Field({ description: 'This payment’s refund (rp_…), set from creation' }) refundId!: string;
  @Field(() => String, { nullable: true, description: 'The processor’s reference, once processed' })
  processorRefundId!: string | null;
  @Field(() => Boolean, { nullable: true, description: 'null while pending' }) success!: boolean | null;
}

@ObjectType('Refund', { implements: Node })
export class RefundNode extends Node {
  @Field({ description: 'The REST id (re_…)' }) refundId!: string;
  @Field() livemode!: boolean;
  @Field() orderId!: string;
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
  @Field(() => RefundReasonEnum) reason!: ValueOf<typeof RefundReasonEnum>;
  @Field(() => String, { nullable: true }) notes!: string | null;
  @Field(() => RefundStatusEnum) status!: ValueOf<typeof RefundStatusEnum>;
  @Field(() => RefundBreakdown) refundBreakdown!: RefundBreakdown;
  @Field(() => [RefundPartType]) refunds!: RefundPartType[];
  @Field(() => String, { nullable: true }) failureReason!: string | null;
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) processedAt!: Date | null;

  static from(r: RefundRecord): RefundNode {
    return Object.assign(new RefundNode(), {
      id: toGlobalId('Refund', r.id),
      refundId: r.id,
      livemode: r.livemode,
      orderId: r.orderId,
      amount: r.amount,
      currency: r.currency,
      reason: r.reason,
      notes: r.notes,
      status: r.status,
      refundBreakdown: Object.assign(new RefundBreakdown(), { hsaAmount: r.hsaAmount, regularAmount: r.regularAmount }),
      refunds: r.parts.map((p) =>
        Object.assign(new RefundPartType(), {
          paymentId: p.payment_id,
          paymentMethod: p.payment_method,
          amount: p.amount,
          refundId: p.refund_id,
          processorRefundId: p.processor_refund_id ?? null,
          success: p.success,
        }),
      ),
      failureReason: r.failureReason,
      metadata: r.metadata,
      createdAt: r.createdAt,
      processedAt: r.processedAt,
    });
  }
}

export const RefundConnection = connectionType('Refund', RefundNode);

@ArgsType()
export class RefundsArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Only refunds of this order (global id)' }) orderId?: string;
  @Field(() => RefundStatusEnum, { nullable: true }) status?: ValueOf<typeof RefundStatusEnum>;
}

@InputType()
export class CreateRefundInput {
  @Field(() => ID, { description: 'Global id of the order' }) orderId!: string;
  @Field(() => Int, { nullable: true, description: 'Cents; omit to refund the whole remaining amount' })
  amount?: number;
  @Field(() => RefundReasonEnum) reason!: ValueOf<typeof RefundReasonEnum>;
  @Field(() => String, { nullable: true }) notes?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

@ObjectType()
export class CreateRefundPayload extends RefundMutationPayload {
  @Field(() => RefundNode, { nullable: true }) refund!: RefundNode | null;
}
