import type { LoggedEvent } from '../../platform/events/event-log.js';
import type { WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint } from './webhook.entity.js';
import type { WebhookTestResult } from './webhook.service.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The REST shape of an endpoint; `secret` only in the create and rotate-secret responses. */
export function toWebhookEndpointResource(endpoint: WebhookEndpoint, secret?: string) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    livemode: endpoint.livemode,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    metadata: endpoint.metadata,
    status: endpoint.status,
    ...(secret !== undefined && { secret }),
    previous_secret_expires_at: iso(endpoint.previousSecretExpiresAt),
    disabled_at: iso(endpoint.disabledAt),
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

/** One attempt of a delivery; its id is the `X-Service-Delivery` header the receiver saw. */
export function toWebhookAttemptResource(attempt: WebhookDeliveryAttempt) {
  return {
    id: attempt.id,
    attempt: attempt.attempt,
    status: attempt.status,
    response_status: attempt.responseStatus,
    response_body: attempt.responseBody,
    error: attempt.error,
    duration_ms: attempt.durationMs,
    started_at: attempt.startedAt.toISOString(),
    finished_at: iso(attempt.finishedAt),
  };
}

/** The REST shape of a delivery with every attempt (attempts must be loaded). */
export function toWebhookDeliveryResource(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    object: 'webhook_delivery' as const,
    livemode: delivery.livemode,
    endpoint_id: delivery.endpoint?.id ?? null,
    event_id: delivery.event.id,
    event_type: delivery.eventType,
    url: delivery.url,
    status: delivery.status,
    attempt_count: delivery.attemptCount,
    next_attempt_at: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    last_attempt_at: iso(delivery.lastAttemptAt),
    last_response_status: delivery.lastResponseStatus,
    last_error: delivery.lastError,
    delivered_at: iso(delivery.deliveredAt),
    attempts: delivery.attempts.getItems().map(toWebhookAttemptResource),
    created_at: delivery.createdAt.toISOString(),
    updated_at: delivery.updatedAt.toISOString(),
  };
}

/** An event read from the log, in the envelope webhooks carry. */
export function toEventResource(event: LoggedEvent) {
  return { id: event.id, type: event.type, created_at: event.created_at, data: event.data };
}

/** What a test send did. */
export function toWebhookTestResource(result: WebhookTestResult) {
  return {
    object: 'webhook_endpoint_test' as const,
    event: result.event,
    delivery_id: result.attemptId,
    ok: result.ok,
    response_status: result.responseStatus,
    error: result.error,
    duration_ms: result.durationMs,
  };
}

/** How many deliveries a recovery queued again. */
export function toWebhookRecoveryResource(result: { endpoint: WebhookEndpoint; since: Date; recovered: number }) {
  return {
    object: 'webhook_endpoint_recovery' as const,
    endpoint_id: result.endpoint.id,
    since: result.since.toISOString(),
    recovered: result.recovered,
  };
}
