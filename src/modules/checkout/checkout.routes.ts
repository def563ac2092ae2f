import { z } from 'zod';
import type { ServiceContext } from '../../platform/context.js';
import { responseEnvelope } from '../../platform/rest/envelope.js';
import { HttpResult, type RouteSpec } from '../../platform/rest/routes.js';
import { orderResponse } from '../orders/order.openapi.js';
import { presentOrder } from '../orders/order.presenter.js';
import { checkoutEnvelopeResponse, checkoutStatusEnvelopeResponse } from './checkout.openapi.js';
import { toCheckoutResource } from './checkout.resource.js';
import { checkoutPaymentDetailsSchema, checkoutPaymentsSchema, createCheckoutSchema } from './checkout.schemas.js';
import type { PayOutcome } from './checkout-payment.service.js';
import { payDetailsFromMerchantPage, payFromMerchantPage } from './merchant-page-payment.service.js';
import * as checkout from './checkout.service.js';
import { checkoutStatus } from './checkout-status.service.js';
import { checkoutPageToken } from './checkout-page-token.js';

const tags = ['Checkout'];
const checkoutParams = z.object({ checkout_id: z.string() });

/** A pay outcome as the merchant's page gets it: the order (200), the shopper's action (202), or the decline. */
async function payAnswer(ctx: ServiceContext, checkoutId: string, outcome: PayOutcome): Promise<unknown> {
  if (outcome.ok) return presentOrder(ctx, outcome.order, outcome);
  if (outcome.order === null)
    return new HttpResult(202, { checkout_id: checkoutId, status: 'action_required', action: outcome.action });
  return new HttpResult(outcome.error.status, outcome.error.toBody());
}

export const checkoutRoutes: RouteSpec[] = [
  {
    method: 'POST',
    url: '/api/v2/checkout',
    operationId: 'createCheckout',
    summary: 'Create a checkout session (hosted page link in checkout_url, 24 h lifetime)',
    tags,
    body: createCheckoutSchema,
    response: checkoutEnvelopeResponse,
    status: 201,
    handler: async (ctx, req) =>
      responseEnvelope(
        ctx,
        toCheckoutResource(await checkout.createCheckoutSession(ctx, req.body)),
        'Checkout session created',
      ),
  },
  {
    method: 'GET',
    url: '/api/v2/checkout/:checkout_id',
    operationId: 'getCheckout',
    summary: 'Status and order details of a checkout session (poll when a webhook was missed)',
    tags,
    params: z.object({ checkout_id: z.string() }),
    response: checkoutStatusEnvelopeResponse,
    handler: async (ctx, req) =>
      responseEnvelope(
        ctx,
        await checkoutStatus(ctx, (req.params as { checkout_id: string }).checkout_id),
        'Checkout session retrieved',
      ),
  },
  {
    method: 'POST',
    url: '/api/v2/checkout/:checkout_id/payments',
    operationId: 'payCheckout',
    summary:
      "Pay a checkout from the merchant's own page (Adyen Web's payment_method_data); 200 the order, 202 an action (3-D Secure) to finish with /payments/details. The hosted page calls it with ?token= (its checkout_url token) instead of an API key",
    tags,
    params: checkoutParams,
    body: checkoutPaymentsSchema,
    response: orderResponse,
    ownTransactions: true,
    pageAuth: checkoutPageToken,
    handler: async (ctx, req) => {
      const id = (req.params as { checkout_id: string }).checkout_id;
      return payAnswer(ctx, id, await payFromMerchantPage(ctx, id, req.body));
    },
  },
  {
    method: 'POST',
    url: '/api/v2/checkout/:checkout_id/payments/details',
    operationId: 'payCheckoutDetails',
    summary: "Finish a payment after the shopper's action (Adyen Web's onAdditionalDetails state.data.details)",
    tags,
    params: checkoutParams,
    body: checkoutPaymentDetailsSchema,
    response: orderResponse,
    ownTransactions: true,
    pageAuth: checkoutPageToken,
    handler: async (ctx, req) => {
      const id = (req.params as { checkout_id: string }).checkout_id;
      return payAnswer(ctx, id, await payDetailsFromMerchantPage(ctx, id, req.body));
    },
  },
];
