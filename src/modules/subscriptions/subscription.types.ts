import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { connectionType, CreatedRangeArgs } from '../../platform/relay/connection.js';
import { toGlobalId } from '../../platform/relay/global-id.js';
import { Node } from '../../platform/relay/node.js';
import { INTERVALS } from './subscription-calendar.js';
import {
  ATTEMPT_STATUSES,
  INVOICE_STATUSES,
  type Subscription,
  type SubscriptionInvoice,
  type SubscriptionInvoiceAttempt,
} from './subscription.entity.js';
import { DISPOSITIONS, SUBSCRIPTION_STATUSES } from './subscription-lifecycle.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';
import { PaymentMethodSetupLinkNode } from '../customers/customer.types.js';

/** The base of the subscriptions mutations' payloads: `userErrors` with these codes. */
const SubscriptionMutationPayload = mutationPayload('Subscription', [
  'invalid_request',
  'validation_error',
  'invalid_payment_method',
  'invalid_state',
  'not_found',
  'customer_not_found',
]);

export const SubscriptionStatusEnum = graphqlEnum('SubscriptionStatus', SUBSCRIPTION_STATUSES);
export const SubscriptionIntervalEnum = graphqlEnum('SubscriptionInterval', INTERVALS);
export const SubscriptionInvoiceStatusEnum = graphqlEnum(
  'SubscriptionInvoiceStatus',
  INVOICE_STATUSES,
  'open: being collected; paid; uncollectible: retries exhausted or refused for good; void: the subscription ended first',
);
export const InvoiceAttemptStatusEnum = graphqlEnum('SubscriptionInvoiceAttemptStatus', ATTEMPT_STATUSES);
export const PaymentDispositionEnum = graphqlEnum(
  'PaymentDisposition',
  DISPOSITIONS,
  'What the service does after a refused cycle charge',
);

@ObjectType('SubscriptionInvoiceAttempt', { description: 'One processor call of a cycle' })
export class SubscriptionInvoiceAttemptType {
  @Field() attemptId!: string;
  @Field(() => Int) attempt!: number;
  @Field(() => InvoiceAttemptStatusEnum) status!: ValueOf<typeof InvoiceAttemptStatusEnum>;
  @Field(() => Int) amount!: number;
  @Field() paymentMethodId!: string;
  @Field(() => String, { nullable: true }) pspReference!: string | null;
  @Field(() => PaymentDispositionEnum, { nullable: true }) disposition!: ValueOf<typeof PaymentDispositionEnum> | null;
  @Field(() => String, { nullable: true }) refusalCode!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;

  static from(a: SubscriptionInvoiceAttempt): SubscriptionInvoiceAttemptType {
    return Object.assign(new SubscriptionInvoiceAttemptType(), {
      attemptId: a.id,
      attempt: a.attempt,
      status: a.status,
      amount: a.amount,
      paymentMethodId: a.paymentMethodId,
      pspReference: a.pspReference,
      disposition: a.disposition,
      refusalCode: a.refusalCode,
      createdAt: a.createdAt,
    });
  }
}

@ObjectType('SubscriptionInvoice', {
  implements: Node,
  description: 'One billing cycle of a subscription (unique per period)',
})
export class SubscriptionInvoiceNode extends Node {
  @Field({ description: 'The REST id (in_…)' }) invoiceId!: string;
  @Field() livemode!: boolean;
  @Field() subscriptionId!: string;
  @Field(() => GraphQLISODateTime) periodStart!: Date;
  @Field(() => GraphQLISODateTime) periodEnd!: Date;
  @Field(() => Int) amount!: number;
  @Field(() => Int) amountPaid!: number;
  @Field() currency!: string;
  @Field(() => SubscriptionInvoiceStatusEnum) status!: ValueOf<typeof SubscriptionInvoiceStatusEnum>;
  @Field(() => Int) attemptCount!: number;
  @Field(() => GraphQLISODateTime, { nullable: true }) nextRetryAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'The order this cycle made (ord_…), once paid' }) orderId!:
    string | null;
  @Field(() => String, { nullable: true, description: 'Processor reference of the capture' }) pspReference!:
    string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) paidAt!: Date | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;

  static from(i: SubscriptionInvoice): SubscriptionInvoiceNode {
    return Object.assign(new SubscriptionInvoiceNode(), {
      id: toGlobalId('SubscriptionInvoice', i.id),
      invoiceId: i.id,
      livemode: i.livemode,
      subscriptionId: i.subscriptionId,
      periodStart: i.periodStart,
      periodEnd: i.periodEnd,
      amount: i.amount,
      amountPaid: i.status === 'paid' ? i.amount : 0,
      currency: i.currency,
      status: i.status,
      attemptCount: i.attemptCount,
      nextRetryAt: i.nextRetryAt,
      orderId: i.orderId,
      pspReference: i.pspReference,
      paidAt: i.paidAt,
      createdAt: i.createdAt,
    });
  }
}

export const SubscriptionInvoiceConnection = connectionType('SubscriptionInvoice', SubscriptionInvoiceNode);

@ObjectType('SubscriptionContract', {
  implements: Node,
  description: "A customer's recurring subscription (named so because the root `Subscription` type is graphql-ws's)",
})
export class SubscriptionContractNode extends Node {
  @Field({ description: 'The REST id (sub_…)' }) subscriptionId!: string;
  @Field() livemode!: boolean;
  @Field({ description: 'The REST id of its customer (cus_…)' }) customerId!: string;
  @Field({ description: 'The REST id of the card it charges (pm_…)' }) paymentMethodId!: string;
  @Field(() => SubscriptionStatusEnum) status!: ValueOf<typeof SubscriptionStatusEnum>;
  @Field(() => Int, { nullable: true }) productId!: number | null;
  @Field(() => String, { nullable: true }) merchantProductId!: string | null;
  @Field({ description: 'What it sells: its product name (or the checkout’s items)' }) description!: string;
  @Field(() => Int, { description: 'Cents charged per cycle' }) amountCents!: number;
  @Field() currency!: string;
  @Field(() => SubscriptionIntervalEnum) interval!: ValueOf<typeof SubscriptionIntervalEnum>;
  @Field(() => Int) intervalCount!: number;
  @Field(() => Int, { nullable: true }) trialPeriodDays!: number | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) trialEnd!: Date | null;
  @Field(() => GraphQLISODateTime) currentPeriodStart!: Date;
  @Field(() => GraphQLISODateTime) currentPeriodEnd!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Next renewal, retry or scheduled end' })
  nextBillingDate!: Date | null;
  @Field() cancelAtPeriodEnd!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) cancelledAt!: Date | null;
  @Field(() => String, { nullable: true }) cancellationReason!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it actually ended' }) endedAt!: Date | null;
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
  latestInvoiceId!: string | null;

  static from(s: Subscription): SubscriptionContractNode {
    return Object.assign(new SubscriptionContractNode(), {
      id: toGlobalId('SubscriptionContract', s.id),
      subscriptionId: s.id,
      livemode: s.livemode,
      customerId: s.customerId,
      paymentMethodId: s.paymentMethodId,
      status: s.status,
      productId: s.productId,
      description: s.description,
      merchantProductId: s.merchantProductId,
      amountCents: s.amountCents,
      currency: s.currency,
      interval: s.interval,
      intervalCount: s.intervalCount,
      trialPeriodDays: s.trialPeriodDays,
      trialEnd: s.trialEnd,
      currentPeriodStart: s.currentPeriodStart,
      currentPeriodEnd: s.currentPeriodEnd,
      nextBillingDate: s.nextChargeAt,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      cancelledAt: s.cancelledAt,
      cancellationReason: s.cancellationReason,
      endedAt: s.endedAt,
      metadata: s.metadata,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      latestInvoiceId: s.latestInvoiceId,
    });
  }
}

export const SubscriptionContractConnection = connectionType('SubscriptionContract', SubscriptionContractNode);

@ArgsType()
export class SubscriptionsArgs extends CreatedRangeArgs {
  @Field(() => SubscriptionStatusEnum, { nullable: true }) status?: ValueOf<typeof SubscriptionStatusEnum> | null;
  @Field(() => ID, { nullable: true, description: 'Only subscriptions of this customer (global id)' }) customerId?:
    string | null;
}

@InputType()
export class CreateSubscriptionInput {
  @Field(() => ID, { description: 'Global id of the customer' }) customerId!: string;
  @Field(() => ID, { description: 'Global id of one of their stored payment methods' }) paymentMethodId!: string;
  @Field(() => Int, { nullable: true }) productId?: number;
  @Field(() => String, { nullable: true }) merchantProductId?: string;
  @Field(() => Int) amountCents!: number;
  @Field() currency!: string;
  @Field(() => SubscriptionIntervalEnum) interval!: ValueOf<typeof SubscriptionIntervalEnum>;
  @Field(() => Int, { nullable: true }) intervalCount?: number;
  @Field(() => Int, { nullable: true }) trialPeriodDays?: number;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

@InputType()
export class UpdateSubscriptionInput {
  @Field(() => ID) id!: string;
  @Field(() => Int, { nullable: true, description: 'From the next cycle on' }) amountCents?: number;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
  @Field(() => Boolean, { nullable: true }) cancelAtPeriodEnd?: boolean;
}

@InputType()
export class CancelSubscriptionInput {
  @Field(() => ID) id!: string;
  @Field(() => Boolean, { nullable: true, description: 'false (default): now; true: at current_period_end' })
  cancelAtPeriodEnd?: boolean;
  @Field(() => String, { nullable: true }) reason?: string;
}

@InputType()
export class ResumeSubscriptionInput {
  @Field(() => ID) id!: string;
}

@InputType()
export class CreateCardUpdateLinkInput {
  @Field(() => ID, { description: 'Global id of the subscription' }) subscriptionId!: string;
}

@InputType()
export class ReplaceSubscriptionPaymentMethodInput {
  @Field(() => ID) id!: string;
  @Field(() => ID, { description: 'Global id of the new payment method' }) paymentMethodId!: string;
}

@ObjectType()
export class SubscriptionContractPayload extends SubscriptionMutationPayload {
  @Field(() => SubscriptionContractNode, { nullable: true }) subscription!: SubscriptionContractNode | null;
}

@ObjectType({ description: "A card-update link: the hosted page where the shopper replaces the subscription's card" })
export class CardUpdateLinkPayload extends SubscriptionMutationPayload {
  @Field(() => PaymentMethodSetupLinkNode, { nullable: true }) setupLink!: PaymentMethodSetupLinkNode | null;
}
