import type { Sweep } from '../../platform/jobs/jobs.js';
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
