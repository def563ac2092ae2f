import { z } from 'zod';
import { metadataSchema, pageLimit } from '../../platform/validation.js';
import { EVENT_ORDERS } from '../../platform/events/events.service.js';
import { WEBHOOK_DELIVERY_STATUSES } from './webhook.entity.js';

/** The one validation definition of each webhooks input; REST and GraphQL both go through these. */

/** An event type (`order.completed`) or `*` for every type. */
export const eventTypeSchema = z.string().regex(/^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/, 'must be an event type such as order.completed');
const eventFilter = z.union([z.literal('*'), eventTypeSchema]);

export const createWebhookEndpointSchema = z
  .object({
    url: z.string().trim().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters'),
    events: z
      .array(eventFilter)
      .min(1, 'list at least one event type, or "*" for all')
      .max(100, 'at most 100 event types')
      .transform((types) => (types.includes('*') ? ['*'] : [...new Set(types)])),
    description: z.string().trim().max(255, 'must be at most 255 characters').nullish(),
    metadata: metadataSchema.default({}),
  })
  .strict()
  .meta({ id: 'CreateWebhookEndpointRequest' });

/** Rotation takes no options: the old secret signs beside the new one for 24 hours. */
export const rotateWebhookSecretSchema = z.object({}).strict();

export const listWebhookEndpointsSchema = z
  .object({
    limit: pageLimit,
    starting_after: z.string().max(64).optional(),
  })
  .strict();

export const listWebhookDeliveriesSchema = z
  .object({
    limit: pageLimit,
    starting_after: z.string().max(64).optional(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  })
  .strict();

export const listEventsSchema = z
  .object({
    types: z.array(z.string().max(255)).max(100).optional(),
    order: z.enum(EVENT_ORDERS).default('newest_first'),
  })
  .strict();

export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointSchema>;
