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

/** Hourly: applied processor notifications older than PROCESSOR_NOTIFICATION_RETENTION_DAYS (730: chargebacks come months later) go. */
export const processorNotificationRetentionSweep: Sweep = {
  name: 'payments.notifications.retention',
  every: '1 hour',
  run: async (orm, now, log) => {
    const purged = await purgeInBatches(orm, 'processor_notifications', 'received_at < ? and applied_at is not null', [daysBefore(now, retention.processorNotificationDays)]);
    if (purged) log.info({ purged, days: retention.processorNotificationDays }, 'processor notifications past their retention purged');
  },
};
