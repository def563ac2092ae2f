import { effectiveNowSql } from '../../platform/clock.js';
import type { Sweep } from '../../platform/jobs/jobs.js';
import { expireDueLinks } from './payment-link.service.js';

/** Expires active payment links past their `expires_at` (each by its merchant's clock). */
export const paymentLinkExpirySweep: Sweep = {
  name: 'payment_links.expire',
  every: '1 minute',
  run: async (orm, _now, log) => {
    const expired = await expireDueLinks(orm, (alias) => effectiveNowSql(alias), log);
    if (expired) log.info({ expired }, 'payment links expired');
  },
};
