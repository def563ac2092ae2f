import { LockMode } from '@mikro-orm/core';
import type { ServiceContext } from '../../platform/context.js';
import { CheckoutSession } from '../checkout/checkout-session.entity.js';
import type { PaymentLink } from './payment-link.entity.js';

/**
 * Readies a `payment_type: subscription` link's checkout session before it is paid (inside the
 * link's short locked transaction): the session is then paid as any checkout, and that payment
 * starts the subscription (customer found by email or created, the card stored, the first cycle
 * being the link's order: see startSubscriptionFromCheckout).
 */
export async function prepareSubscriptionLinkSession(ctx: ServiceContext, link: PaymentLink): Promise<void> {
  const session = await ctx.em.findOneOrFail(CheckoutSession, { id: link.checkoutId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (session.paymentType !== 'subscription') {
    session.paymentType = 'subscription';
    session.subscription = link.subscription;
  }
}
