import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { connectionType, CreatedRangeArgs } from '../../platform/relay/connection.js';
import { toGlobalId } from '../../platform/relay/global-id.js';
import { Node } from '../../platform/relay/node.js';
import { PaymentMethodEnum } from '../orders/order.types.js';
import type { Customer, PaymentMethod } from './customer.entity.js';
import { setupLinkUrl } from './customer.resource.js';
import {
  SETUP_LINK_STATUSES,
  setupLinkStatusAt,
  type PaymentMethodSetupLink,
} from './payment-method-setup-link.entity.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';

/** The base of the customers and payment methods mutations' payloads: `userErrors` with these codes. */
const CustomerMutationPayload = mutationPayload('Customer', [
  'validation_error',
  'not_found',
  'invalid_payment_method',
  'invalid_state',
]);

@ObjectType('Customer', { implements: Node, description: 'A customer of the merchant, with stored cards' })
export class CustomerNode extends Node {
  @Field({ description: 'The REST id (cus_…)' }) customerId!: string;
  @Field() livemode!: boolean;
  @Field() email!: string;
  @Field() firstName!: string;
  @Field() lastName!: string;
  @Field(() => String, { nullable: true }) phone!: string | null;
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;

  static from(c: Customer): CustomerNode {
    return Object.assign(new CustomerNode(), {
      id: toGlobalId('Customer', c.id),
      customerId: c.id,
      livemode: c.livemode,
      email: c.email,
      firstName: c.firstName,
      lastName: c.lastName,
      phone: c.phone,
      metadata: c.metadata,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    });
  }
}

export const CustomerConnection = connectionType('Customer', CustomerNode);

@ObjectType('PaymentMethod', {
  implements: Node,
  description: 'A verified card stored for a customer (token, brand, last 4, expiry and type only)',
})
export class PaymentMethodNode extends Node {
  @Field({ description: 'The REST id (pm_…)' }) paymentMethodId!: string;
  @Field() livemode!: boolean;
  @Field({ description: 'The REST id of its customer (cus_…)' }) customerId!: string;
  @Field(() => PaymentMethodEnum) type!: ValueOf<typeof PaymentMethodEnum>;
  @Field() brand!: string;
  @Field() last4!: string;
  @Field(() => Int) expMonth!: number;
  @Field(() => Int) expYear!: number;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Set once detached' }) detachedAt!: Date | null;

  static from(pm: PaymentMethod): PaymentMethodNode {
    return Object.assign(new PaymentMethodNode(), {
      id: toGlobalId('PaymentMethod', pm.id),
      paymentMethodId: pm.id,
      livemode: pm.livemode,
      customerId: pm.customer.id,
      type: pm.type,
      brand: pm.brand,
      last4: pm.last4,
      expMonth: pm.expMonth,
      expYear: pm.expYear,
      createdAt: pm.createdAt,
      detachedAt: pm.detachedAt,
    });
  }
}

@ArgsType()
export class CustomersArgs extends CreatedRangeArgs {
  @Field(() => String, { nullable: true, description: 'Exact email, case-insensitive' }) email?: string | null;
}

@InputType()
export class CreateCustomerInput {
  @Field() email!: string;
  @Field() firstName!: string;
  @Field() lastName!: string;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

@InputType()
export class UpdateCustomerInput {
  @Field(() => ID, { description: 'Global id of the customer' }) id!: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true }) firstName?: string;
  @Field(() => String, { nullable: true }) lastName?: string;
  @Field(() => String, { nullable: true, description: 'null clears it' }) phone?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Replaces the stored metadata' }) metadata?: Record<
    string,
    unknown
  >;
}

@InputType({
  description: 'A card as the contract defines it; only its token, brand, last 4, expiry and type are kept',
})
export class CardInputType {
  @Field() number!: string;
  @Field(() => Int) expMonth!: number;
  @Field(() => Int) expYear!: number;
  @Field() cvc!: string;
}

@InputType()
export class AttachPaymentMethodInput {
  @Field(() => ID, { description: 'Global id of the customer' }) customerId!: string;
  @Field(() => CardInputType) card!: CardInputType;
}

@InputType()
export class DetachPaymentMethodInput {
  @Field(() => ID, { description: 'Global id of the payment method' }) id!: string;
}

@ObjectType()
export class CreateCustomerPayload extends CustomerMutationPayload {
  @Field(() => CustomerNode, { nullable: true }) customer!: CustomerNode | null;
}

@ObjectType()
export class UpdateCustomerPayload extends CustomerMutationPayload {
  @Field(() => CustomerNode, { nullable: true }) customer!: CustomerNode | null;
}

@ObjectType()
export class AttachPaymentMethodPayload extends CustomerMutationPayload {
  @Field(() => PaymentMethodNode, { nullable: true }) paymentMethod!: PaymentMethodNode | null;
}

@ObjectType()
export class DetachPaymentMethodPayload extends CustomerMutationPayload {
  @Field(() => PaymentMethodNode, { nullable: true }) paymentMethod!: PaymentMethodNode | null;
}

export const SetupLinkStatusEnum = graphqlEnum('PaymentMethodSetupLinkStatus', SETUP_LINK_STATUSES);

@ObjectType('PaymentMethodSetupLink', {
  implements: Node,
  description:
    "A one-time hosted page (24 h) where the shopper enters a card for a customer; with subscriptionId, a card-update link whose card replaces that subscription's",
})
export class PaymentMethodSetupLinkNode extends Node {
  @Field({ description: 'The REST id (pmsl_…)' }) setupLinkId!: string;
  @Field() livemode!: boolean;
  @Field({ description: 'The REST id of the customer the card is stored for (cus_…)' }) customerId!: string;
  @Field(() => String, {
    nullable: true,
    description: 'A card-update link: the REST id of the subscription it updates (sub_…)',
  })
  subscriptionId!: string | null;
  @Field({ description: 'The hosted page to send the shopper to (with its access token)' }) url!: string;
  @Field(() => SetupLinkStatusEnum, { description: 'As of now (an open link past expiresAt is expired)' })
  status!: ValueOf<typeof SetupLinkStatusEnum>;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) usedAt!: Date | null;
  @Field(() => String, {
    nullable: true,
    description: 'The REST id of the card stored through the link (pm_…), once used',
  })
  paymentMethodId!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;

  static from(link: PaymentMethodSetupLink, now: Date): PaymentMethodSetupLinkNode {
    return Object.assign(new PaymentMethodSetupLinkNode(), {
      id: toGlobalId('PaymentMethodSetupLink', link.id),
      setupLinkId: link.id,
      livemode: link.livemode,
      customerId: link.customerId,
      subscriptionId: link.subscriptionId,
      url: setupLinkUrl(link),
      status: setupLinkStatusAt(link, now),
      expiresAt: link.expiresAt,
      usedAt: link.usedAt,
      paymentMethodId: link.paymentMethodId,
      createdAt: link.createdAt,
    });
  }
}

@InputType()
export class CreatePaymentMethodSetupLinkInput {
  @Field(() => ID, { description: 'Global id of the customer' }) customerId!: string;
}

@ObjectType()
export class PaymentMethodSetupLinkPayload extends CustomerMutationPayload {
  @Field(() => PaymentMethodSetupLinkNode, { nullable: true }) setupLink!: PaymentMethodSetupLinkNode | null;
}
