import { z } from 'zod';
import { listEnvelope } from '../../platform/rest/envelope.js';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { webhookDeliveryListResponse, webhookDeliveryResponse, webhookEndpointListResponse, webhookEndpointResponse, webhookEndpointWithSecretResponse } from './webhook.openapi.js';
import { toWebhookDeliveryResource, toWebhookEndpointResource } from './webhook.resource.js';
import { createWebhookEndpointSchema, listWebhookDeliveriesSchema, listWebhookEndpointsSchema, rotateWebhookSecretSchema } from './webhook.schemas.js';
import * as webhooks from './webhook.service.js';

const endpointParams = z.object({ id: z.string().describe('Webhook endpoint id (we_…)') });
const deliveryParams = z.object({ id: z.string().describe('Webhook delivery id (wd_…), or the X-Service-Delivery id of one of its attempts') });
const tags = ['Webhooks'];
const idOf = (req: { params: unknown }) => (req.params as { id: string }).id;

/** `/api/v2/webhook-endpoints…` and `/api/v2/webhook-deliveries…`: each route calls one service method. */
export const webhookRoutes: RouteSpec[] = [
  {
    method: 'POST',
    url: '/api/v2/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint; the response carries its secret, shown only once',
    tags,
    body: createWebhookEndpointSchema,
    response: webhookEndpointWithSecretResponse,
    status: 201,
    handler: async (ctx, req) => {
      const { endpoint, secret } = await webhooks.createWebhookEndpoint(ctx, req.body);
      return toWebhookEndpointResource(endpoint, secret);
    },
  },
  {
    method: 'GET',
    url: '/api/v2/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints, most recent first',
    tags,
    querystring: listWebhookEndpointsSchema,
    response: webhookEndpointListResponse,
    handler: async (ctx, req) => listEnvelope(await webhooks.listWebhookEndpoints(ctx, webhooks.parseListWebhookEndpointsQuery(req.query)), (e) => toWebhookEndpointResource(e)),
  },
  {
    method: 'GET',
    url: '/api/v2/webhook-endpoints/:id',
    operationId: 'getWebhookEndpoint',
    summary: 'Retrieve a webhook endpoint',
    tags,
    params: endpointParams,
    response: webhookEndpointResponse,
    handler: async (ctx, req) => toWebhookEndpointResource(await webhooks.getWebhookEndpoint(ctx, idOf(req))),
  },
  {
    method: 'POST',
    url: '/api/v2/webhook-endpoints/:id/rotate-secret',
    operationId: 'rotateWebhookEndpointSecret',
    summary: 'Issue a new secret; the old one keeps signing beside it for 24 hours',
    tags,
    params: endpointParams,
    body: rotateWebhookSecretSchema,
    response: webhookEndpointWithSecretResponse,
    handler: async (ctx, req) => {
      const { endpoint, secret } = await webhooks.rotateWebhookEndpointSecret(ctx, idOf(req), req.body);
      return toWebhookEndpointResource(endpoint, secret);
    },
  },
  {
    method: 'POST',
    url: '/api/v2/webhook-endpoints/:id/disable',
    operationId: 'disableWebhookEndpoint',
    summary: 'Disable an endpoint; its queued deliveries become dead letters',
    tags,
    params: endpointParams,
    response: webhookEndpointResponse,
    handler: async (ctx, req) => toWebhookEndpointResource(await webhooks.disableWebhookEndpoint(ctx, idOf(req))),
  },
  {
    method: 'GET',
    url: '/api/v2/webhook-endpoints/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "List an endpoint's deliveries with every attempt, most recent first",
    tags,
    params: endpointParams,
    querystring: listWebhookDeliveriesSchema,
    response: webhookDeliveryListResponse,
    handler: async (ctx, req) => {
      const { status, page } = webhooks.parseListWebhookDeliveriesQuery(req.query);
      return listEnvelope(await webhooks.listWebhookDeliveries(ctx, idOf(req), { status }, page), toWebhookDeliveryResource);
    },
  },
  {
    method: 'POST',
    url: '/api/v2/webhook-deliveries/:id/retry',
    operationId: 'retryWebhookDelivery',
    summary: 'Send a failed or dead-letter delivery again now, as a new attempt',
    tags,
    params: deliveryParams,
    response: webhookDeliveryResponse,
    handler: async (ctx, req) => toWebhookDeliveryResource(await webhooks.retryWebhookDelivery(ctx, idOf(req))),
  },
];
