import type { Sweep } from '../../platform/jobs/jobs.js';
import { purgeInBatches } from '../../platform/retention.js';

/** Hourly: console sessions past their 12 idle hours go (they are refused already; this keeps the table small). */
export const consoleSessionSweep: Sweep = {
  name: 'console.sessions.purge',
  every: '1 hour',
  run: async (orm, _now, log) => {
    const purged = await purgeInBatches(orm, 'console_sessions', 'expires_at < now()', [], { batch: 5000, key: 'sid' });
    if (purged) log.info({ purged }, 'expired console sessions purged');
  },
};
