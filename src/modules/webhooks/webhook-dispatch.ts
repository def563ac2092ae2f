import type { MikroORM } from '@mikro-orm/postgresql';
import { effectiveNowSql } from '../../platform/clock.js';
import type { Log } from '../../platform/context.js';
import { prefixedId } from '../../platform/db/ids.js';
import { bulkInsert, runBulk, type BulkRow } from '../../platform/db/bulk.js';
import { runStatement } from '../../platform/db/sql.js';
import { WebhookDelivery } from './webhook.entity.js';
import { webhookUrlProblem } from './webhook-url.js';

/** Events fanned out per transaction. */
const BATCH = 500;

interface PendingEvent {
  id: string;
  merchant_id: string;
  livemode: boolean;
  type: string;
  webhook_url: string | null;
}

interface EnabledEndpoint {
  id: string;
  merchant_id: string;
  livemode: boolean;
  url: string;
  events: string[];
}

/** True when an endpoint's `events` filter lets `type` through. */
export function endpointWants(filter: string[], type: string): boolean {
  return filter.includes('*') || filter.includes(type);
}

/**
 * The outbox fan-out: turns events not yet dispatched into one `webhook_deliveries` row per
 * enabled endpoint of their merchant and mode subscribed to their type, plus one for the event's
 * own `webhook_url`, and marks them dispatched, atomically per batch. Batches are claimed with
 * `FOR UPDATE SKIP LOCKED`, so workers share the backlog; a worker that dies mid-batch rolls back
 * and the events stay undispatched for the next sweep (nothing lost, and a unique index on
 * (event, endpoint) means nothing doubled). Events without a `webhook_url` (nearly all) go in one
 * statement per batch; those with one are vetted here first (`fanOutWithUrls`). Returns how many
 * deliveries it made.
 */
export async function dispatchEvents(orm: MikroORM, now: Date, log: Log): Promise<number> {
  let deliveries = 0;
  for (;;) {
    const [batch] = await runStatement<{ dispatched: number; delivered: number; url_pending: boolean }>(
      orm.em,
      FAN_OUT,
      [now.toISOString()],
    );
    deliveries += batch.delivered;
    if (batch.url_pending) deliveries += await fanOutWithUrls(orm, now, log);
    if (batch.dispatched < BATCH) return deliveries;
  }
}

/** One batch of events without a webhook_url, fanned out and marked in a single statement (its own transaction). */
const FAN_OUT = `with claimed as (
    select id, merchant_id, livemode, type from events
    where dispatched_at is null and webhook_url is null order by created_at, id limit ${BATCH} for update skip locked
  ), delivered as (
    insert into webhook_deliveries (id, merchant_id, livemode, event_id, event_type, endpoint_id, url, status, attempt_count, next_attempt_at, created_at, updated_at)
    select 'wd_' || random_base62(24), c.merchant_id, c.livemode, c.id, c.type, we.id, we.url, 'pending', 0, ${effectiveNowSql('c', '?::timestamptz')}, now(), now()
    from claimed c join webhook_endpoints we on we.merchant_id = c.merchant_id and we.livemode = c.livemode and we.status = 'enabled'
      and (we.events @> '["*"]'::jsonb or we.events @> jsonb_build_array(c.type))
    on conflict do nothing returning 1
  ), marked as (
    update events set dispatched_at = now() where id in (select id from claimed) returning 1
  )
  select (select count(*) from marked)::int as dispatched, (select count(*) from delivered)::int as delivered,
         exists (select 1 from events where dispatched_at is null and webhook_url is not null) as url_pending`;

/** The events with a `webhook_url`: the URL is vetted before a delivery is made for it (one transaction per batch). Returns how many deliveries it made. */
async function fanOutWithUrls(orm: MikroORM, now: Date, log: Log): Promise<number> {
  let deliveries = 0;
  for (;;) {
    const batch = await orm.em.fork().transactional(async (em) => {
      const events = await runStatement<PendingEvent>(
        em,
        `select id, merchant_id, livemode, type, webhook_url from events
         where dispatched_at is null and webhook_url is not null order by created_at, id limit ${BATCH} for update skip locked`,
      );
      if (events.length === 0) return { events: 0, deliveries: 0 };
      const merchants = JSON.stringify([...new Set(events.map((e) => e.merchant_id))]);
      const endpoints = await runStatement<EnabledEndpoint>(
        em,
        `select id, merchant_id, livemode, url, events from webhook_endpoints
         where status = 'enabled' and merchant_id in (select jsonb_array_elements_text(?::jsonb))`,
        [merchants],
      );
      const rows: BulkRow<WebhookDelivery>[] = [];
      for (const event of events) {
        const base = {
          merchant: event.merchant_id,
          livemode: event.livemode,
          event: event.id,
          eventType: event.type,
        };
        for (const endpoint of endpoints) {
          if (
            endpoint.merchant_id === event.merchant_id &&
            endpoint.livemode === event.livemode &&
            endpointWants(endpoint.events, event.type)
          ) {
            rows.push({ ...base, id: prefixedId('wd'), endpoint: endpoint.id, url: endpoint.url });
          }
        }
        if (event.webhook_url) {
          const problem = webhookUrlProblem(event.webhook_url, event.livemode);
          if (problem) log.warn({ event: event.id, problem }, 'event webhook_url refused; not delivered');
          else rows.push({ ...base, id: prefixedId('wd'), endpoint: null, url: event.webhook_url });
        }
      }
      // Due at once, on the clock of the row's mode (a test clock in test mode); a delivery made already stays.
      await runBulk(em, [
        bulkInsert(em, WebhookDelivery, rows, {
          constants: { status: 'pending', attemptCount: 0 },
          computed: { nextAttemptAt: { sql: effectiveNowSql('v', '?::timestamptz'), params: [now.toISOString()] } },
          onConflict: {},
        }),
      ]);
      await runStatement(
        em,
        `update events set dispatched_at = now() where id in (select jsonb_array_elements_text(?::jsonb))`,
        [JSON.stringify(events.map((e) => e.id))],
      );
      return { events: events.length, deliveries: rows.length };
    });
    deliveries += batch.deliveries;
    if (batch.events < BATCH) return deliveries;
  }
}
