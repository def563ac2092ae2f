import type { Sweep } from '../../platform/jobs/jobs.js';
import { runBillingSweep } from './subscription-billing.js';

/** Charges due cycles (renewals and retries) and ends scheduled cancellations, by each merchant's clock. */
export const subscriptionBillingSweep: Sweep = {
  name: 'subscriptions.bill',
  every: '1 minute',
  run: async (orm, _now, log) => {
    const charged = await runBillingSweep(orm.em, log);
    if (charged) log.info({ charged }, 'subscription cycles charged');
  },
};
