import type { Sweep } from '../../platform/jobs/jobs.js';
import { daysBefore, purgeInBatches, retention } from '../../platform/retention.js';
import { applyProcessorNotifications } from './adyen/adyen-notifications.js';
import { reverseAbandonedAttempts } from './payment-journal.js';

/** Reverses payment attempts that never reached an order (a crash or an error mid-payment). */
export const paymentReconciliationSweep: Sweep = {
  name: 'payments.reconcile',
  every: '1 minute',
  run: async (orm, _now, log) => {
    await reverseAbandonedAttempts(orm, log);
  },
};

/** Applies the processor notifications received and not yet applied (kicked by their route, swept as a fallback). */
export const processorNotificationSweep: Sweep = {
  name: 'payments.notifications',
  every: '10 seconds',
  run: async (orm, _now, log) => {
    await applyProcessorNotifications(orm, log);
  },
};

/**
 * Hourly, by real time (the rows' `created_at`, set by the database clock):
 * - `payment_attempts` (the journal) that failed or were reversed, older than
 *   PAYMENT_ATTEMPT_RETENTION_DAYS (90): they own no payment, whether kept or not. Open ones
 *   (reconciliation's) and succeeded ones (a late notification is matched through them; one per
 *   paid order) stay.
 * - `processor_calls` older than PROCESSOR_CALL_RETENTION_DAYS (90), except successful
 *   authorisations and charges: a capture or refund of the payment reads its amount there.
 * - `processor_ledger` (the test-mode simulated processor's own books) older than the same.
 */
export const paymentRecordsRetentionSweep: Sweep = {
  name: 'payments.retention',
  every: '1 hour',
  run: async (orm, now, log) => {
    const attempts = await purgeInBatches(
      orm,
      'payment_attempts',
      `created_at < ? and status in ('failed', 'reversed')`,
      [daysBefore(now, retention.paymentAttemptDays)],
    );
    const callsBefore = daysBefore(now, retention.processorCallDays);
    const calls = await purgeInBatches(
      orm,
      'processor_calls',
      `created_at < ? and not (ok and operation in ('authorize', 'details', 'charge'))`,
      [callsBefore],
      { key: 'key' },
    );
    const ledger = await purgeInBatches(orm, 'processor_ledger', 'created_at < ?', [callsBefore], { key: 'key' });
    if (attempts || calls || ledger)
      log.info({ attempts, calls, ledger }, 'payment attempts and processor call logs past their retention purged');
  },
};

/** Hourly: applied processor notifications older than PROCESSOR_NOTIFICATION_RETENTION_DAYS (730: chargebacks come months later) go. */
export const processorNotificationRetentionSweep: Sweep = {
  name: 'payments.notifications.retention',
  every: '1 hour',
  run: async (orm, now, log) => {
    const purged = await purgeInBatches(orm, 'processor_notifications', 'received_at < ? and applied_at is not null', [
      daysBefore(now, retention.processorNotificationDays),
    ]);
    if (purged)
      log.info(
        { purged, days: retention.processorNotificationDays },
        'processor notifications past their retention purged',
      );
  },
};
