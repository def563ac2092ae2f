import { LockMode } from '@mikro-orm/core';
import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { payCheckoutSession } from '../checkout/checkout-payment.service.js';
import { CheckoutSession } from '../checkout/checkout-session.entity.js';
import { markPaymentLinkPaid, type LinkPayment } from './payment-link-payment.service.js';
import type { PaymentLink } from './payment-link.entity.js';
import type { PayPaymentLinkInput } from './payment-link.schemas.js';

/**
 * Pays a `payment_type: subscription` link, inside the link's locked transaction: its checkout
 * session (`payment_type: subscription`) is paid as any checkout, and that payment starts the
 * subscription (customer found by email or created, the card stored, the first cycle being the
 * link's order: see startSubscriptionFromCheckout); then the link is marked paid.
 */
export async function paySubscriptionLink(ctx: ServiceContext, link: PaymentLink, input: PayPaymentLinkInput, clientReferenceId: string | null): Promise<LinkPayment> {
  if (!link.customer && !input.customer) {
    throw new DomainError('validation_error', 'Invalid request: customer is required: this link names no customer, so give the payer’s email and name', {
      param: 'customer',
      details: [{ field: 'customer', message: 'is required: this link names no customer' }],
    });
  }
  const session = await ctx.em.findOneOrFail(CheckoutSession, { id: link.checkoutId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (session.paymentType !== 'subscription') {
    session.paymentType = 'subscription';
    session.subscription = link.subscription;
  }
  if (!link.customer && input.customer) session.customer = { ...input.customer, phone: null };
  await ctx.em.flush();
  const { hsa_fsa_card, card, lmn } = input;
  const outcome = await payCheckoutSession(ctx, session.id, { hsa_fsa_card, card, lmn }, { clientReferenceId });
  if (outcome.ok) markPaymentLinkPaid(ctx, link, outcome.order);
  await ctx.em.flush();
  return { link, outcome };
}
