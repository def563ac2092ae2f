import { z } from 'zod';
import { listEnvelope, responseEnvelope } from '../../platform/rest/envelope.js';
import { refundEnvelopeResponse, refundListResponse, v1RefundResponse } from './refund.openapi.js';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { toRefundResource } from './refund.resource.js';
import { createRefundSchema, listRefundsSchema, v1RefundSchema } from './refund.schemas.js';
import * as refunds from './refund.service.js';
import { refundCheckoutV1 } from './refund-v1.service.js';

const tags = ['Refunds'];

export const refundRoutes: RouteSpec[] = [
  {
    method: 'POST',
    url: '/api/v2/refunds',
    operationId: 'createRefund',
    summary: 'Refund an order in full or in part, split between HSA/FSA and regular card',
    tags,
    body: createRefundSchema,
    response: refundEnvelopeResponse,
    status: 201,
    handler: async (ctx, req) =>
      responseEnvelope(ctx, toRefundResource(await refunds.createRefund(ctx, req.body)), 'Refund initiated'),
  },
  {
    method: 'GET',
    url: '/api/v2/refunds',
    operationId: 'listRefunds',
    summary: 'List refunds, most recent first',
    tags,
    querystring: listRefundsSchema,
    response: refundListResponse,
    handler: async (ctx, req) => {
      const { filters, page } = refunds.parseListRefundsQuery(req.query);
      return listEnvelope(await refunds.listRefunds(ctx, filters, page), toRefundResource);
    },
  },
  {
    method: 'GET',
    url: '/api/v2/refunds/:id',
    operationId: 'getRefund',
    summary: 'Retrieve a refund',
    tags,
    params: z.object({ id: z.string() }),
    response: refundEnvelopeResponse,
    handler: async (ctx, req) =>
      responseEnvelope(
        ctx,
        toRefundResource(await refunds.getRefund(ctx, (req.params as { id: string }).id)),
        'Refund retrieved',
      ),
  },
  {
    method: 'POST',
    url: '/v1/checkout/:checkout_id/refund',
    operationId: 'refundCheckoutV1',
    summary: 'v1: refund lines of a paid checkout',
    tags,
    params: z.object({ checkout_id: z.string() }),
    body: v1RefundSchema,
    response: v1RefundResponse,
    status: 201,
    handler: (ctx, req) => refundCheckoutV1(ctx, (req.params as { checkout_id: string }).checkout_id, req.body),
  },
];
