import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { Event } from '../../platform/events/event.entity.js';
import { EVENT_ORDERS } from '../../platform/events/events.service.js';
import type { LiveEvent } from '../../platform/pubsub/event-pubsub.js';
import { ConnectionArgs, connectionType } from '../../platform/relay/connection.js';
import { toGlobalId } from '../../platform/relay/global-id.js';
import { Node } from '../../platform/relay/node.js';
import {
  WEBHOOK_ATTEMPT_STATUSES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_ENDPOINT_STATUSES,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookEndpoint,
} from './webhook.entity.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';

/** The base of the webhook endpoints and deliveries mutations' payloads: `userErrors` with these codes. */
const WebhookMutationPayload = mutationPayload('Webhook', ['validation_error', 'invalid_state', 'not_found']);

export const WebhookEndpointStatusEnum = graphqlEnum('WebhookEndpointStatus', WEBHOOK_ENDPOINT_STATUSES);

export const WebhookDeliveryStatusEnum = graphqlEnum(
  'WebhookDeliveryStatus',
  WEBHOOK_DELIVERY_STATUSES,
  'pending: awaiting its next attempt; succeeded: a 2xx was received; failed: every retry failed (replayable); dead_letter: its endpoint was disabled while queued',
);

export const WebhookAttemptStatusEnum = graphqlEnum(
  'WebhookAttemptStatus',
  WEBHOOK_ATTEMPT_STATUSES,
  'interrupted: the worker stopped mid-send; the delivery was retried',
);

@ObjectType('Event', {
  implements: Node,
  description: 'Something that happened, as webhooks deliver it: {id, type, created_at, data}',
})
export class EventNode extends Node {
  @Field({ description: 'The evt_ id (the envelope id; deduplicate on it)' }) eventId!: string;
  @Field({ description: 'e.g. order.completed, product.created' }) type!: string;
  @Field() livemode!: boolean;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLJSONObject, { description: 'The event payload (the spec fields, snake_case)' }) data!: Record<
    string,
    unknown
  >;
  /** Known when read from the log or the live stream; otherwise the `cursor` field resolver loads it. */
  logCursor?: string;

  /** The graph's view of a stored event. */
  static from(e: Event): EventNode {
    return Object.assign(new EventNode(), {
      id: toGlobalId('Event', e.id),
      eventId: e.id,
      type: e.type,
      livemode: e.livemode,
      createdAt: e.createdAt,
      data: e.data,
    });
  }

  /** The graph's view of an event read from the log or published to subscribers (with its cursor). */
  static fromLive(e: LiveEvent): EventNode {
    return Object.assign(new EventNode(), {
      id: toGlobalId('Event', e.id),
      eventId: e.id,
      type: e.type,
      livemode: e.livemode,
      createdAt: new Date(e.created_at),
      data: e.data,
      logCursor: e.cursor,
    });
  }
}

export const EventConnection = connectionType('Event', EventNode);

export const EventOrderEnum = graphqlEnum(
  'EventOrder',
  EVENT_ORDERS,
  'newest_first: browse back in time; oldest_first: catch up on everything after a cursor',
);

@ArgsType()
export class EventsArgs extends ConnectionArgs {
  @Field(() => [String], { nullable: true, description: 'Only these event types' }) types?: string[] | null;
  @Field(() => EventOrderEnum, {
    nullable: true,
    description:
      "NEWEST_FIRST (default) or OLDEST_FIRST: with `after` set to the last cursor seen (an edge cursor or a live event's `cursor`), every event committed since, once, in order",
  })
  order?: ValueOf<typeof EventOrderEnum> | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Only events created at or after this time' })
  createdAfter?: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Only events created at or before this time' })
  createdBefore?: Date | null;
}

@ObjectType('WebhookEndpoint', { implements: Node, description: 'A registered receiver of signed event deliveries' })
export class WebhookEndpointNode extends Node {
  @Field({ description: 'The we_ id used by the REST API' }) endpointId!: string;
  @Field() livemode!: boolean;
  @Field() url!: string;
  @Field(() => [String], { description: 'Event types delivered; "*" is every type' }) events!: string[];
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
  @Field(() => WebhookEndpointStatusEnum) status!: ValueOf<typeof WebhookEndpointStatusEnum>;
  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'Until then the previous secret also signs (after a rotation)',
  })
  previousSecretExpiresAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) disabledAt!: Date | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;

  /** The graph's view of an endpoint (never its secret). */
  static from(e: WebhookEndpoint): WebhookEndpointNode {
    return Object.assign(new WebhookEndpointNode(), {
      id: toGlobalId('WebhookEndpoint', e.id),
      endpointId: e.id,
      livemode: e.livemode,
      url: e.url,
      events: e.events,
      description: e.description,
      metadata: e.metadata,
      status: e.status,
      previousSecretExpiresAt: e.previousSecretExpiresAt,
      disabledAt: e.disabledAt,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
    });
  }
}

export const WebhookEndpointConnection = connectionType('WebhookEndpoint', WebhookEndpointNode);

@ObjectType('WebhookDeliveryAttempt', { description: 'One HTTP request of a delivery' })
export class WebhookDeliveryAttemptNode {
  @Field({ description: 'The X-Service-Delivery header the receiver saw (wd_…)' }) attemptId!: string;
  @Field(() => Int) attempt!: number;
  @Field(() => WebhookAttemptStatusEnum) status!: ValueOf<typeof WebhookAttemptStatusEnum>;
  @Field(() => Int, { nullable: true }) responseStatus!: number | null;
  @Field(() => String, {
    nullable: true,
    description: "The first 4 KiB (4,096 bytes) of the receiver's answer, as UTF-8 text; null when no answer came",
  })
  responseBody!: string | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => Int, { nullable: true }) durationMs!: number | null;
  @Field(() => GraphQLISODateTime) startedAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) finishedAt!: Date | null;

  static from(a: WebhookDeliveryAttempt): WebhookDeliveryAttemptNode {
    return Object.assign(new WebhookDeliveryAttemptNode(), {
      attemptId: a.id,
      attempt: a.attempt,
      status: a.status,
      responseStatus: a.responseStatus,
      responseBody: a.responseBody,
      error: a.error,
      durationMs: a.durationMs,
      startedAt: a.startedAt,
      finishedAt: a.finishedAt,
    });
  }
}

@ObjectType('WebhookDelivery', {
  implements: Node,
  description: 'One event for one destination, retried at 1 min, 5 min, 30 min, 2 h and 6 h',
})
export class WebhookDeliveryNode extends Node {
  @Field({ description: 'The wd_ id used by the REST API' }) deliveryId!: string;
  @Field() livemode!: boolean;
  @Field() eventId!: string;
  @Field() eventType!: string;
  @Field(() => String, { nullable: true, description: "Null for a checkout's metadata.webhook_url" }) endpointId!:
    string | null;
  @Field() url!: string;
  @Field(() => WebhookDeliveryStatusEnum) status!: ValueOf<typeof WebhookDeliveryStatusEnum>;
  @Field(() => Int) attemptCount!: number;
  @Field(() => GraphQLISODateTime, { nullable: true }) nextAttemptAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) lastAttemptAt!: Date | null;
  @Field(() => Int, { nullable: true }) lastResponseStatus!: number | null;
  @Field(() => String, { nullable: true }) lastError!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) deliveredAt!: Date | null;
  @Field(() => [WebhookDeliveryAttemptNode]) attempts!: WebhookDeliveryAttemptNode[];
  @Field(() => GraphQLISODateTime) createdAt!: Date;

  /** The graph's view of a delivery (attempts must be loaded). */
  static from(d: WebhookDelivery): WebhookDeliveryNode {
    return Object.assign(new WebhookDeliveryNode(), {
      id: toGlobalId('WebhookDelivery', d.id),
      deliveryId: d.id,
      livemode: d.livemode,
      eventId: d.event.id,
      eventType: d.eventType,
      endpointId: d.endpoint?.id ?? null,
      url: d.url,
      status: d.status,
      attemptCount: d.attemptCount,
      nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
      lastAttemptAt: d.lastAttemptAt,
      lastResponseStatus: d.lastResponseStatus,
      lastError: d.lastError,
      deliveredAt: d.deliveredAt,
      attempts: d.attempts.getItems().map((a) => WebhookDeliveryAttemptNode.from(a)),
      createdAt: d.createdAt,
    });
  }
}

export const WebhookDeliveryConnection = connectionType('WebhookDelivery', WebhookDeliveryNode);

@ArgsType()
export class WebhookDeliveriesArgs extends ConnectionArgs {
  @Field(() => WebhookDeliveryStatusEnum, { nullable: true }) status?: ValueOf<typeof WebhookDeliveryStatusEnum> | null;
}

@InputType()
export class CreateWebhookEndpointInput {
  @Field({ description: 'https (test mode also accepts http://127.0.0.1 and http://localhost)' }) url!: string;
  @Field(() => [String], { description: 'Event types, or ["*"] for all' }) events!: string[];
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

@InputType()
export class RotateWebhookEndpointSecretInput {
  @Field(() => ID, { description: 'Global id of the endpoint' }) id!: string;
}

@InputType()
export class DisableWebhookEndpointInput {
  @Field(() => ID, { description: 'Global id of the endpoint' }) id!: string;
}

@InputType()
export class RetryWebhookDeliveryInput {
  @Field(() => ID, { description: 'Global id of the delivery' }) id!: string;
}

@ObjectType({ description: 'The endpoint and its secret (shown only here and on rotation)' })
export class CreateWebhookEndpointPayload extends WebhookMutationPayload {
  @Field(() => WebhookEndpointNode, { nullable: true }) webhookEndpoint!: WebhookEndpointNode | null;
  @Field(() => String, { nullable: true, description: 'whsec_…: keep it, it is not shown again' }) secret!:
    string | null;
}

@ObjectType({ description: 'The endpoint and its new secret; the previous one also signs for 24 hours' })
export class RotateWebhookEndpointSecretPayload extends WebhookMutationPayload {
  @Field(() => WebhookEndpointNode, { nullable: true }) webhookEndpoint!: WebhookEndpointNode | null;
  @Field(() => String, { nullable: true }) secret!: string | null;
}

@ObjectType()
export class DisableWebhookEndpointPayload extends WebhookMutationPayload {
  @Field(() => WebhookEndpointNode, { nullable: true }) webhookEndpoint!: WebhookEndpointNode | null;
}

@ObjectType()
export class RetryWebhookDeliveryPayload extends WebhookMutationPayload {
  @Field(() => WebhookDeliveryNode, { nullable: true }) webhookDelivery!: WebhookDeliveryNode | null;
}

@InputType({ description: 'Only the fields given change' })
export class UpdateWebhookEndpointInput {
  @Field(() => ID, { description: 'Global id of the endpoint' }) id!: string;
  @Field(() => String, { nullable: true, description: 'Vetted as on create' }) url?: string | null;
  @Field(() => [String], { nullable: true, description: 'Event types, or ["*"] for all' }) events?: string[] | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
}

@ObjectType()
export class UpdateWebhookEndpointPayload extends WebhookMutationPayload {
  @Field(() => WebhookEndpointNode, { nullable: true }) webhookEndpoint!: WebhookEndpointNode | null;
}

@InputType()
export class DeleteWebhookEndpointInput {
  @Field(() => ID, { description: 'Global id of the endpoint' }) id!: string;
}

@ObjectType({ description: 'The endpoint is gone (its queued deliveries became dead letters)' })
export class DeleteWebhookEndpointPayload extends WebhookMutationPayload {
  @Field(() => ID, { nullable: true, description: 'Global id of the deleted endpoint' }) deletedWebhookEndpointId!:
    string | null;
}

@InputType()
export class EnableWebhookEndpointInput {
  @Field(() => ID, { description: 'Global id of the endpoint' }) id!: string;
}

@ObjectType()
export class EnableWebhookEndpointPayload extends WebhookMutationPayload {
  @Field(() => WebhookEndpointNode, { nullable: true }) webhookEndpoint!: WebhookEndpointNode | null;
}

@InputType()
export class TestWebhookEndpointInput {
  @Field(() => ID, { description: 'Global id of the endpoint' }) id!: string;
  @Field(() => String, {
    nullable: true,
    description: 'The type the test event carries; default webhook_endpoint.test',
  })
  type?: string | null;
}

@ObjectType({ description: 'A signed test event sent at once, and what the receiver answered' })
export class TestWebhookEndpointPayload extends WebhookMutationPayload {
  @Field(() => String, { nullable: true, description: 'evt_… of the test event (not recorded)' }) eventId!:
    string | null;
  @Field(() => String, { nullable: true }) eventType!: string | null;
  @Field(() => String, { nullable: true, description: 'wd_…: the X-Service-Delivery header of this send' })
  deliveryId!: string | null;
  @Field(() => Boolean, { nullable: true, description: 'The receiver answered 2xx within 10 s' }) ok!: boolean | null;
  @Field(() => Int, { nullable: true }) responseStatus!: number | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => Int, { nullable: true }) durationMs!: number | null;
}

@InputType()
export class RecoverWebhookEndpointInput {
  @Field(() => ID, { description: 'Global id of the endpoint' }) id!: string;
  @Field(() => GraphQLISODateTime, {
    description: 'Deliveries whose event was created at or after this time are sent again',
  })
  since!: Date;
}

@ObjectType()
export class RecoverWebhookEndpointPayload extends WebhookMutationPayload {
  @Field(() => WebhookEndpointNode, { nullable: true }) webhookEndpoint!: WebhookEndpointNode | null;
  @Field(() => Int, { nullable: true, description: 'Failed or dead-letter deliveries queued again' }) recovered!:
    number | null;
}
