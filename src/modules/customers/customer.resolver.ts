import {
  Authorized,
  Arg,
  Args,
  Ctx,
  Extensions,
  FieldResolver,
  ID,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { toServiceInput, toServiceInputDeep } from '../../platform/graphql/input.js';
import { ConnectionArgs, toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { fromGlobalId } from '../../platform/relay/global-id.js';
import { registerNodeType } from '../../platform/relay/node.js';
import { readOrderPage } from '../orders/order.read-model.js';
import { OrderConnection, OrderNode } from '../orders/order.types.js';
import { firstOrderPagesLoader, paymentMethodsLoader } from './customer.loaders.js';
import * as customers from './customer.service.js';
import {
  AttachPaymentMethodInput,
  AttachPaymentMethodPayload,
  CreateCustomerInput,
  CreateCustomerPayload,
  CreatePaymentMethodSetupLinkInput,
  CustomerConnection,
  CustomerNode,
  CustomersArgs,
  DetachPaymentMethodInput,
  DetachPaymentMethodPayload,
  PaymentMethodNode,
  PaymentMethodSetupLinkNode,
  PaymentMethodSetupLinkPayload,
  UpdateCustomerInput,
  UpdateCustomerPayload,
} from './customer.types.js';
import * as methods from './payment-method.service.js';
import * as setupLinks from './payment-method-setup-link.service.js';

registerNodeType('Customer', 'customers', async (ctx, id) => CustomerNode.from(await customers.getCustomer(ctx, id)));
registerNodeType('PaymentMethod', 'customers', async (ctx, id) =>
  PaymentMethodNode.from(await methods.getPaymentMethod(ctx, id)),
);
registerNodeType('PaymentMethodSetupLink', 'customers', async (ctx, id) =>
  PaymentMethodSetupLinkNode.from(await setupLinks.getSetupLink(ctx, id), ctx.now()),
);

const customerId = (globalId: string, param = 'id') => fromGlobalId(globalId, 'Customer', param);

@Authorized('customers')
@Resolver(() => CustomerNode)
export class CustomerResolver {
  @Query(() => CustomerNode, {
    nullable: true,
    description: 'A customer by global id; null (with a not_found error) when this key cannot see it',
  })
  async customer(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<CustomerNode> {
    return CustomerNode.from(await customers.getCustomer(ctx, customerId(id)));
  }

  @Query(() => CustomerConnection, { description: 'Customers, most recent first, with the REST filters' })
  async customers(@Args() args: CustomersArgs, @Ctx() { ctx }: GraphContext): Promise<ConnectionShape<CustomerNode>> {
    const page = toPageRequest(args, String);
    const filters = {
      email: args.email ?? undefined,
      created_after: args.createdAfter ?? undefined,
      created_before: args.createdBefore ?? undefined,
    };
    return toConnection(
      await customers.listCustomers(ctx, filters, page, args.last != null ? 'before' : 'after'),
      args,
      (c) => CustomerNode.from(c),
    );
  }

  @FieldResolver(() => [PaymentMethodNode], {
    description: 'Attached payment methods, most recent first (batched across customers)',
  })
  async paymentMethods(@Root() customer: CustomerNode, @Ctx() { ctx }: GraphContext): Promise<PaymentMethodNode[]> {
    return (await paymentMethodsLoader(ctx).load(customer.customerId)).map((pm) => PaymentMethodNode.from(pm));
  }

  @FieldResolver(() => OrderConnection, {
    description: "Orders placed with this customer's email, most recent first (first pages batched across customers)",
  })
  async orders(
    @Root() customer: CustomerNode,
    @Args() args: ConnectionArgs,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ConnectionShape<OrderNode>> {
    const page = toPageRequest(args, String);
    const email = customer.email.toLowerCase();
    const result =
      page.after === undefined && page.before === undefined
        ? await firstOrderPagesLoader(ctx).load(JSON.stringify({ email, limit: page.limit }))
        : await readOrderPage(ctx, { customer_email: email }, page, args.last != null ? 'before' : 'after');
    return toConnection(result, args, (o) => OrderNode.from(o));
  }

  @Mutation(() => CreateCustomerPayload, { description: 'Create a customer' })
  async createCustomer(
    @Arg('input', () => CreateCustomerInput) input: CreateCustomerInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<CreateCustomerPayload> {
    return { customer: CustomerNode.from(await customers.createCustomer(ctx, toServiceInput(input))) };
  }

  @Mutation(() => UpdateCustomerPayload, { description: 'Update a customer; omitted fields are kept' })
  async updateCustomer(
    @Arg('input', () => UpdateCustomerInput) input: UpdateCustomerInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<UpdateCustomerPayload> {
    return {
      customer: CustomerNode.from(
        await customers.updateCustomer(ctx, customerId(input.id), toServiceInput(input, ['id'])),
      ),
    };
  }

  @Mutation(() => AttachPaymentMethodPayload, {
    description: 'Verify a card (zero-amount) and store it for a customer',
  })
  @Extensions({ ownTransactions: true }) // calls the processor: never inside one transaction
  async attachPaymentMethod(
    @Arg('input', () => AttachPaymentMethodInput) input: AttachPaymentMethodInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<AttachPaymentMethodPayload> {
    const body = toServiceInputDeep({ card: input.card }) as Record<string, unknown>;
    return {
      paymentMethod: PaymentMethodNode.from(
        await methods.attachPaymentMethod(ctx, customerId(input.customerId, 'customerId'), body),
      ),
    };
  }

  @Mutation(() => PaymentMethodSetupLinkPayload, {
    description:
      'A one-time hosted page (24 h) where the shopper enters a card; it is verified and stored for the customer (payment_method.attached)',
  })
  async createPaymentMethodSetupLink(
    @Arg('input', () => CreatePaymentMethodSetupLinkInput) input: CreatePaymentMethodSetupLinkInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<PaymentMethodSetupLinkPayload> {
    return {
      setupLink: PaymentMethodSetupLinkNode.from(
        await setupLinks.createSetupLink(ctx, customerId(input.customerId, 'customerId')),
        ctx.now(),
      ),
    };
  }

  @Mutation(() => DetachPaymentMethodPayload, { description: 'Detach a payment method: no longer listed or charged' })
  async detachPaymentMethod(
    @Arg('input', () => DetachPaymentMethodInput) input: DetachPaymentMethodInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<DetachPaymentMethodPayload> {
    return {
      paymentMethod: PaymentMethodNode.from(
        await methods.detachPaymentMethod(ctx, fromGlobalId(input.id, 'PaymentMethod')),
      ),
    };
  }
}
