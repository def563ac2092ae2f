import { z } from 'zod';
import { responseEnvelope } from '../../platform/rest/envelope.js';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { checkoutEnvelopeResponse, checkoutStatusEnvelopeResponse } from './checkout.openapi.js';
import { toCheckoutResource } from './checkout.resource.js';
import { createCheckoutSchema } from './checkout.schemas.js';
import * as checkout from './checkout.service.js';
import { checkoutStatus } from './checkout-status.service.js';

const tags = ['Checkout'];

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
    handler: async (ctx, req) => responseEnvelope(ctx, toCheckoutResource(await checkout.createCheckoutSession(ctx, req.body)), 'Checkout session created'),
  },
  {
    method: 'GET',
    url: '/api/v2/checkout/:checkout_id',
    operationId: 'getCheckout',
    summary: 'Status and order details of a checkout session (poll when a webhook was missed)',
    tags,
    params: z.object({ checkout_id: z.string() }),
    response: checkoutStatusEnvelopeResponse,
    handler: async (ctx, req) => responseEnvelope(ctx, await checkoutStatus(ctx, (req.params as { checkout_id: string }).checkout_id), 'Checkout session retrieved'),
  },
];
