import type { EntityManager } from '@mikro-orm/postgresql';
import type { PageAuthorizer, Principal } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { CheckoutSession } from './checkout-session.entity.js';

/** The session whose hosted-page token is `token`, or 404 `not_found` (a wrong token is as unknown as a wrong id). */
export async function findCheckoutByPageToken(em: EntityManager, id: string, token: unknown): Promise<CheckoutSession> {
  const session =
    typeof token === 'string' && token.length >= 16
      ? await em.findOne(CheckoutSession, { id, accessToken: token })
      : null;
  if (!session) throw DomainError.notFound('checkout session', id, 'checkout_id');
  return session;
}

// Card testing through a leaked link: at most 10 payment attempts a minute per page and network.
export const PAY_ATTEMPTS = { max: 10, windowMs: 60_000 };

/** What a shopper is told when the page's payment attempts are limited: this checkout from this network, not an API key. */
export function payAttemptsExceeded(max: number, waitSeconds: number): string {
  return `Too many payment attempts for this checkout from your network (at most ${max} a minute). Nothing was charged; wait ${waitSeconds} seconds and try again.`;
}

/**
 * `POST /api/v2/checkout/{id}/payments` and `…/payments/details` from the checkout's hosted page:
 * `?token=` (the page's `checkout_url` token) authorises that one checkout, in its merchant and
 * mode, with the page's limit on payment attempts. Without `?token=` the merchant's API key is
 * required as on every route.
 */
export const checkoutPageToken: PageAuthorizer = async (em, request): Promise<Principal | null> => {
  const { token } = (request.query ?? {}) as { token?: unknown };
  if (token === undefined) return null;
  const { checkout_id: id } = request.params as { checkout_id: string };
  const fork = em.fork();
  const session = await findCheckoutByPageToken(fork, id, token);
  const merchant = await fork.findOneOrFail(Merchant, session.merchant.id);
  return {
    merchantId: merchant.id,
    livemode: session.livemode,
    clockOffsetMs: session.livemode ? 0 : Number(merchant.testClockOffsetMs),
    keyId: `page:${session.id}:${request.ip}`,
    rateLimit: { ...PAY_ATTEMPTS, message: payAttemptsExceeded },
  };
};
