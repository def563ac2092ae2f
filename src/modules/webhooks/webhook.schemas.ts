import { z } from 'zod';
import { metadataSchema, pageLimit, timestamp } from '../../platform/validation.js';
import { EVENT_ORDERS } from '../../platform/events/events.service.js';
import { EVENT_SAMPLES } from './event-samples.js';
import { WEBHOOK_DELIVERY_STATUSES } from './webhook.entity.js';

/** The type of the endpoint test's default event, sent to one endpoint only (never recorded). */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test';

/** The one validation definition of each webhooks input; REST and GraphQL both go through these. */

/** An event type (`order.completed`) or `*` for every type. */
export const eventTypeSchema = z
  .string()
  .regex(/^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/, 'must be an event type such as order.completed');

/** The event types an endpoint can subscribe to: every type the service records. */
export const EVENT_TYPES = Object.keys(EVENT_SAMPLES).sort();
const known = new Set(EVENT_TYPES);
const unknownType = (type: string) => `${type} is not an event type; the event types are ${EVENT_TYPES.join(', ')}`;

/** A type the service records (an endpoint subscribing to anything else would silently receive nothing). */
const recordedType = eventTypeSchema.superRefine((type, ctx) => {
  if (!known.has(type)) ctx.addIssue({ code: 'custom', message: unknownType(type) });
});
const eventFilter = z.union([z.literal('*'), recordedType]);

const endpointUrl = z.string().trim().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters');
const endpointEvents = z
  .array(eventFilter)
  .min(1, 'list at least one event type, or "*" for all')
  .max(100, 'at most 100 event types')
  .transform((types) => (types.includes('*') ? ['*'] : [...new Set(types)]));
const endpointDescription = z.string().trim().max(255, 'must be at most 255 characters').nullish();

export const createWebhookEndpointSchema = z
  .object({
    url: endpointUrl,
    events: endpointEvents,
    description: endpointDescription,
    metadata: metadataSchema.default({}),
  })
  .strict()
  .meta({ id: 'CreateWebhookEndpointRequest' });

/** An update changes only the fields given (POST or PATCH). */
export const updateWebhookEndpointSchema = z
  .object({
    url: endpointUrl.optional(),
    events: endpointEvents.optional(),
    description: endpointDescription,
    metadata: metadataSchema.optional(),
  })
  .strict()
  .meta({ id: 'UpdateWebhookEndpointRequest' });

/** The signed test event: `webhook_endpoint.test` unless another type is named. */
export const testWebhookEndpointSchema = z
  .object({
    type: eventTypeSchema
      .superRefine((type, ctx) => {
        if (type !== TEST_EVENT_TYPE && !known.has(type)) ctx.addIssue({ code: 'custom', message: unknownType(type) });
      })
      .optional()
      .describe(
        'The type the test event carries, with a sample object of that type as its data; default webhook_endpoint.test (the endpoint as data)',
      ),
  })
  .strict()
  .meta({ id: 'TestWebhookEndpointRequest' });

/** Re-queues every failed delivery of the endpoint created at or after `since`. */
export const recoverWebhookEndpointSchema = z
  .object({
    since: timestamp.describe(
      'Deliveries created at or after this time (the merchant clock of the mode) are sent again',
    ),
  })
  .strict()
  .meta({ id: 'RecoverWebhookEndpointRequest' });

/** `GET /api/v2/events`: the spec's pagination (the cursor is an event id) and filters. */
export const listEventsQuerySchema = z
  .object({
    limit: pageLimit,
    starting_after: z.string().max(64).optional().describe('An event id (evt_…): the next_cursor of the previous page'),
    type: z.string().max(255).optional().describe('Only events of this type'),
    created_after: timestamp.optional(),
    created_before: timestamp.optional(),
  })
  .strict();

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
    createdAfter: z.date().optional(),
    createdBefore: z.date().optional(),
  })
  .strict();

export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointSchema>;
