import type { Sweep } from '../../platform/jobs/jobs.js';
import { daysBefore, purgeInBatches, retention } from '../../platform/retention.js';
import { deliverDue } from './webhook-delivery.service.js';
import { dispatchEvents } from './webhook-dispatch.js';
import { disableFailingEndpoints, warnFailingEndpoints } from './webhook-health.js';

/**
 * Every few seconds (and at once when PostgreSQL announces a retry, see app.ts): fan new events
 * out into deliveries, then send every delivery now due, each mode on its own clock. A new event
 * kicks the lighter `prompt`. Correctness never depends on the prompt run: this sweep finds everything.
 */
export const webhookDeliverySweep: Sweep = {
  name: 'webhooks.deliver',
  every: '5 seconds',
  run: async (orm, now, log) => {
    await dispatchEvents(orm, now, log);
    await deliverDue(orm, now, log);
    // After 24 hours of failures the team is emailed; after 3 days an endpoint is disabled (its webhook_endpoint.disabled goes out with the next run).
    await warnFailingEndpoints(orm);
    await disableFailingEndpoints(orm, log);
    // Events recorded while sending (e.g. by a long batch) are picked up by the next run or trigger.
  },
  // After a new event: fan it out, and send only when that made deliveries (retries and endpoint health wait for a whole run).
  prompt: async (orm, now, log) => {
    if ((await dispatchEvents(orm, now, log)) > 0) await deliverDue(orm, now, log);
  },
  // Under load one fan-out every 50 ms takes many commits' events at once (a webhook waits at most that much longer).
  kickPaceMs: 50,
};

/**
 * Hourly: events older than EVENT_RETENTION_DAYS (30) go, with their deliveries and attempts
 * (cascade); an event still waiting for dispatch or with a delivery still pending stays until it is sent.
 * Age is real time: `dispatched_at` (set by the database clock moments after the event commits),
 * not `created_at`, which a test-mode event takes from its merchant's test clock (years ahead, maybe).
 */
export const eventRetentionSweep: Sweep = {
  name: 'events.retention',
  every: '1 hour',
  run: async (orm, now, log) => {
    const purged = await purgeInBatches(
      orm,
      'events',
      `dispatched_at < ? and not exists (select 1 from webhook_deliveries d where d.event_id = events.id and d.status = 'pending')`,
      [daysBefore(now, retention.eventDays)],
    );
    if (purged) log.info({ purged, days: retention.eventDays }, 'events past their retention purged');
  },
};

/** The webhook sweeps, run after every other sweep so that events those record go out in the same pass. */
export const webhookSweeps: Sweep[] = [webhookDeliverySweep, eventRetentionSweep];
