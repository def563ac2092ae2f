import { recordAudit } from '../audit/audit-log.service.js';
import type { FilterQuery } from '@mikro-orm/core';
import { scope, withEm, type ServiceContext } from '../../platform/context.js';
import { prefixedId, randomBase62 } from '../../platform/db/ids.js';
import { recordEvent, toEventEnvelope, type EventEnvelope } from '../../platform/events/events.service.js';
import { DomainError } from '../../platform/errors.js';
import { paginate, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput } from '../../platform/validation.js';
import { WebhookDelivery, WebhookEndpoint, type WebhookDeliveryStatus } from './webhook.entity.js';
import { DEFAULT_TIMEOUT_MS, deliveryHeaders } from './webhook-delivery.service.js';
import { postWebhook } from './webhook-post.js';
import {
  createWebhookEndpointSchema,
  listWebhookDeliveriesSchema,
  listWebhookEndpointsSchema,
  recoverWebhookEndpointSchema,
  rotateWebhookSecretSchema,
  TEST_EVENT_TYPE,
  testWebhookEndpointSchema,
  updateWebhookEndpointSchema,
} from './webhook.schemas.js';
import { EVENT_SAMPLES } from './event-samples.js';
import { assertWebhookUrl } from './webhook-url.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement } from '../../platform/db/sql.js';

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_HOURS = 24;

/** Channel that tells delivery workers a delivery became due outside the event flow (a manual retry). */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';

/** A new signing secret: the whole string (prefix included) keys `X-Service-Signature`; the 32 base62 characters after `whsec_` are valid base64, the Standard Webhooks key. */
export function newWebhookSecret(): string {
  return `whsec_${randomBase62(32)}`;
}

/** Registers an endpoint for the given event types (`*`: all); returns it with its secret, which is shown only now. */
export async function createWebhookEndpoint(
  ctx: ServiceContext,
  body: unknown,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const input = parseInput(createWebhookEndpointSchema, body);
  await assertWebhookUrl(ctx.principal.livemode, input.url, 'url');
  const now = ctx.now();
  const secret = newWebhookSecret();
  const endpoint = ctx.em.create(WebhookEndpoint, {
    ...scope(ctx),
    url: input.url,
    events: input.events,
    description: input.description ?? null,
    metadata: input.metadata,
    secret,
    createdAt: now,
    updatedAt: now,
  });
  recordAudit(ctx, 'webhook_endpoint.created', endpoint.id, { url: endpoint.url, events: endpoint.events });
  await ctx.em.flush();
  return { endpoint, secret };
}

/** One endpoint of the caller by its `we_` id, or 404 `not_found`. */
export async function getWebhookEndpoint(ctx: ServiceContext, id: string): Promise<WebhookEndpoint> {
  const endpoint = await ctx.em.findOne(WebhookEndpoint, { id, ...scope(ctx), deletedAt: null });
  if (!endpoint) throw DomainError.notFound('webhook endpoint', id);
  return endpoint;
}

/**
 * The endpoint, locked until the transaction of `em` ends and read after the lock (so a change
 * made meanwhile is seen, not repeated). Whoever changes an endpoint and its deliveries locks the
 * endpoint first (as the delivery workers do before recording outcomes): concurrent disables and
 * sweeps queue on the endpoint instead of deadlocking on its deliveries. `FOR NO KEY UPDATE` leaves
 * new deliveries (their foreign key) free to be inserted meanwhile.
 */
async function lockedWebhookEndpoint(ctx: ServiceContext, em: EntityManager, id: string): Promise<WebhookEndpoint> {
  await runStatement(em, 'select 1 from webhook_endpoints where id = ? and merchant_id = ? for no key update', [
    id,
    ctx.principal.merchantId,
  ]);
  const endpoint = await em.findOne(WebhookEndpoint, { id, ...scope(ctx), deletedAt: null }, { refresh: true });
  if (!endpoint) throw DomainError.notFound('webhook endpoint', id);
  return endpoint;
}

/** Validates list query parameters (400 `invalid_request` on a bad one). */
export function parseListWebhookEndpointsQuery(query: unknown): PageRequest<string> {
  const { limit, starting_after } = parseInput(listWebhookEndpointsSchema, query, 'invalid_request');
  return { limit, after: starting_after };
}

/** A page of the caller's endpoints, newest first. */
export async function listWebhookEndpoints(
  ctx: ServiceContext,
  page: PageRequest<string>,
  cursorParam = 'starting_after',
): Promise<Page<WebhookEndpoint>> {
  return paginate(ctx, WebhookEndpoint, { ...scope(ctx), deletedAt: null }, page, { cursorParam });
}

/** Issues a new secret; the old one keeps signing beside it for 24 hours (a second `v1`). Returns the new secret once. */
export async function rotateWebhookEndpointSecret(
  ctx: ServiceContext,
  id: string,
  body: unknown = {},
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  parseInput(rotateWebhookSecretSchema, body ?? {});
  const endpoint = await getWebhookEndpoint(ctx, id);
  const secret = newWebhookSecret();
  endpoint.previousSecret = endpoint.secret;
  endpoint.previousSecretExpiresAt = new Date(ctx.now().getTime() + SECRET_OVERLAP_HOURS * 3_600_000);
  endpoint.secret = secret;
  endpoint.updatedAt = ctx.now();
  recordAudit(ctx, 'webhook_endpoint.secret_rotated', endpoint.id);
  await ctx.em.flush();
  return { endpoint, secret };
}

/** How long an endpoint may fail every attempt before it is disabled. */
export const FAILING_DAYS_BEFORE_DISABLE = 3;

/**
 * Stops sending to an endpoint: it gets no new deliveries and its queued ones become `dead_letter`.
 * With `failingSince` (the delivery sweep, after 3 days of failed attempts) it also records
 * `webhook_endpoint.disabled` in the same transaction.
 */
export async function disableWebhookEndpoint(
  ctx: ServiceContext,
  id: string,
  failing?: { failingSince: Date },
): Promise<WebhookEndpoint> {
  return ctx.em.transactional(async (em) => {
    const endpoint = await lockedWebhookEndpoint(ctx, em, id);
    if (endpoint.status === 'disabled') return endpoint;
    endpoint.status = 'disabled';
    endpoint.disabledAt = ctx.now();
    endpoint.updatedAt = ctx.now();
    if (failing) {
      const data = {
        id: endpoint.id,
        object: 'webhook_endpoint',
        url: endpoint.url,
        reason: 'failing',
        failing_since: failing.failingSince.toISOString(),
      };
      recordEvent(withEm(ctx, em), 'webhook_endpoint.disabled', data);
    }
    recordAudit(withEm(ctx, em), 'webhook_endpoint.disabled', endpoint.id, failing ? { reason: 'failing' } : undefined);
    await em.flush();
    await deadLetterQueued(
      em,
      endpoint.id,
      failing ? `endpoint disabled after ${FAILING_DAYS_BEFORE_DISABLE} days of failures` : 'endpoint disabled',
    );
    return endpoint;
  });
}

/** Its queued deliveries become `dead_letter`, `reason` appended to their last error. */
async function deadLetterQueued(em: EntityManager, endpointId: string, reason: string): Promise<void> {
  await runStatement(
    em,
    `update webhook_deliveries set status = 'dead_letter', last_error = coalesce(last_error || '; ', '') || ?, updated_at = now()
     where endpoint_id = ? and status = 'pending'`,
    [reason, endpointId],
  );
}

/** Changes an endpoint's `url` (vetted as on create), `events`, `description` or `metadata`; only the fields given. */
export async function updateWebhookEndpoint(ctx: ServiceContext, id: string, body: unknown): Promise<WebhookEndpoint> {
  const input = parseInput(updateWebhookEndpointSchema, body ?? {});
  if (input.url !== undefined) await assertWebhookUrl(ctx.principal.livemode, input.url, 'url');
  const endpoint = await getWebhookEndpoint(ctx, id);
  if (input.url !== undefined) endpoint.url = input.url;
  if (input.events !== undefined) endpoint.events = input.events;
  if (input.description !== undefined) endpoint.description = input.description;
  if (input.metadata !== undefined) endpoint.metadata = input.metadata;
  endpoint.updatedAt = ctx.now();
  recordAudit(ctx, 'webhook_endpoint.updated', endpoint.id, {
    fields: Object.keys(input).filter((k) => input[k as keyof typeof input] !== undefined),
  });
  await ctx.em.flush();
  return endpoint;
}

/** Deletes an endpoint: its queued deliveries become `dead_letter`, then it answers 404 (its deliveries stay readable by id). */
export async function deleteWebhookEndpoint(
  ctx: ServiceContext,
  id: string,
): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
  return ctx.em.transactional(async (em) => {
    const endpoint = await lockedWebhookEndpoint(ctx, em, id);
    endpoint.status = 'disabled';
    endpoint.disabledAt ??= ctx.now();
    endpoint.deletedAt = ctx.now();
    endpoint.updatedAt = ctx.now();
    recordAudit(withEm(ctx, em), 'webhook_endpoint.deleted', endpoint.id);
    await em.flush();
    await deadLetterQueued(em, endpoint.id, 'endpoint deleted');
    return { id: endpoint.id, object: 'webhook_endpoint' as const, deleted: true as const };
  });
}

/** Sends to a disabled endpoint again: new events get deliveries; earlier dead letters stay until recovered or retried. */
export async function enableWebhookEndpoint(ctx: ServiceContext, id: string): Promise<WebhookEndpoint> {
  const endpoint = await getWebhookEndpoint(ctx, id);
  if (endpoint.status === 'enabled') return endpoint;
  endpoint.status = 'enabled';
  endpoint.disabledAt = null;
  endpoint.failingSince = null;
  endpoint.updatedAt = ctx.now();
  recordAudit(ctx, 'webhook_endpoint.enabled', endpoint.id);
  await ctx.em.flush();
  return endpoint;
}

/** Validates a deliveries list query (400 `invalid_request` on a bad one). */
export function parseListWebhookDeliveriesQuery(query: unknown): {
  status?: WebhookDeliveryStatus;
  page: PageRequest<string>;
} {
  const { limit, starting_after, status } = parseInput(listWebhookDeliveriesSchema, query, 'invalid_request');
  return { status, page: { limit, after: starting_after } };
}

/** A page of an endpoint's deliveries with their attempts, newest first (404 for an unknown endpoint). */
export async function listWebhookDeliveries(
  ctx: ServiceContext,
  endpointId: string,
  filters: { status?: WebhookDeliveryStatus },
  page: PageRequest<string>,
  cursorParam = 'starting_after',
): Promise<Page<WebhookDelivery>> {
  const endpoint = await getWebhookEndpoint(ctx, endpointId);
  const where: FilterQuery<WebhookDelivery> = { ...scope(ctx), endpoint: endpoint.id };
  if (filters.status) where.status = filters.status;
  const found = await paginate(ctx, WebhookDelivery, where, page, { cursorParam });
  if (found.items.length) await ctx.em.populate(found.items, ['attempts']);
  return found;
}

/** One delivery of the caller by its id, or by the `X-Service-Delivery` id of one of its attempts; 404 otherwise. */
export async function getWebhookDelivery(ctx: ServiceContext, id: string): Promise<WebhookDelivery> {
  const delivery = await ctx.em.findOne(
    WebhookDelivery,
    { ...scope(ctx), $or: [{ id }, { attempts: { id } }] },
    { populate: ['attempts'] },
  );
  if (!delivery) throw DomainError.notFound('webhook delivery', id);
  return delivery;
}

/**
 * Queues a new attempt of a delivery for now (a `failed` or `dead_letter` one is replayed; a
 * pending one is brought forward). The delivery workers send it after commit, never this request.
 */
export async function retryWebhookDelivery(ctx: ServiceContext, id: string): Promise<WebhookDelivery> {
  return ctx.em.transactional(async (em) => {
    const delivery = await getWebhookDelivery(withEm(ctx, em), id);
    if (delivery.endpoint) {
      const endpoint = await em.findOneOrFail(WebhookEndpoint, delivery.endpoint.id);
      if (endpoint.status === 'disabled') {
        throw new DomainError(
          'invalid_state',
          `Webhook endpoint ${endpoint.id} is disabled; its deliveries cannot be retried.`,
          { param: 'id' },
        );
      }
    }
    if (delivery.status === 'succeeded') {
      throw new DomainError('invalid_state', `Webhook delivery ${delivery.id} already succeeded.`, { param: 'id' });
    }
    delivery.status = 'pending';
    delivery.nextAttemptAt = ctx.now();
    delivery.updatedAt = ctx.now();
    await em.flush();
    // Transactional like every NOTIFY: workers hear it only if this commits.
    await runStatement(em, `select pg_notify('${DELIVERIES_CHANNEL}', ?)`, [delivery.id]);
    return delivery;
  });
}

/** The type of a test event unless the caller names another. */

/** What a test send did: the event as sent and the receiver's answer. */
export interface WebhookTestResult {
  event: EventEnvelope;
  attemptId: string;
  ok: boolean;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Sends a signed test event (`webhook_endpoint.test`, or `type`) to an enabled endpoint now, from
 * this request, signed like every delivery (both secrets during a rotation). The event is not
 * recorded: no other endpoint gets it and it has no delivery to retry. Holds no transaction while sending.
 */
export async function sendTestWebhookEvent(
  ctx: ServiceContext,
  id: string,
  body: unknown = {},
): Promise<WebhookTestResult> {
  const input = parseInput(testWebhookEndpointSchema, body ?? {});
  const endpoint = await getWebhookEndpoint(ctx, id);
  assertEnabled(endpoint, 'sent a test event');
  const now = ctx.now();
  const event = toEventEnvelope({
    id: prefixedId('evt'),
    type: input.type ?? TEST_EVENT_TYPE,
    createdAt: now,
    // A type's sample object (what a real event of it carries), or the endpoint itself.
    data:
      input.type && input.type !== TEST_EVENT_TYPE
        ? EVENT_SAMPLES[input.type]
        : { object: 'webhook_endpoint', id: endpoint.id, url: endpoint.url, test: true },
  });
  const raw = JSON.stringify(event);
  const secrets =
    endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now
      ? [endpoint.secret, endpoint.previousSecret]
      : [endpoint.secret];
  const attemptId = prefixedId('wd');
  const outcome = await postWebhook(
    endpoint.url,
    raw,
    deliveryHeaders(event, attemptId, raw, secrets),
    DEFAULT_TIMEOUT_MS,
    endpoint.livemode,
  );
  return {
    event,
    attemptId,
    ok: outcome.ok,
    responseStatus: outcome.status,
    error: outcome.error,
    durationMs: outcome.durationMs,
  };
}

/** 400 `invalid_state` for a disabled endpoint. */
function assertEnabled(endpoint: WebhookEndpoint, what: string): void {
  if (endpoint.status === 'disabled')
    throw new DomainError(
      'invalid_state',
      `Webhook endpoint ${endpoint.id} is disabled; enable it before it can be ${what}.`,
      { param: 'id' },
    );
}

/**
 * Queues again, due now, every `failed` or `dead_letter` delivery of an enabled endpoint whose
 * event was created at or after `since` (the event's `created_at`, the merchant clock of the mode);
 * each gets one new attempt, as `retry` gives one delivery. Returns how many were queued.
 */
export async function recoverWebhookEndpoint(
  ctx: ServiceContext,
  id: string,
  body: unknown,
): Promise<{ endpoint: WebhookEndpoint; since: Date; recovered: number }> {
  const { since } = parseInput(recoverWebhookEndpointSchema, body ?? {});
  return ctx.em.transactional(async (em) => {
    const endpoint = await lockedWebhookEndpoint(ctx, em, id);
    assertEnabled(endpoint, 'recovered');
    const rows = await runStatement<{ id: string }>(
      em,
      `update webhook_deliveries d set status = 'pending', next_attempt_at = ?::timestamptz, locked_until = null, updated_at = now()
       from events e
       where e.id = d.event_id and d.endpoint_id = ? and d.status in ('failed', 'dead_letter') and e.created_at >= ?::timestamptz
       returning d.id`,
      [ctx.now().toISOString(), endpoint.id, since.toISOString()],
    );
    if (rows.length) await runStatement(em, `select pg_notify('${DELIVERIES_CHANNEL}', ?)`, [endpoint.id]);
    recordAudit(withEm(ctx, em), 'webhook_endpoint.recovered', endpoint.id, {
      since: since.toISOString(),
      recovered: rows.length,
    });
    await em.flush();
    return { endpoint, since, recovered: rows.length };
  });
}
