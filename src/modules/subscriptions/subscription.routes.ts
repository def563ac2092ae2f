import { z } from 'zod';
import { listEnvelope } from '../../platform/rest/envelope.js';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { setupLinkResponse } from '../customers/customer.openapi.js';
import { toSetupLinkResource } from '../customers/customer.resource.js';
import { subscriptionDisputeRoute } from './subscription-dispute.routes.js';
import {
  cancelResponse,
  invoiceResponse,
  subscriptionListResponse,
  subscriptionResponse,
} from './subscription.openapi.js';
import { presentSubscription, presentSubscriptions } from './subscription.presenter.js';
import { toCancelResource, toInvoiceResource } from './subscription.resource.js';
import {
  cancelSubscriptionSchema,
  createSubscriptionSchema,
  listSubscriptionsSchema,
  replacePaymentMethodSchema,
  updateSubscriptionSchema,
} from './subscription.schemas.js';
import * as subscriptions from './subscription.service.js';

const tags = ['Subscriptions'];
const idParams = z.object({ id: z.string() });
const idOf = (req: { params: unknown }) => (req.params as { id: string }).id;

const invoiceRoute = (url: string, operationId: string): RouteSpec => ({
  method: 'GET',
  url,
  operationId,
  summary: 'Retrieve one cycle of a subscription: period, amount, status, attempts, order id, processor reference',
  tags,
  params: z.object({ id: z.string(), invoiceId: z.string() }),
  response: invoiceResponse,
  handler: async (ctx, req) => {
    const { id, invoiceId } = req.params as { id: string; invoiceId: string };
    const { invoice, attempts } = await subscriptions.getInvoice(ctx, id, invoiceId);
    return toInvoiceResource(invoice, attempts);
  },
});

export const subscriptionRoutes: RouteSpec[] = [
  {
    method: 'POST',
    url: '/api/v2/subscriptions',
    operationId: 'createSubscription',
    summary: 'Create a subscription (trialing with a trial, else the first cycle is charged at once)',
    tags,
    body: createSubscriptionSchema,
    status: 201,
    response: subscriptionResponse,
    ownTransactions: true,
    handler: async (ctx, req) => presentSubscription(ctx, await subscriptions.createSubscription(ctx, req.body)),
  },
  {
    method: 'GET',
    url: '/api/v2/subscriptions',
    operationId: 'listSubscriptions',
    summary: 'List subscriptions, most recent first (the renewal polling route)',
    tags,
    querystring: listSubscriptionsSchema,
    response: subscriptionListResponse,
    handler: async (ctx, req) => {
      const { filters, page } = subscriptions.parseListSubscriptionsQuery(req.query);
      const result = await subscriptions.listSubscriptions(ctx, filters, page);
      return { ...listEnvelope(result, (s) => s), data: await presentSubscriptions(ctx, result.items) };
    },
  },
  {
    method: 'GET',
    url: '/api/v2/subscriptions/:id',
    operationId: 'getSubscription',
    summary: 'Retrieve a subscription',
    tags,
    params: idParams,
    response: subscriptionResponse,
    handler: async (ctx, req) => presentSubscription(ctx, await subscriptions.getSubscription(ctx, idOf(req))),
  },
  {
    method: 'PUT',
    url: '/api/v2/subscriptions/:id',
    operationId: 'updateSubscription',
    summary: 'Change amount_cents (next cycle on), metadata, or cancel_at_period_end',
    tags,
    params: idParams,
    body: updateSubscriptionSchema,
    response: subscriptionResponse,
    handler: async (ctx, req) =>
      presentSubscription(ctx, await subscriptions.updateSubscription(ctx, idOf(req), req.body)),
  },
  {
    method: 'POST',
    url: '/api/v2/subscriptions/:id/cancel',
    operationId: 'cancelSubscription',
    summary: 'Cancel now or at the period end',
    tags,
    params: idParams,
    body: cancelSubscriptionSchema,
    response: cancelResponse,
    handler: async (ctx, req) => toCancelResource(await subscriptions.cancelSubscription(ctx, idOf(req), req.body)),
  },
  {
    method: 'POST',
    url: '/api/v2/subscriptions/:id/resume',
    operationId: 'resumeSubscription',
    summary: 'Reverse a scheduled cancellation (subscription.resumed)',
    tags,
    params: idParams,
    response: subscriptionResponse,
    handler: async (ctx, req) => presentSubscription(ctx, await subscriptions.resumeSubscription(ctx, idOf(req))),
  },
  {
    method: 'POST',
    url: '/api/v2/subscriptions/:id/payment-method',
    operationId: 'replaceSubscriptionPaymentMethod',
    summary: 'Replace the card; a past_due or action_required subscription is charged at once',
    tags,
    params: idParams,
    body: replacePaymentMethodSchema,
    response: subscriptionResponse,
    ownTransactions: true,
    handler: async (ctx, req) =>
      presentSubscription(ctx, await subscriptions.replacePaymentMethod(ctx, idOf(req), req.body)),
  },
  {
    method: 'POST',
    url: '/api/v2/subscriptions/:id/card-update-link',
    operationId: 'createSubscriptionCardUpdateLink',
    summary:
      "A one-time hosted page (24 h) where the shopper enters a new card: it replaces the subscription's, and a past_due or action_required subscription is charged at once. subscription.payment_failed with disposition action_required carries a fresh one as card_update_url",
    tags,
    params: idParams,
    response: setupLinkResponse,
    status: 201,
    handler: async (ctx, req) =>
      toSetupLinkResource(await subscriptions.createCardUpdateLink(ctx, idOf(req)), ctx.now()),
  },
  invoiceRoute('/api/v2/subscriptions/:id/invoices/:invoiceId', 'getSubscriptionInvoice'),
  invoiceRoute('/v2/subscriptions/:id/invoices/:invoiceId', 'getSubscriptionInvoiceV2'),
  subscriptionDisputeRoute,
];
