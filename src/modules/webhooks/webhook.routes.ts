import { z } from 'zod';
import { listEnvelope } from '../../platform/rest/envelope.js';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { getEvent, listEventsPage, toEventEnvelope } from '../../platform/events/events.service.js';
import { parseInput } from '../../platform/validation.js';
import {
  eventListResponse,
  eventResponse,
  webhookDeliveryListResponse,
  webhookDeliveryResponse,
  webhookEndpointDeletedResponse,
  webhookEndpointListResponse,
  webhookEndpointResponse,
  webhookEndpointWithSecretResponse,
  webhookRecoveryResponse,
  webhookTestResponse,
} from './webhook.openapi.js';
import {
  toEventResource,
  toWebhookDeliveryResource,
  toWebhookEndpointResource,
  toWebhookRecoveryResource,
  toWebhookTestResource,
} from './webhook.resource.js';
import {
  createWebhookEndpointSchema,
  listEventsQuerySchema,
  listWebhookDeliveriesSchema,
  listWebhookEndpointsSchema,
  recoverWebhookEndpointSchema,
  rotateWebhookSecretSchema,
  testWebhookEndpointSchema,
  updateWebhookEndpointSchema,
} from './webhook.schemas.js';
import * as webhooks from './webhook.service.js';

const endpointParams = z.object({ id: z.string().describe('Webhook endpoint id (we_…)') });
const deliveryParams = z.object({
  id: z.string().describe('Webhook delivery id (wd_…), or the X-Service-Delivery id of one of its attempts'),
});
const eventParams = z.object({ id: z.string().describe('Event id (evt_…)') });
const tags = ['Webhooks'];
const idOf = (req: { params: unknown }) => (req.params as { id: string }).id;

/** An endpoint update: `POST` (Stripe's convention) and `PATCH` do the same. */
const updateEndpoint = (method: 'POST' | 'PATCH', operationId: string): RouteSpec => ({
  method,
  url: '/api/v2/webhook-endpoints/:id',
  operationId,
  summary: `Update an endpoint's url (vetted as on create), events, description or metadata${method === 'PATCH' ? ' (as POST does)' : ''}`,
  tags,
  params: endpointParams,
  body: updateWebhookEndpointSchema,
  response: webhookEndpointResponse,
  handler: async (ctx, req) =>
    toWebhookEndpointResource(await webhooks.updateWebhookEndpoint(ctx, idOf(req), req.body)),
});

/** `/api/v2/webhook-endpoints…`, `/api/v2/webhook-deliveries…` and `/api/v2/events…`: each route calls one service method. */
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
    handler: async (ctx, req) =>
      listEnvelope(await webhooks.listWebhookEndpoints(ctx, webhooks.parseListWebhookEndpointsQuery(req.query)), (e) =>
        toWebhookEndpointResource(e),
      ),
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
  updateEndpoint('POST', 'updateWebhookEndpoint'),
  updateEndpoint('PATCH', 'patchWebhookEndpoint'),
  {
    method: 'DELETE',
    url: '/api/v2/webhook-endpoints/:id',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete an endpoint: its queued deliveries become dead letters, then it answers 404',
    tags,
    params: endpointParams,
    response: webhookEndpointDeletedResponse,
    handler: async (ctx, req) => webhooks.deleteWebhookEndpoint(ctx, idOf(req)),
  },
  {
    method: 'POST',
    url: '/api/v2/webhook-endpoints/:id/enable',
    operationId: 'enableWebhookEndpoint',
    summary: 'Enable a disabled endpoint again: new events are delivered to it',
    tags,
    params: endpointParams,
    response: webhookEndpointResponse,
    handler: async (ctx, req) => toWebhookEndpointResource(await webhooks.enableWebhookEndpoint(ctx, idOf(req))),
  },
  {
    method: 'POST',
    url: '/api/v2/webhook-endpoints/:id/test',
    operationId: 'testWebhookEndpoint',
    summary: 'Send a signed test event (webhook_endpoint.test, or type) to the endpoint now and answer what it replied',
    tags,
    params: endpointParams,
    body: testWebhookEndpointSchema,
    response: webhookTestResponse,
    ownTransactions: true, // an HTTP call to the receiver: never inside a transaction
    handler: async (ctx, req) => toWebhookTestResource(await webhooks.sendTestWebhookEvent(ctx, idOf(req), req.body)),
  },
  {
    method: 'POST',
    url: '/api/v2/webhook-endpoints/:id/recover',
    operationId: 'recoverWebhookEndpoint',
    summary: 'Queue again every failed or dead-letter delivery whose event was created since the given time',
    tags,
    params: endpointParams,
    body: recoverWebhookEndpointSchema,
    response: webhookRecoveryResponse,
    handler: async (ctx, req) =>
      toWebhookRecoveryResource(await webhooks.recoverWebhookEndpoint(ctx, idOf(req), req.body)),
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
      return listEnvelope(
        await webhooks.listWebhookDeliveries(ctx, idOf(req), { status }, page),
        toWebhookDeliveryResource,
      );
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
  {
    method: 'GET',
    url: '/api/v2/events',
    operationId: 'listEvents',
    summary: 'List events, most recent first, in the envelope webhooks carry',
    tags: ['Events'],
    querystring: listEventsQuerySchema,
    response: eventListResponse,
    handler: async (ctx, req) => {
      const q = parseInput(listEventsQuerySchema, req.query, 'invalid_request');
      const page = await listEventsPage(
        ctx,
        { type: q.type, createdAfter: q.created_after, createdBefore: q.created_before },
        { limit: q.limit, startingAfter: q.starting_after },
      );
      return listEnvelope(page, toEventResource);
    },
  },
  {
    method: 'GET',
    url: '/api/v2/events/:id',
    operationId: 'getEvent',
    summary: 'Retrieve an event, in the envelope webhooks carry',
    tags: ['Events'],
    params: eventParams,
    response: eventResponse,
    handler: async (ctx, req) => toEventEnvelope(await getEvent(ctx, idOf(req))),
  },
];
