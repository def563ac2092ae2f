import type { Sweep } from '../../platform/jobs/jobs.js';
import { deliverDueEmails } from './email-delivery.service.js';

/**
 * Every 10 seconds (and at once when a new message is committed: `NOTIFY emails`, see app.ts):
 * render and send every outbox message now due, each mode on its own clock.
 */
export const emailSweep: Sweep = {
  name: 'emails.send',
  every: '10 seconds',
  run: async (orm, now, log) => {
    await deliverDueEmails(orm, now, log);
  },
  kickPaceMs: 10,
};
