import type { Sweep } from '../../platform/jobs/jobs.js';
import { deliverDueEmails } from './email-delivery.service.js';

const send: Sweep['run'] = async (orm, now, log) => {
  await deliverDueEmails(orm, now, log);
};

/**
 * Every 10 seconds, and within half a second of a new message's commit (`NOTIFY emails`, see app.ts):
 * render and send every outbox message now due, each mode on its own clock. The runs a new
 * message prompts are paced, so that under load one run renders many commits' messages together.
 */
export const emailSweep: Sweep = { name: 'emails.send', every: '10 seconds', run: send, prompt: send, kickPaceMs: 500 };
