import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../../platform/errors.js';
import type { PublicRoute } from '../../../platform/rest/public-routes.js';
import { processorNotificationSweep } from '../payment.jobs.js';
import { livePayments } from '../processor-registry.js';
import { receiveAdyenNotifications, receiveAdyenTokenWebhook } from './adyen-notifications.js';

const headerOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Constant-time check of the Basic auth Adyen sends when the notification's credentials are configured. */
function basicAuthMatches(header: string | undefined, expected: string): boolean {
  const given = Buffer.from(
    header?.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '',
  );
  const want = Buffer.from(expected);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * `POST /processor-notifications/adyen` (contract): Adyen's standard notifications. Answers
 * `[accepted]` once every item is verified and stored; the job applies them. With
 * `ADYEN_NOTIFICATION_BASIC_AUTH` set, the request must also carry those Basic auth credentials.
 */
export const processorNotificationRoutes: PublicRoute[] = [
  {
    method: 'POST',
    url: '/processor-notifications/adyen',
    handler: async (req, reply, orm) => {
      const live = livePayments();
      const basicAuth = live?.settings.notificationBasicAuth;
      if (basicAuth && !basicAuthMatches(req.headers.authorization, basicAuth)) {
        throw new DomainError('unauthorized', 'Notification credentials (Basic auth) are missing or wrong.');
      }
      const accounts = live?.notificationAccounts ?? null;
      const body = req.body as { type?: unknown } | undefined;
      const stored =
        typeof body?.type === 'string' && body.type.startsWith('recurring.token.')
          ? await receiveAdyenTokenWebhook(
              orm.em.fork(),
              body,
              req.rawBody,
              headerOf(req.headers.hmacsignature),
              accounts,
            )
          : await receiveAdyenNotifications(orm.em.fork(), req.body, accounts);
      if (stored) req.server.jobs.kick(processorNotificationSweep.name);
      return reply.code(200).type('text/plain; charset=utf-8').send('[accepted]');
    },
  },
];
