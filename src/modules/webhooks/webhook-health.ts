import type { MikroORM } from '@mikro-orm/postgresql';
import { systemContext, type Log } from '../../platform/context.js';
import { queueEmailOnce } from '../email/email-outbox.js';
import { disableWebhookEndpoint, FAILING_DAYS_BEFORE_DISABLE } from './webhook.service.js';
import { runStatement } from '../../platform/db/sql.js';

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
  const failing = await runStatement<FailingEndpoint>(
    em,
    `select we.id, we.merchant_id, we.livemode, we.failing_since, m.test_clock_offset_ms
     from webhook_endpoints we join merchants m on m.id = we.merchant_id
     where we.status = 'enabled' and we.failing_since is not null
       and exists (select 1 from webhook_deliveries d join webhook_delivery_attempts a on a.delivery_id = d.id
                   where d.endpoint_id = we.id and a.status = 'failed' and a.started_at >= we.failing_since + interval '${FAILING_DAYS_BEFORE_DISABLE} days')`,
    [],
    { autocommit: true },
  );
  for (const row of failing) {
    const ctx = systemContext(orm.em.fork(), row.merchant_id, row.livemode, Number(row.test_clock_offset_ms ?? 0), log);
    await disableWebhookEndpoint(ctx, row.id, { failingSince: new Date(row.failing_since) });
    log.warn(
      { endpoint: row.id },
      `webhook endpoint disabled after ${FAILING_DAYS_BEFORE_DISABLE} days of failed deliveries`,
    );
  }
  return failing.length;
}

/** Hours of failing deliveries after which the team is emailed (once per failing streak). */
export const FAILING_HOURS_BEFORE_WARNING = 24;

interface WarnedEndpoint {
  id: string;
  merchant_id: string;
  livemode: boolean;
  url: string;
  failing_since: Date;
  dedupe_key: string;
  last_error: string | null;
  at: Date;
}

/**
 * Emails the merchant's team about every enabled endpoint that has failed every attempt for 24
 * hours (a failed attempt 24 h or more into its failing streak, on its mode's clock), once per
 * streak: the message's dedupe key names the endpoint and the streak's start.
 */
export async function warnFailingEndpoints(orm: MikroORM): Promise<number> {
  const em = orm.em.fork();
  const key = `'webhook_endpoint_failing:' || we.id || ':' || floor(extract(epoch from we.failing_since) * 1000)::bigint`;
  const failing = await runStatement<WarnedEndpoint>(
    em,
    `select we.id, we.merchant_id, we.livemode, we.url, we.failing_since, ${key} as dedupe_key, last.error as last_error, last.started_at as at
     from webhook_endpoints we
     cross join lateral (select a.error, a.started_at from webhook_deliveries d join webhook_delivery_attempts a on a.delivery_id = d.id
                         where d.endpoint_id = we.id and a.status = 'failed' and a.started_at >= we.failing_since + interval '${FAILING_HOURS_BEFORE_WARNING} hours'
                         order by a.started_at desc limit 1) last
     where we.status = 'enabled' and we.failing_since is not null
       and not exists (select 1 from email_messages m where m.merchant_id = we.merchant_id and m.dedupe_key = ${key})`,
    [],
    { autocommit: true },
  );
  for (const row of failing) {
    await queueEmailOnce(
      em,
      { merchantId: row.merchant_id, livemode: row.livemode, at: new Date(row.at) },
      {
        kind: 'webhook_endpoint_failing',
        to: null,
        data: {
          endpoint_id: row.id,
          url: row.url,
          failing_since: new Date(row.failing_since).toISOString(),
          last_error: row.last_error,
        },
      },
      row.dedupe_key,
    );
  }
  return failing.length;
}
