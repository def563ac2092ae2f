import { effectiveNowSql } from '../../platform/clock.js';
import type { Sweep } from '../../platform/jobs/jobs.js';
import { expireDueSessions } from './checkout.service.js';

/** Expires open checkout sessions past their 24 hours (each by its merchant's clock). */
export const checkoutExpirySweep: Sweep = {
  name: 'checkout.expire',
  every: '1 minute',
  run: async (orm, _now, log) => {
    const expired = await expireDueSessions(orm, (alias) => effectiveNowSql(alias), log);
    if (expired) log.info({ expired }, 'checkout sessions expired');
  },
};
