import { z } from 'zod';
import { listEnvelope } from '../../platform/rest/envelope.js';
import type { RouteSpec } from '../../platform/rest/routes.js';
import {
  customerListResponse,
  customerResponse,
  paymentMethodListResponse,
  paymentMethodResponse,
  setupLinkResponse,
} from './customer.openapi.js';
import { toCustomerResource, toPaymentMethodResource, toSetupLinkResource } from './customer.resource.js';
import {
  attachPaymentMethodSchema,
  createCustomerSchema,
  listCustomersSchema,
  listPaymentMethodsSchema,
  updateCustomerSchema,
} from './customer.schemas.js';
import * as customers from './customer.service.js';
import * as methods from './payment-method.service.js';
import * as setupLinks from './payment-method-setup-link.service.js';

const customerParams = z.object({ id: z.string().describe('Customer id (cus_…)') });
const methodParams = z.object({
  id: z.string().describe('Customer id (cus_…)'),
  payment_method_id: z.string().describe('Payment method id (pm_…)'),
});
const tags = ['Customers'];
const params = (req: { params: unknown }) => req.params as { id: string; payment_method_id: string };

/** `/api/v2/customers…` and their payment methods: each route calls one service method. */
export const customerRoutes: RouteSpec[] = [
  {
    method: 'POST',
    url: '/api/v2/customers',
    operationId: 'createCustomer',
    summary: 'Create a customer',
    tags,
    body: createCustomerSchema,
    response: customerResponse,
    status: 201,
    handler: async (ctx, req) => toCustomerResource(await customers.createCustomer(ctx, req.body)),
  },
  {
    method: 'GET',
    url: '/api/v2/customers',
    operationId: 'listCustomers',
    summary: 'List customers, most recent first (filter by email, created range)',
    tags,
    querystring: listCustomersSchema,
    response: customerListResponse,
    handler: async (ctx, req) => {
      const { filters, page } = customers.parseListCustomersQuery(req.query);
      return listEnvelope(await customers.listCustomers(ctx, filters, page), toCustomerResource);
    },
  },
  {
    method: 'GET',
    url: '/api/v2/customers/:id',
    operationId: 'getCustomer',
    summary: 'Retrieve a customer',
    tags,
    params: customerParams,
    response: customerResponse,
    handler: async (ctx, req) => toCustomerResource(await customers.getCustomer(ctx, params(req).id)),
  },
  {
    method: 'PUT',
    url: '/api/v2/customers/:id',
    operationId: 'updateCustomer',
    summary: 'Update a customer (omitted fields are kept; phone null clears it)',
    tags,
    params: customerParams,
    body: updateCustomerSchema,
    response: customerResponse,
    handler: async (ctx, req) => toCustomerResource(await customers.updateCustomer(ctx, params(req).id, req.body)),
  },
  {
    method: 'POST',
    url: '/api/v2/customers/:id/payment-methods',
    operationId: 'attachPaymentMethod',
    summary: 'Verify a card (zero-amount) and store it for the customer; a declined card is 400 invalid_payment_method',
    tags,
    params: customerParams,
    body: attachPaymentMethodSchema,
    response: paymentMethodResponse,
    status: 201,
    ownTransactions: true,
    handler: async (ctx, req) =>
      toPaymentMethodResource(await methods.attachPaymentMethod(ctx, params(req).id, req.body)),
  },
  {
    method: 'POST',
    url: '/api/v2/customers/:id/payment-method-setup-links',
    operationId: 'createPaymentMethodSetupLink',
    summary:
      'A one-time hosted page (24 h) where the shopper enters a card; it is verified and stored for the customer (payment_method.attached)',
    tags,
    params: customerParams,
    response: setupLinkResponse,
    status: 201,
    handler: async (ctx, req) => toSetupLinkResource(await setupLinks.createSetupLink(ctx, params(req).id), ctx.now()),
  },
  {
    method: 'GET',
    url: '/api/v2/customers/:id/payment-methods',
    operationId: 'listPaymentMethods',
    summary: "List a customer's attached payment methods, most recent first",
    tags,
    params: customerParams,
    querystring: listPaymentMethodsSchema,
    response: paymentMethodListResponse,
    handler: async (ctx, req) =>
      listEnvelope(
        await methods.listPaymentMethods(ctx, params(req).id, methods.parseListPaymentMethodsQuery(req.query)),
        toPaymentMethodResource,
      ),
  },
  {
    method: 'GET',
    url: '/api/v2/customers/:id/payment-methods/:payment_method_id',
    operationId: 'getPaymentMethod',
    summary: "Retrieve one of a customer's payment methods",
    tags,
    params: methodParams,
    response: paymentMethodResponse,
    handler: async (ctx, req) =>
      toPaymentMethodResource(await methods.getPaymentMethod(ctx, params(req).payment_method_id, params(req).id)),
  },
  {
    method: 'DELETE',
    url: '/api/v2/customers/:id/payment-methods/:payment_method_id',
    operationId: 'detachPaymentMethod',
    summary: 'Detach a payment method: no longer listed or charged',
    tags,
    params: methodParams,
    response: paymentMethodResponse,
    handler: async (ctx, req) =>
      toPaymentMethodResource(await methods.detachPaymentMethod(ctx, params(req).payment_method_id, params(req).id)),
  },
];
