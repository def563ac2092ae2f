import { z } from 'zod';
import { WEBHOOK_ATTEMPT_STATUSES, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_ENDPOINT_STATUSES } from './webhook.entity.js';

/** Response shapes of the webhooks routes, for the OpenAPI document. */

const endpointFields = {
  id: z.string().describe('we_…'),
  object: z.literal('webhook_endpoint'),
  livemode: z.boolean(),
  url: z.string(),
  events: z.array(z.string()).describe('Event types delivered; "*" is every type'),
  description: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
  previous_secret_expires_at: z.iso
    .datetime()
    .nullable()
    .describe('Until then the previous secret also signs (a second v1)'),
  disabled_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
};

export const webhookEndpointResponse = z.object(endpointFields).meta({ id: 'WebhookEndpoint' });

export const webhookEndpointWithSecretResponse = z
  .object({ ...endpointFields, secret: z.string().describe('whsec_…: the signing key, shown only in this response') })
  .meta({ id: 'WebhookEndpointWithSecret' });

export const webhookEndpointListResponse = z.object({
  object: z.literal('list'),
  data: z.array(webhookEndpointResponse),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

const attempt = z.object({
  id: z.string().describe('wd_…: the X-Service-Delivery header of this attempt'),
  attempt: z.number().int(),
  status: z.enum(WEBHOOK_ATTEMPT_STATUSES),
  response_status: z.number().int().nullable(),
  response_body: z
    .string()
    .nullable()
    .describe("The first 4 KiB (4,096 bytes) of the receiver's answer, as UTF-8 text; null when no answer came"),
  error: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable(),
});

export const webhookDeliveryResponse = z
  .object({
    id: z.string().describe('wd_…'),
    object: z.literal('webhook_delivery'),
    livemode: z.boolean(),
    endpoint_id: z.string().nullable().describe("Null for a checkout's metadata.webhook_url"),
    event_id: z.string(),
    event_type: z.string(),
    url: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempt_count: z.number().int(),
    next_attempt_at: z.iso.datetime().nullable(),
    last_attempt_at: z.iso.datetime().nullable(),
    last_response_status: z.number().int().nullable(),
    last_error: z.string().nullable(),
    delivered_at: z.iso.datetime().nullable(),
    attempts: z.array(attempt),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookDeliveryListResponse = z.object({
  object: z.literal('list'),
  data: z.array(webhookDeliveryResponse),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export const webhookEndpointDeletedResponse = z
  .object({ id: z.string().describe('we_…'), object: z.literal('webhook_endpoint'), deleted: z.literal(true) })
  .meta({ id: 'DeletedWebhookEndpoint' });

/** The spec's event envelope, as webhooks carry it. */
export const eventResponse = z
  .object({
    id: z.string().describe('evt_…'),
    type: z.string(),
    created_at: z.iso.datetime(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Event' });

export const eventListResponse = z.object({
  object: z.literal('list'),
  data: z.array(eventResponse),
  has_more: z.boolean(),
  next_cursor: z.string().nullable().describe('An event id: pass it as starting_after'),
});

export const webhookTestResponse = z
  .object({
    object: z.literal('webhook_endpoint_test'),
    event: eventResponse,
    delivery_id: z.string().describe('wd_…: the X-Service-Delivery header of this send'),
    ok: z.boolean().describe('The receiver answered 2xx within 10 s'),
    response_status: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
  })
  .meta({ id: 'WebhookEndpointTest' });

export const webhookRecoveryResponse = z
  .object({
    object: z.literal('webhook_endpoint_recovery'),
    endpoint_id: z.string(),
    since: z.iso.datetime(),
    recovered: z.number().int().describe('Failed or dead-letter deliveries queued again'),
  })
  .meta({ id: 'WebhookEndpointRecovery' });
