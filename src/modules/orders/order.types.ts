import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { connectionType, CreatedRangeArgs } from '../../platform/relay/connection.js';
import { toGlobalId } from '../../platform/relay/global-id.js';
import { Node } from '../../platform/relay/node.js';
import { DISPUTE_STAGES, PAYMENT_METHOD_TYPES } from '../payments/payment-processor.js';
import { AddressType, Amounts, PricedLineFields } from '../shared/value.types.js';
import { ORDER_STATUSES, PAYMENT_STATUSES } from './order.entity.js';
import type { OrderDisputeRecord, OrderRecord, PaymentRecord } from './order.read-model.js';

export const OrderStatusEnum = graphqlEnum('OrderStatus', ORDER_STATUSES, 'Fulfilment status');

export const PaymentStatusEnum = graphqlEnum('PaymentStatus', PAYMENT_STATUSES);

export const PaymentMethodEnum = graphqlEnum('PaymentMethodType', PAYMENT_METHOD_TYPES);

export const DisputeStageEnum = graphqlEnum(
  'DisputeStage',
  DISPUTE_STAGES,
  "A dispute's stage: opened (no money moved), confirmed (money taken back), reversed (won)",
);

@ObjectType()
export class OrderCustomerType {
  @Field() email!: string;
  @Field() firstName!: string;
  @Field() lastName!: string;
  @Field(() => String, { nullable: true }) phone!: string | null;
  @Field(() => AddressType, {
    nullable: true,
    description: 'Null when none was collected (a payment link that ships nothing, a subscription renewal)',
  })
  shippingAddress!: AddressType | null;
  @Field(() => AddressType, { nullable: true }) billingAddress!: AddressType | null;
}

@ObjectType({ description: 'A line of the order, as it was at purchase' })
export class OrderLineItemType extends PricedLineFields {
  @Field() id!: string;
  @Field(() => Int, { nullable: true, description: 'Numeric id of the catalog product; null for a pass-through item' })
  productId!: number | null;
  @Field() isRecurring!: boolean;
}

@ObjectType('Payment')
export class PaymentType {
  @Field() paymentId!: string;
  @Field(() => PaymentMethodEnum) paymentMethod!: ValueOf<typeof PaymentMethodEnum>;
  @Field() brand!: string;
  @Field() last4!: string;
  @Field(() => Int) amount!: number;
  @Field(() => Int) refundedAmount!: number;
  @Field(() => GraphQLISODateTime) capturedAt!: Date;
  @Field({ description: "The processor's reference of the captured payment (Adyen's pspReference in live mode)" })
  pspReference!: string;

  static from(p: PaymentRecord): PaymentType {
    return Object.assign(new PaymentType(), {
      paymentId: p.id,
      paymentMethod: p.paymentMethod,
      brand: p.brand,
      last4: p.last4,
      amount: p.amount,
      refundedAmount: p.refundedAmount,
      capturedAt: p.capturedAt,
      pspReference: p.captureId,
    });
  }
}

@ObjectType('Dispute', {
  description: "A cardholder's dispute (chargeback) of the order's payment, as the processor reported it",
})
export class DisputeType {
  @Field({ description: 'The REST id (dp_…)' }) disputeId!: string;
  @Field(() => DisputeStageEnum) stage!: ValueOf<typeof DisputeStageEnum>;
  @Field(() => Int, { description: 'Cents disputed' }) amount!: number;
  @Field({ description: 'Lowercase ISO code' }) currency!: string;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field({ description: "The processor's event code of the latest notification, e.g. CHARGEBACK" }) eventCode!: string;
  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the defence period ends, when the processor sent it',
  })
  defenseDueAt!: Date | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether the processor lets the merchant defend it; null when it did not say',
  })
  defendable!: boolean | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) acceptedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) defendedAt!: Date | null;
  @Field(() => String, { nullable: true }) defenseReasonCode!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;

  static from(d: OrderDisputeRecord): DisputeType {
    return Object.assign(new DisputeType(), {
      disputeId: d.id,
      stage: d.stage,
      amount: d.amount,
      currency: d.currency,
      reason: d.reason,
      eventCode: d.eventCode,
      defenseDueAt: d.defenseDueAt,
      defendable: d.defendable,
      acceptedAt: d.acceptedAt,
      defendedAt: d.defendedAt,
      defenseReasonCode: d.defenseReasonCode,
      createdAt: d.createdAt,
      updatedAt: d.updatedAt,
    });
  }
}

@ObjectType('StatusChange')
export class StatusChangeType {
  @Field() status!: string;
  @Field(() => GraphQLISODateTime) timestamp!: Date;
  @Field() reason!: string;
}

@ObjectType('Order', { implements: Node })
export class OrderNode extends Node {
  @Field({ description: 'The REST id (ord_…)' }) orderId!: string;
  @Field() livemode!: boolean;
  @Field() orderNumber!: string;
  @Field(() => String, { nullable: true }) checkoutId!: string | null;
  @Field(() => String, { nullable: true }) referenceId!: string | null;
  @Field(() => String, { nullable: true }) paymentLinkId!: string | null;
  @Field(() => String, { nullable: true }) clientReferenceId!: string | null;
  @Field(() => OrderStatusEnum) status!: ValueOf<typeof OrderStatusEnum>;
  @Field(() => PaymentStatusEnum) paymentStatus!: ValueOf<typeof PaymentStatusEnum>;
  @Field() isRecurring!: boolean;
  @Field(() => Int, { description: 'Total in cents' }) amount!: number;
  @Field({ description: 'Lowercase ISO code' }) currency!: string;
  @Field(() => OrderCustomerType) customer!: OrderCustomerType;
  @Field(() => [OrderLineItemType]) lineItems!: OrderLineItemType[];
  @Field(() => Amounts) amounts!: Amounts;
  @Field(() => [StatusChangeType]) statusHistory!: StatusChangeType[];
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'How items that need a letter of medical necessity are covered: items, review {id,status}, letter_id',
  })
  lmn!: Record<string, unknown> | null;
  @Field(() => String, { nullable: true }) failureReason!: string | null;
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) completedAt!: Date | null;
  /** The order as read, for field resolvers. */
  record!: OrderRecord;

  static from(o: OrderRecord): OrderNode {
    const c = o.customer;
    return Object.assign(new OrderNode(), {
      id: toGlobalId('Order', o.id),
      orderId: o.id,
      livemode: o.livemode,
      orderNumber: o.orderNumber,
      checkoutId: o.checkoutId,
      referenceId: o.referenceId,
      paymentLinkId: o.paymentLinkId,
      clientReferenceId: o.clientReferenceId,
      status: o.status,
      paymentStatus: o.paymentStatus,
      isRecurring: o.isRecurring,
      amount: o.amount,
      currency: o.currency,
      customer: Object.assign(new OrderCustomerType(), {
        email: c.email,
        firstName: c.first_name,
        lastName: c.last_name,
        phone: c.phone,
        shippingAddress: AddressType.from(c.shipping_address),
        billingAddress: AddressType.from(c.billing_address),
      }),
      lineItems: o.lineItems.map((l) =>
        Object.assign(new OrderLineItemType(), {
          id: l.id,
          productId: l.product_id,
          merchantProductId: l.merchant_product_id,
          name: l.name,
          quantity: l.quantity,
          price: l.price,
          hsaFsaEligible: l.hsa_fsa_eligible,
          requiresLmn: l.requires_lmn,
          isRecurring: l.is_recurring,
        }),
      ),
      amounts: Amounts.from(o.amounts),
      statusHistory: o.statusHistory.map((h) =>
        Object.assign(new StatusChangeType(), { status: h.status, timestamp: new Date(h.timestamp), reason: h.reason }),
      ),
      lmn: o.lmn as Record<string, unknown> | null,
      failureReason: o.failureReason,
      metadata: o.metadata,
      createdAt: o.createdAt,
      completedAt: o.completedAt,
      record: o,
    });
  }
}

export const OrderConnection = connectionType('Order', OrderNode);

@ArgsType()
export class OrdersArgs extends CreatedRangeArgs {
  @Field(() => OrderStatusEnum, { nullable: true }) status?: ValueOf<typeof OrderStatusEnum>;
  @Field(() => PaymentStatusEnum, { nullable: true }) paymentStatus?: ValueOf<typeof PaymentStatusEnum>;
  @Field(() => String, { nullable: true }) customerEmail?: string;
  @Field(() => String, { nullable: true }) referenceId?: string;
}

@ObjectType('RevenueDay', {
  description:
    'Captured revenue of one UTC day in one currency (cents), HSA/FSA vs regular cards, and the refunds that succeeded that day',
})
export class RevenueDayType {
  @Field({ description: 'YYYY-MM-DD (UTC)' }) day!: string;
  @Field(() => Int) hsaFsa!: number;
  @Field(() => Int) regular!: number;
  @Field(() => Int) refunds!: number;
}
