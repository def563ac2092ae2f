import type { Sweep } from '../../platform/jobs/jobs.js';
import { expireDueReviews } from './lmn-review.service.js';

/** Expires LMN reviews no clinician decided within LMN_REVIEW_TIMEOUT_HOURS (each by its merchant's clock): the HSA/FSA hold is released. */
export const lmnReviewTimeoutSweep: Sweep = {
  name: 'lmn_reviews.expire',
  every: '5 minutes',
  run: async (orm, _now, log) => {
    const expired = await expireDueReviews(orm, log);
    if (expired) log.info({ expired }, 'LMN reviews expired');
  },
};
