import { purgeExpiredIdempotencyKeys } from '../idempotency/idempotency.service.js';
import { purgeCostBuckets } from '../graphql/cost-bucket.js';
import { purgeRateLimitCounters } from '../rest/rate-limit-store.js';
import type { Sweep } from './jobs.js';

/** Hourly: forget idempotency keys past their 24 hours, rate-limit windows long gone and idle (full) query-cost buckets. */
export const housekeepingSweep: Sweep = {
  name: 'housekeeping.purge',
  every: '1 hour',
  run: async (orm, now, log) => {
    const purged = await purgeExpiredIdempotencyKeys(orm.em.fork());
    await purgeRateLimitCounters(orm, now);
    await purgeCostBuckets(orm);
    if (purged) log.info({ purged }, 'expired idempotency keys purged');
  },
};
