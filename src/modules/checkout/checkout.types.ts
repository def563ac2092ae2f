import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { healthcareOf } from './checkout-amounts.js';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql';
import { connectionType, CreatedRangeArgs } from '../../platform/relay/connection.js';
import { toGlobalId } from '../../platform/relay/global-id.js';
import { Node } from '../../platform/relay/node.js';
import { AddressType, Amounts } from '../shared/value.types.js';
import { CHECKOUT_STATUSES, CHECKOUT_TYPES, type CheckoutSession } from './checkout-session.entity.js';
import { checkoutUrl } from './checkout.resource.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';

/** The base of the checkout mutations' payloads: `userErrors` with these codes. */
const CheckoutMutationPayload = mutationPayload('Checkout', ['bad_request', 'validation_error']);

export const CheckoutStatusEnum = graphqlEnum('CheckoutStatus', CHECKOUT_STATUSES);

export const CheckoutTypeEnum = graphqlEnum(
  'CheckoutType',
  CHECKOUT_TYPES,
  'eligible: every item HSA/FSA eligible; split: a mix; regular: none',
);

@ObjectType()
export class CheckoutCustomerType {
  @Field() email!: string;
  @Field() firstName!: string;
  @Field() lastName!: string;
  @Field(() => String, { nullable: true }) phone!: string | null;
}

@ObjectType()
export class CheckoutLineItemType {
  @Field({ description: "The merchant's product id the item was submitted with" }) merchantProductId!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) imageUrl!: string | null;
  @Field(() => Int, { description: 'Unit price in cents' }) price!: number;
  @Field(() => Int) quantity!: number;
  @Field() currency!: string;
  @Field() hsaFsaEligible!: boolean;
  @Field() requiresLmn!: boolean;
  /** Numeric id of the matched catalog product (resolved to `product`). */
  matchedProductId!: number | null;
}

@ObjectType('CheckoutSession', { implements: Node })
export class CheckoutSessionNode extends Node {
  @Field({ description: 'The REST id (cs_…)' }) checkoutId!: string;
  @Field() livemode!: boolean;
  @Field({ description: 'Hosted page, with its access token' }) checkoutUrl!: string;
  @Field() referenceId!: string;
  @Field(() => CheckoutStatusEnum) status!: ValueOf<typeof CheckoutStatusEnum>;
  @Field(() => CheckoutTypeEnum) type!: ValueOf<typeof CheckoutTypeEnum>;
  @Field(() => CheckoutCustomerType) customer!: CheckoutCustomerType;
  @Field(() => [CheckoutLineItemType]) lineItems!: CheckoutLineItemType[];
  @Field(() => Amounts) amounts!: Amounts;
  @Field() currency!: string;
  @Field() requiresLmn!: boolean;
  @Field(() => AddressType, { nullable: true, description: 'Null for a payment link that collects no address' })
  shippingInfo!: AddressType | null;
  @Field(() => AddressType, { nullable: true }) billingInfo!: AddressType | null;
  @Field() successUrl!: string;
  @Field() failureUrl!: string;
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) paidAt!: Date | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  /** Id of the paid order (resolved to `order`). */
  orderId!: string | null;

  /** The graph's view of a session; `status` as the caller's clock sees it. */
  static from(s: CheckoutSession, status: CheckoutSession['status'] = s.status): CheckoutSessionNode {
    return Object.assign(new CheckoutSessionNode(), {
      id: toGlobalId('CheckoutSession', s.id),
      checkoutId: s.id,
      livemode: s.livemode,
      checkoutUrl: checkoutUrl(s),
      referenceId: s.referenceId,
      status,
      type: s.type,
      customer: Object.assign(new CheckoutCustomerType(), {
        email: s.customer.email,
        firstName: s.customer.first_name,
        lastName: s.customer.last_name,
        phone: s.customer.phone ?? null,
      }),
      lineItems: s.lineItems.map((l) =>
        Object.assign(new CheckoutLineItemType(), {
          merchantProductId: l.product_id,
          name: l.name,
          imageUrl: l.image_url ?? null,
          price: l.price,
          quantity: l.quantity,
          currency: l.currency,
          hsaFsaEligible: l.hsa_fsa_eligible,
          requiresLmn: l.requires_lmn,
          matchedProductId: l.matched_product_id,
        }),
      ),
      amounts: Amounts.from({ ...s.amounts, healthcare: healthcareOf(s.amounts) }),
      currency: s.currency,
      requiresLmn: s.lineItems.some((l) => l.requires_lmn),
      shippingInfo: AddressType.from(s.shippingInfo),
      billingInfo: AddressType.from(s.billingInfo),
      successUrl: s.successUrl,
      failureUrl: s.failureUrl,
      metadata: s.metadata,
      expiresAt: s.expiresAt,
      paidAt: s.paidAt,
      createdAt: s.createdAt,
      orderId: s.orderId,
    });
  }
}

export const CheckoutSessionConnection = connectionType('CheckoutSession', CheckoutSessionNode);

@ArgsType()
export class CheckoutSessionsArgs extends CreatedRangeArgs {
  @Field(() => CheckoutStatusEnum, {
    nullable: true,
    description: "At the caller's clock: OPEN leaves out sessions past their expiry",
  })
  status?: ValueOf<typeof CheckoutStatusEnum> | null;
}

@InputType()
export class AddressInput {
  @Field() addressLine1!: string;
  @Field(() => String, { nullable: true }) addressLine2?: string | null;
  @Field() city!: string;
  @Field() state!: string;
  @Field() postalCode!: string;
  @Field() country!: string;
}

@InputType()
export class CheckoutCustomerInput {
  @Field() email!: string;
  @Field() firstName!: string;
  @Field() lastName!: string;
  @Field(() => String, { nullable: true }) phone?: string | null;
}

@InputType()
export class CheckoutLineItemInput {
  @Field({
    description: "The merchant's product id (merchant_product_id); unmatched ids are regular pass-through items",
  })
  productId!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => Int, { description: 'Unit price in cents' }) price!: number;
  @Field(() => Int) quantity!: number;
  @Field() currency!: string;
}

@InputType()
export class CheckoutSubscriptionInput {
  @Field() interval!: string;
  @Field(() => Int, { nullable: true }) intervalCount?: number;
  @Field(() => Int, { nullable: true }) trialPeriodDays?: number;
}

@InputType()
export class CreateCheckoutSessionInput {
  @Field() referenceId!: string;
  @Field(() => CheckoutCustomerInput) customer!: CheckoutCustomerInput;
  @Field(() => [CheckoutLineItemInput]) lineItems!: CheckoutLineItemInput[];
  @Field(() => AddressInput) shippingInfo!: AddressInput;
  @Field(() => AddressInput, { nullable: true, description: 'Defaults to shippingInfo' }) billingInfo?: AddressInput;
  @Field(() => Int, { nullable: true }) shipping?: number;
  @Field(() => Int, { nullable: true }) tax?: number;
  @Field(() => Int, { nullable: true }) discount?: number;
  @Field() successUrl!: string;
  @Field() failureUrl!: string;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'metadata.webhook_url receives this checkout’s events',
  })
  metadata?: Record<string, unknown>;
  @Field(() => String, { nullable: true }) paymentType?: string;
  @Field(() => CheckoutSubscriptionInput, { nullable: true }) subscription?: CheckoutSubscriptionInput;
}

@ObjectType()
export class CreateCheckoutSessionPayload extends CheckoutMutationPayload {
  @Field(() => CheckoutSessionNode, { nullable: true }) checkoutSession!: CheckoutSessionNode | null;
}
