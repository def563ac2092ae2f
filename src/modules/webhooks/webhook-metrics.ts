import type { MikroORM } from '@mikro-orm/postgresql';
import {
  outboxOldestUndispatchedAge,
  outboxUndispatchedEvents,
  webhookDeadLetters,
  webhookOldestPendingAge,
  webhookPendingDeliveries,
} from '../../platform/observability/metrics.js';
import { runStatement } from '../../platform/db/sql.js';

interface BacklogRow {
  undispatched: number;
  undispatched_age: number;
  pending: number;
  pending_age: number;
  failed: number;
  dead_letter: number;
}

/**
 * Reads the outbox backlog into its gauges (a scrape sampler, one statement on partial indexes):
 * events not yet fanned out and the oldest one's age, deliveries not yet delivered and the oldest
 * one's age, and the dead letter (`failed`: every retry failed; `dead_letter`: its endpoint was
 * disabled while queued).
 */
export async function sampleWebhookBacklog(orm: MikroORM): Promise<void> {
  const [row] = await runStatement<BacklogRow>(
    orm.em,
    `select
       (select count(*) from events where dispatched_at is null)::float8 as undispatched,
       (select coalesce(extract(epoch from now() - min(created_at)), 0) from events where dispatched_at is null)::float8 as undispatched_age,
       (select count(*) from webhook_deliveries where status = 'pending')::float8 as pending,
       (select coalesce(extract(epoch from now() - min(created_at)), 0) from webhook_deliveries where status = 'pending')::float8 as pending_age,
       (select count(*) from webhook_deliveries where status = 'failed')::float8 as failed,
       (select count(*) from webhook_deliveries where status = 'dead_letter')::float8 as dead_letter`,
    [],
    { autocommit: true },
  );
  outboxUndispatchedEvents.set(row.undispatched);
  outboxOldestUndispatchedAge.set(Math.max(0, row.undispatched_age));
  webhookPendingDeliveries.set(row.pending);
  webhookOldestPendingAge.set(Math.max(0, row.pending_age));
  webhookDeadLetters.set({ status: 'failed' }, row.failed);
  webhookDeadLetters.set({ status: 'dead_letter' }, row.dead_letter);
}
