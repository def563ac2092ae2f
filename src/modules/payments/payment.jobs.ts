import type { Sweep } from '../../platform/jobs/jobs.js';
import { reverseAbandonedAttempts } from './payment-journal.js';

/** Reverses payment attempts that never reached an order (a crash or an error mid-payment). */
export const paymentReconciliationSweep: Sweep = {
  name: 'payments.reconcile',
  every: '1 minute',
  run: async (orm, _now, log) => {
    await reverseAbandonedAttempts(orm, log);
  },
};
