import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { connectionType, CreatedRangeArgs } from '../../platform/relay/connection.js';
import { toGlobalId } from '../../platform/relay/global-id.js';
import { Node } from '../../platform/relay/node.js';
import { SubscriptionIntervalEnum } from '../subscriptions/subscription.types.js';
import {
  PAYMENT_LINK_STATUSES,
  PAYMENT_LINK_TYPES,
  type PaymentLink,
  type PaymentLinkStatus,
} from './payment-link.entity.js';
import { paymentLinkUrl } from './payment-link.resource.js';
import { PricedLineFields } from '../shared/value.types.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';

/** The base of the payment links mutations' payloads: `userErrors` with these codes. */
const PaymentLinkMutationPayload = mutationPayload('PaymentLink', [
  'validation_error',
  'invalid_state',
  'not_found',
  'customer_not_found',
]);

export const PaymentLinkStatusEnum = graphqlEnum('PaymentLinkStatus', PAYMENT_LINK_STATUSES);
export const PaymentLinkTypeEnum = graphqlEnum('PaymentLinkType', PAYMENT_LINK_TYPES);

@ObjectType({ description: 'Who a payment link is for' })
export class PaymentLinkCustomerType {
  @Field() email!: string;
  @Field() firstName!: string;
  @Field() lastName!: string;
}

@ObjectType({ description: 'A catalog product on a link, priced when the link was created' })
export class PaymentLinkProductType extends PricedLineFields {}

@ObjectType({ description: 'Billing of a subscription link' })
export class PaymentLinkSubscriptionType {
  @Field(() => SubscriptionIntervalEnum) interval!: ValueOf<typeof SubscriptionIntervalEnum>;
  @Field(() => Int) intervalCount!: number;
  @Field(() => Int) trialPeriodDays!: number;
}

@ObjectType('PaymentLink', {
  implements: Node,
  description: 'A shareable link to pay catalog products or a fixed amount',
})
export class PaymentLinkNode extends Node {
  @Field({ description: 'The REST id (plink_…)' }) paymentLinkId!: string;
  @Field() livemode!: boolean;
  @Field({ description: 'The hosted page; append ?client_reference_id=… to set it on the order' }) url!: string;
  @Field(() => Int, { description: 'Total in cents' }) amount!: number;
  @Field({ description: 'Lowercase ISO 4217' }) currency!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => PaymentLinkTypeEnum) paymentType!: ValueOf<typeof PaymentLinkTypeEnum>;
  @Field(() => PaymentLinkStatusEnum, { description: 'As of now (an active link past expiresAt is expired)' })
  status!: ValueOf<typeof PaymentLinkStatusEnum>;
  @Field(() => PaymentLinkCustomerType, { nullable: true }) customer!: PaymentLinkCustomerType | null;
  @Field(() => [PaymentLinkProductType]) products!: PaymentLinkProductType[];
  @Field({ description: 'The page asks the payer for a shipping address (required to pay)' })
  collectShippingAddress!: boolean;
  @Field({ description: 'The link’s checkout session (cs_…)' }) checkoutId!: string;
  @Field(() => String, { nullable: true }) successUrl!: string | null;
  @Field(() => String, { nullable: true }) cancelUrl!: string | null;
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
  @Field(() => PaymentLinkSubscriptionType, { nullable: true }) subscription!: PaymentLinkSubscriptionType | null;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) paidAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) cancelledAt!: Date | null;
  @Field(() => String, { nullable: true }) cancellationReason!: string | null;
  /** Resolved to `order` and `storedCustomer`. */
  orderId!: string | null;
  customerId!: string | null;

  static from(l: PaymentLink, status: PaymentLinkStatus = l.status): PaymentLinkNode {
    return Object.assign(new PaymentLinkNode(), {
      id: toGlobalId('PaymentLink', l.id),
      paymentLinkId: l.id,
      livemode: l.livemode,
      url: paymentLinkUrl(l.id),
      amount: l.amount,
      currency: l.currency,
      description: l.description,
      paymentType: l.paymentType,
      status,
      customer:
        l.customer &&
        Object.assign(new PaymentLinkCustomerType(), {
          email: l.customer.email,
          firstName: l.customer.first_name,
          lastName: l.customer.last_name,
        }),
      products: l.products.map((p) =>
        Object.assign(new PaymentLinkProductType(), {
          merchantProductId: p.merchant_product_id,
          name: p.name,
          quantity: p.quantity,
          price: p.price,
          hsaFsaEligible: p.hsa_fsa_eligible,
          requiresLmn: p.requires_lmn,
        }),
      ),
      collectShippingAddress: l.collectShippingAddress,
      checkoutId: l.checkoutId,
      successUrl: l.successUrl,
      cancelUrl: l.cancelUrl,
      metadata: l.metadata,
      subscription:
        l.subscription &&
        Object.assign(new PaymentLinkSubscriptionType(), {
          interval: l.subscription.interval,
          intervalCount: l.subscription.interval_count,
          trialPeriodDays: l.subscription.trial_period_days,
        }),
      expiresAt: l.expiresAt,
      createdAt: l.createdAt,
      paidAt: l.paidAt,
      cancelledAt: l.cancelledAt,
      cancellationReason: l.cancellationReason,
      orderId: l.orderId,
      customerId: l.customerId,
    });
  }
}

export const PaymentLinkConnection = connectionType('PaymentLink', PaymentLinkNode);

@ArgsType()
export class PaymentLinksArgs extends CreatedRangeArgs {
  @Field(() => PaymentLinkStatusEnum, { nullable: true }) status?: ValueOf<typeof PaymentLinkStatusEnum> | null;
  @Field(() => String, { nullable: true, description: 'Case-insensitive' }) customerEmail?: string | null;
  @Field(() => PaymentLinkTypeEnum, { nullable: true }) paymentType?: ValueOf<typeof PaymentLinkTypeEnum> | null;
}

@InputType()
export class PaymentLinkProductInput {
  @Field({ description: 'Your product id of an active catalog product' }) merchantProductId!: string;
  @Field(() => Int) quantity!: number;
}

@InputType()
export class PaymentLinkCustomerInput {
  @Field() email!: string;
  @Field() firstName!: string;
  @Field() lastName!: string;
}

@InputType()
export class PaymentLinkSubscriptionInput {
  @Field(() => SubscriptionIntervalEnum) interval!: ValueOf<typeof SubscriptionIntervalEnum>;
  @Field(() => Int, { nullable: true }) intervalCount?: number;
  @Field(() => Int, { nullable: true }) trialPeriodDays?: number;
}

@InputType({ description: 'Either products, or amount and description' })
export class CreatePaymentLinkInput {
  @Field(() => [PaymentLinkProductInput], { nullable: true }) products?: PaymentLinkProductInput[];
  @Field(() => Int, { nullable: true, description: 'A fixed total in cents (a regular pass-through line)' })
  amount?: number;
  @Field(() => String, { nullable: true }) description?: string;
  @Field() currency!: string;
  @Field(() => PaymentLinkCustomerInput, { nullable: true }) customer?: PaymentLinkCustomerInput;
  @Field(() => ID, { nullable: true, description: 'Global id of a stored customer, instead of customer' })
  customerId?: string;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Ask the payer for a shipping address (default: true with products, false for an amount)',
  })
  collectShippingAddress?: boolean;
  @Field(() => String, { nullable: true }) successUrl?: string;
  @Field(() => String, { nullable: true }) cancelUrl?: string;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Default 7 days from now, at most 90' })
  expiresAt?: Date;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
  @Field(() => PaymentLinkTypeEnum, { nullable: true }) paymentType?: ValueOf<typeof PaymentLinkTypeEnum>;
  @Field(() => PaymentLinkSubscriptionInput, { nullable: true }) subscription?: PaymentLinkSubscriptionInput;
}

@InputType()
export class CancelPaymentLinkInput {
  @Field(() => ID, { description: 'Global id of the link' }) id!: string;
  @Field(() => String, { nullable: true, description: 'At most 500 characters' }) reason?: string;
}

@ObjectType()
export class CreatePaymentLinkPayload extends PaymentLinkMutationPayload {
  @Field(() => PaymentLinkNode, { nullable: true }) paymentLink!: PaymentLinkNode | null;
}

@ObjectType()
export class CancelPaymentLinkPayload extends PaymentLinkMutationPayload {
  @Field(() => PaymentLinkNode, { nullable: true }) paymentLink!: PaymentLinkNode | null;
}
