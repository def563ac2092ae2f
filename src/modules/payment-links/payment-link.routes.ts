import { z } from 'zod';
import { listEnvelope } from '../../platform/rest/envelope.js';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { paymentLinkListResponse, paymentLinkResponse } from './payment-link.openapi.js';
import { presentPaymentLink, presentPaymentLinks } from './payment-link.presenter.js';
import { cancelPaymentLinkSchema, createPaymentLinkSchema, listPaymentLinksSchema } from './payment-link.schemas.js';
import * as links from './payment-link.service.js';

const idParams = z.object({ id: z.string().describe('Payment link id (plink_…)') });
const tags = ['Payment links'];
const idOf = (req: { params: unknown }) => (req.params as { id: string }).id;

/** `/api/v2/payment-links…`: each route calls one service method. */
export const paymentLinkRoutes: RouteSpec[] = [
  {
    method: 'POST',
    url: '/api/v2/payment-links',
    operationId: 'createPaymentLink',
    summary:
      'Create a payment link: catalog products (eligibility and the HSA/FSA split apply) or an amount and description; answers the link with its hosted page url',
    tags,
    body: createPaymentLinkSchema,
    response: paymentLinkResponse,
    status: 201,
    handler: async (ctx, req) => presentPaymentLink(ctx, await links.createPaymentLink(ctx, req.body)),
  },
  {
    method: 'GET',
    url: '/api/v2/payment-links',
    operationId: 'listPaymentLinks',
    summary: 'List payment links, most recent first',
    tags,
    querystring: listPaymentLinksSchema,
    response: paymentLinkListResponse,
    handler: async (ctx, req) => {
      const { filters, page } = links.parseListPaymentLinksQuery(req.query);
      const result = await links.listPaymentLinks(ctx, filters, page);
      return { ...listEnvelope(result, (l) => l.id), data: await presentPaymentLinks(ctx, result.items) };
    },
  },
  {
    method: 'GET',
    url: '/api/v2/payment-links/:id',
    operationId: 'getPaymentLink',
    summary: 'Retrieve a payment link (with its order once paid)',
    tags,
    params: idParams,
    response: paymentLinkResponse,
    handler: async (ctx, req) => presentPaymentLink(ctx, await links.getPaymentLink(ctx, idOf(req))),
  },
  {
    method: 'POST',
    url: '/api/v2/payment-links/:id/cancel',
    operationId: 'cancelPaymentLink',
    summary:
      'Cancel an active payment link (reason ≤ 500 chars); paid, expired and cancelled links are invalid_state. Emits payment_link.cancelled',
    tags,
    params: idParams,
    body: cancelPaymentLinkSchema,
    response: paymentLinkResponse,
    handler: async (ctx, req) => presentPaymentLink(ctx, await links.cancelPaymentLink(ctx, idOf(req), req.body)),
  },
];
