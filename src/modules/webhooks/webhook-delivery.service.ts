import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { effectiveNowSql } from '../../platform/clock.js';
import type { Log } from '../../platform/context.js';
import { prefixedId } from '../../platform/db/ids.js';
import { webhookAttempts, webhookDeadLettered } from '../../platform/observability/metrics.js';
import { toEventEnvelope } from '../../platform/events/events.service.js';
import { postWebhook, type AttemptOutcome } from './webhook-post.js';
import { webhookSignatureHeaders } from './webhook-signature.js';
import { runStatement } from '../../platform/db/sql.js';
import { bulkUpdate, runBulk, type BulkWrite } from '../../platform/db/bulk.js';
import { WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint } from './webhook.entity.js';

/** Seconds after a failed attempt before the next one: 1 min, 5 min, 30 min, 2 h, 6 h; then `failed`. */
export const RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 21600] as const;
/** The first try plus one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** The spec's request timeout. */
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface DeliveryOptions {
  /** Request timeout (default 10 s, the spec's). */
  timeoutMs?: number;
  /** Requests in flight at once per worker. */
  concurrency?: number;
  /** How long a claim holds a delivery (real time); must exceed the timeout. A crashed worker's claims lapse after it. */
  leaseSeconds?: number;
  /** Stop claiming after this long; the next sweep continues. */
  budgetMs?: number;
}

interface ClaimedDelivery {
  id: string;
  attempt_id: string;
  attempt_count: number;
  url: string;
  livemode: boolean;
  attempted_at: Date;
  endpoint_id: string | null;
  event_id: string;
  event_type: string;
  event_created_at: Date;
  data: Record<string, unknown>;
  secret: string;
  previous_secret: string | null;
}

/**
 * Claims up to `limit` due deliveries in one statement (one short transaction): picks pending rows
 * whose `next_attempt_at` has come on their mode's clock and whose lease is free, skipping rows
 * another worker is claiming (`FOR UPDATE SKIP LOCKED`); sets a lease, counts the attempt, marks
 * attempts a crashed worker left `sending` as `interrupted`, and inserts this attempt (its new
 * `wd_` id is the `X-Service-Delivery` header). Returns what sending needs: event, URL, secrets.
 */
async function claimDue(orm: MikroORM, now: Date, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
  const attemptIds = Array.from({ length: limit }, () => prefixedId('wd'));
  const nowParam = '?::timestamptz';
  return runStatement<ClaimedDelivery>(
    orm.em,
    `with due as (
       select d.id from webhook_deliveries d
       where d.status = 'pending'
         and d.next_attempt_at <= ?::timestamptz + (select coalesce(max(test_clock_offset_ms), 0) from merchants) * interval '1 millisecond'
         and d.next_attempt_at <= ${effectiveNowSql('d', nowParam)}
         and (d.locked_until is null or d.locked_until < now())
       order by d.next_attempt_at
       limit ${Number(limit)}
       for update skip locked
     ), claimed as (
       update webhook_deliveries d
       set locked_until = now() + interval '${Number(leaseSeconds)} seconds', attempt_count = d.attempt_count + 1,
           last_attempt_at = ${effectiveNowSql('d', nowParam)}, updated_at = now()
       from due where d.id = due.id
       returning d.id, d.attempt_count, d.url, d.livemode, d.last_attempt_at, d.event_id, d.endpoint_id, d.merchant_id
     ), numbered as (
       select c.*, row_number() over (order by c.id) as n from claimed c
     ), interrupted as (
       update webhook_delivery_attempts a
       set status = 'interrupted', finished_at = ${effectiveNowSql('c')}, error = 'the worker stopped before the outcome was recorded'
       from claimed c where a.delivery_id = c.id and a.status = 'sending'
     ), attempts as (
       insert into webhook_delivery_attempts (id, delivery_id, attempt, status, started_at)
       select (?::jsonb ->> (n.n - 1)::int), n.id, n.attempt_count, 'sending', n.last_attempt_at from numbered n
       returning id, delivery_id
     )
     select n.id, a.id as attempt_id, n.attempt_count, n.url, n.livemode, n.last_attempt_at as attempted_at, n.endpoint_id,
            e.id as event_id, e.type as event_type, e.created_at as event_created_at, e.data,
            coalesce(we.secret, m.webhook_secret) as secret,
            case when we.previous_secret_expires_at > n.last_attempt_at then we.previous_secret end as previous_secret
     from numbered n
     join attempts a on a.delivery_id = n.id
     join events e on e.id = n.event_id
     join merchants m on m.id = n.merchant_id
     left join webhook_endpoints we on we.id = n.endpoint_id`,
    [now.toISOString(), now.toISOString(), now.toISOString(), JSON.stringify(attemptIds)],
    { autocommit: true },
  );
}

/** The headers of one attempt of `body` (an event envelope); `secrets` newest first, the first one also the deprecated bearer token. */
export function deliveryHeaders(
  event: { id: string; type: string },
  attemptId: string,
  body: string,
  secrets: string[],
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'health-commerce-webhooks/1.0',
    // webhook-id is the event's id: the same on every attempt, so receivers can deduplicate on it.
    ...webhookSignatureHeaders(event.id, body, secrets),
    'x-service-event': event.type,
    'x-service-delivery': attemptId,
    // Deprecated (spec): receivers should verify the signature instead.
    authorization: `Bearer ${secrets[0]}`,
  };
}

/** Sends one claimed delivery. */
async function send(claim: ClaimedDelivery, timeoutMs: number): Promise<AttemptOutcome> {
  const body = JSON.stringify(
    toEventEnvelope({
      id: claim.event_id,
      type: claim.event_type,
      createdAt: new Date(claim.event_created_at),
      data: claim.data,
    }),
  );
  const secrets = claim.previous_secret ? [claim.secret, claim.previous_secret] : [claim.secret];
  return postWebhook(
    claim.url,
    body,
    deliveryHeaders({ id: claim.event_id, type: claim.event_type }, claim.attempt_id, body, secrets),
    timeoutMs,
    claim.livemode,
  );
}

interface RecordedOutcome {
  delivery_id: string;
  endpoint_id: string | null;
  attempted_at: string;
  attempt_id: string;
  attempt_count: number;
  ok: boolean;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  failed_status: 'pending' | 'failed';
  next_attempt_at: string;
}

/** An attempt's outcome and the delivery's next state: `pending` again after the schedule's delay, or `failed` after the last. */
function outcomeRow(claim: ClaimedDelivery, outcome: AttemptOutcome): RecordedOutcome {
  const exhausted = claim.attempt_count >= MAX_ATTEMPTS;
  const delay = exhausted ? 0 : RETRY_DELAYS_SECONDS[claim.attempt_count - 1];
  return {
    delivery_id: claim.id,
    endpoint_id: claim.endpoint_id,
    attempted_at: new Date(claim.attempted_at).toISOString(),
    attempt_id: claim.attempt_id,
    attempt_count: claim.attempt_count,
    ok: outcome.ok,
    response_status: outcome.status,
    response_body: outcome.responseBody,
    error: outcome.error,
    duration_ms: outcome.durationMs,
    failed_status: exhausted ? 'failed' : 'pending',
    next_attempt_at: new Date(new Date(claim.attempted_at).getTime() + delay * 1000).toISOString(),
  };
}

/**
 * Records outcomes (attempts and their deliveries) in one statement. Guarded by the attempt
 * number: a worker whose lease lapsed (and whose delivery another worker re-claimed) records its
 * attempt but leaves the delivery alone. A delivery dead-lettered meanwhile (endpoint disabled)
 * stays so unless this attempt succeeded. Each endpoint's failing streak starts at its first failed
 * attempt and ends with a success.
 */
async function recordOutcomes(orm: MikroORM, rows: RecordedOutcome[]): Promise<void> {
  const endpoints = [...new Set(rows.flatMap((r) => r.endpoint_id ?? []))];
  await orm.em.fork().transactional(async (em) => {
    // The endpoints first, in id order, as everyone who changes an endpoint and its deliveries
    // (a disable dead-letters them): concurrent sweeps then never wait on each other in a circle.
    if (endpoints.length) {
      await runStatement(
        em,
        'select 1 from webhook_endpoints where id in (select jsonb_array_elements_text(?::jsonb)) order by id for no key update',
        [JSON.stringify(endpoints)],
      );
    }
    await runBulk(em, outcomeWrites(em, rows));
  });
}

/**
 * The writes of `recordOutcomes`: each endpoint's failing streak, the attempts, and the deliveries
 * still at the attempt recorded (`attemptCount` is part of the key).
 */
function outcomeWrites(em: EntityManager, rows: RecordedOutcome[]): BulkWrite[] {
  const streaks = new Map<string, Date | null>();
  for (const r of rows) {
    if (!r.endpoint_id) continue;
    const at = new Date(r.attempted_at);
    const was = streaks.get(r.endpoint_id);
    // A success in the batch ends the streak (null); else it starts at the batch's first failure.
    if (r.ok || was === null) streaks.set(r.endpoint_id, null);
    else if (was === undefined || at < was) streaks.set(r.endpoint_id, at);
  }
  const status = (r: RecordedOutcome) => (r.ok ? 'succeeded' : 'failed');
  return [
    bulkUpdate(
      em,
      WebhookEndpoint,
      [...streaks].map(([id, failingSince]) => ({ id, failingSince })),
      ['failingSince'],
      {
        assign: {
          failingSince: (stored, given) => `case when ${given} is not null then coalesce(${stored}, ${given}) end`,
        },
      },
    ),
    bulkUpdate(
      em,
      WebhookDeliveryAttempt,
      rows.map((r) => ({
        id: r.attempt_id,
        status: status(r),
        responseStatus: r.response_status,
        responseBody: r.response_body,
        error: r.error,
        durationMs: r.duration_ms,
      })),
      ['status', 'responseStatus', 'responseBody', 'error', 'durationMs'],
      {
        assign: {
          finishedAt: `(select ${effectiveNowSql('dd')} from webhook_deliveries dd where dd.id = t.delivery_id)`,
        },
      },
    ),
    bulkUpdate(
      em,
      WebhookDelivery,
      rows.map((r) => ({
        id: r.delivery_id,
        attemptCount: r.attempt_count,
        // A success moves any delivery on; a failure only a pending one (a dead-lettered one stays).
        status: r.ok ? 'succeeded' : r.failed_status,
        nextAttemptAt: r.ok ? null : r.next_attempt_at,
        lastResponseStatus: r.response_status,
        lastError: r.error,
      })),
      ['status', 'nextAttemptAt', 'lastResponseStatus', 'lastError'],
      {
        key: ['id', 'attemptCount'],
        assign: {
          status: `case when v.status = 'succeeded' or t.status = 'pending' then v.status else t.status end`,
          deliveredAt: `case when v.status = 'succeeded' then ${effectiveNowSql('t')} else t.delivered_at end`,
          nextAttemptAt: (stored, given) => `coalesce(${given}, ${stored})`,
          lockedUntil: 'null',
          updatedAt: 'now()',
        },
      },
    ),
  ];
}

/** Batches outcomes: one statement in flight at a time carries everything queued meanwhile. */
function outcomeRecorder(orm: MikroORM, log: Log) {
  let queue: RecordedOutcome[] = [];
  let flushing: Promise<void> | undefined;
  const flush = async (): Promise<void> => {
    while (queue.length) {
      const rows = queue;
      queue = [];
      await recordOutcomes(orm, rows).catch((err: unknown) =>
        log.error(
          { err, deliveries: rows.length },
          'webhook outcomes not recorded; their leases will lapse and they are sent again',
        ),
      );
    }
  };
  return {
    add(row: RecordedOutcome): void {
      queue.push(row);
      flushing ??= flush().finally(() => (flushing = undefined));
    },
    /** Resolves when everything added so far is recorded. */
    async settle(): Promise<void> {
      while (flushing) await flushing;
    },
  };
}

/**
 * Sends every delivery due at `now` (each mode on its own clock): a pool of up to `concurrency`
 * requests, refilled by claiming as requests finish, until nothing is due and nothing is in
 * flight (or the budget is spent). At least once: a crash after claiming means the lease lapses
 * and a later sweep sends again; two workers never hold one delivery at the same time.
 */
export async function deliverDue(
  orm: MikroORM,
  now: Date,
  log: Log,
  options: DeliveryOptions = {},
): Promise<{ attempted: number; succeeded: number }> {
  const {
    timeoutMs = DEFAULT_TIMEOUT_MS,
    concurrency = 32,
    leaseSeconds = Math.ceil(timeoutMs / 1000) + 50,
    budgetMs = 60_000,
  } = options;
  const stopAt = Date.now() + budgetMs;
  const inFlight = new Set<Promise<void>>();
  const recorder = outcomeRecorder(orm, log);
  let attempted = 0;
  let succeeded = 0;
  let drained = false;
  for (;;) {
    // Refill in batches (half the pool at least): one claim statement per row would cost more than the sends.
    if (!drained && inFlight.size <= concurrency / 2 && Date.now() < stopAt) {
      const claimed = await claimDue(orm, now, concurrency - inFlight.size, leaseSeconds);
      drained = claimed.length === 0;
      for (const claim of claimed) {
        attempted++;
        const job = send(claim, timeoutMs)
          .then((outcome) => {
            if (outcome.ok) succeeded++;
            else
              log.info(
                { delivery: claim.id, attempt: claim.attempt_count, error: outcome.error },
                'webhook attempt failed',
              );
            const row = outcomeRow(claim, outcome);
            webhookAttempts.inc({ outcome: outcome.ok ? 'succeeded' : 'failed' });
            if (!outcome.ok && row.failed_status === 'failed') webhookDeadLettered.inc();
            recorder.add(row);
          })
          .finally(() => inFlight.delete(job));
        inFlight.add(job);
      }
      if (claimed.length) continue;
    }
    if (inFlight.size === 0) {
      await recorder.settle();
      break;
    }
    await Promise.race(inFlight);
    // A slot is free: look for more due work (anything claimed meanwhile elsewhere is skipped).
    drained = false;
  }
  return { attempted, succeeded };
}
