import type { Sweep } from '../jobs/jobs.js';
import { purgeExpiredIdempotencyKeys } from './idempotency.service.js';

/** Hourly: forget idempotency keys past their 24 hours. */
export const idempotencyPurgeSweep: Sweep = {
  name: 'idempotency-keys.purge',
  every: '1 hour',
  run: async (orm, _now, log) => {
    const purged = await purgeExpiredIdempotencyKeys(orm.em.fork());
    if (purged) log.info({ purged }, 'expired idempotency keys purged');
  },
};
