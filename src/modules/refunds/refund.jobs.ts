import type { Sweep } from '../../platform/jobs/jobs.js';
import { processPendingRefunds } from './refund-processing.service.js';

/** Sends pending refunds to the processor and records `refund.succeeded` / `refund.failed`. */
export const refundProcessingSweep: Sweep = {
  name: 'refunds.process',
  every: '5 seconds',
  run: async (orm, _now, log) => {
    const processed = await processPendingRefunds(orm, log);
    if (processed) log.info({ processed }, 'refunds processed');
  },
};
