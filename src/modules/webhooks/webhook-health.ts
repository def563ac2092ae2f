import type { MikroORM } from '@mikro-orm/postgresql';
import { systemContext, type Log } from '../../platform/context.js';
import { disableWebhookEndpoint, FAILING_DAYS_BEFORE_DISABLE } from './webhook.service.js';

interface FailingEndpoint {
  id: string;
  merchant_id: string;
  livemode: boolean;
  failing_since: Date;
  test_clock_offset_ms: string | number | null;
}

/**
 * Disables every enabled endpoint that has failed every attempt for 3 days: its failing streak
 * (`failing_since`, set by the first failed attempt after a success) began 3 days or more before
 * a failed attempt, on its mode's clock. `webhook_endpoint.disabled` is recorded with it.
 */
export async function disableFailingEndpoints(orm: MikroORM, log: Log): Promise<number> {
  const em = orm.em.fork();
  const failing = await em.getConnection().execute<FailingEndpoint[]>(
    `select we.id, we.merchant_id, we.livemode, we.failing_since, m.test_clock_offset_ms
     from webhook_endpoints we join merchants m on m.id = we.merchant_id
     where we.status = 'enabled' and we.failing_since is not null
       and exists (select 1 from webhook_deliveries d join webhook_delivery_attempts a on a.delivery_id = d.id
                   where d.endpoint_id = we.id and a.status = 'failed' and a.started_at >= we.failing_since + interval '${FAILING_DAYS_BEFORE_DISABLE} days')`,
  );
  for (const row of failing) {
    const ctx = systemContext(orm.em.fork(), row.merchant_id, row.livemode, Number(row.test_clock_offset_ms ?? 0), log);
    await disableWebhookEndpoint(ctx, row.id, { failingSince: new Date(row.failing_since) });
    log.warn({ endpoint: row.id }, `webhook endpoint disabled after ${FAILING_DAYS_BEFORE_DISABLE} days of failed deliveries`);
  }
  return failing.length;
}
