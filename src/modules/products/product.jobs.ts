import type { Sweep } from '../../platform/jobs/jobs.js';
import { recheckEligibility } from './eligibility-recheck.service.js';

/** After a deploy that changed the eligibility engine, checks every stored product again (once per engine version; then one read an hour). */
export const eligibilityRecheckSweep: Sweep = {
  name: 'eligibility.recheck',
  every: '1 hour',
  run: async (orm, _now, log) => {
    const report = await recheckEligibility(orm, log);
    if (report) log.info(report, 'products checked again with the updated eligibility engine');
  },
};
