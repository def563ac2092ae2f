import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * How long rows that grow with traffic are kept (EVENT_RETENTION_DAYS,
 * PROCESSOR_NOTIFICATION_RETENTION_DAYS, PAYMENT_ATTEMPT_RETENTION_DAYS,
 * PROCESSOR_CALL_RETENTION_DAYS); the sweeps of their modules purge what is older, by real time
 * (never a test clock's). Set once at start-up from the configuration.
 */
export const retention = {
  eventDays: 30,
  processorNotificationDays: 730,
  paymentAttemptDays: 90,
  processorCallDays: 90,
};

export function configureRetention(settings: {
  EVENT_RETENTION_DAYS: number;
  PROCESSOR_NOTIFICATION_RETENTION_DAYS: number;
  PAYMENT_ATTEMPT_RETENTION_DAYS: number;
  PROCESSOR_CALL_RETENTION_DAYS: number;
}): void {
  retention.eventDays = settings.EVENT_RETENTION_DAYS;
  retention.processorNotificationDays = settings.PROCESSOR_NOTIFICATION_RETENTION_DAYS;
  retention.paymentAttemptDays = settings.PAYMENT_ATTEMPT_RETENTION_DAYS;
  retention.processorCallDays = settings.PROCESSOR_CALL_RETENTION_DAYS;
}

/** The moment `days` before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}

/**
 * Deletes the rows of `table` that `where` selects (`$1`… are `params`), `batch` at a time, each
 * batch its own short statement, until none is left or `budgetMs` has passed (the next run goes
 * on): a purge never holds long locks nor one long transaction, so reads are unaffected.
 */
export async function purgeInBatches(
  orm: MikroORM,
  table: string,
  where: string,
  params: unknown[],
  opts: { batch?: number; budgetMs?: number; key?: string } = {},
): Promise<number> {
  const batch = opts.batch ?? 2000;
  const id = opts.key ?? 'id';
  const until = Date.now() + (opts.budgetMs ?? 20_000);
  const conn = orm.em.getConnection();
  let purged = 0;
  for (;;) {
    const rows = await conn.execute<unknown[]>(
      `delete from ${table} where ${id} in (select ${id} from ${table} where ${where} limit ${batch}) returning 1`,
      params,
    );
    purged += rows.length;
    if (rows.length < batch || Date.now() > until) return purged;
  }
}
