import { LockMode } from '@mikro-orm/core';
import { z } from 'zod';
import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { serialized } from '../../platform/keyed-lock.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { payCheckoutSession, type PayOutcome } from '../checkout/checkout-payment.service.js';
import { CheckoutSession } from '../checkout/checkout-session.entity.js';
import type { Order } from '../orders/order.entity.js';
import type { PaymentLink } from './payment-link.entity.js';
import { paymentLinkPaidPayload } from './payment-link.resource.js';
import { clientReferenceIdSchema, payPaymentLinkSchema, type PayPaymentLinkInput } from './payment-link.schemas.js';
import { effectiveLinkStatus, getPaymentLink, webhookUrlOfLink } from './payment-link.service.js';
import { paySubscriptionLink } from './payment-link-subscription.js';

/** A link and the outcome of paying it (a declined card is an outcome with a failed order, not an error). */
export interface LinkPayment {
  link: PaymentLink;
  outcome: PayOutcome;
}

/** Refuses a link that cannot be paid now (400 `invalid_state`). */
function assertPayable(ctx: ServiceContext, link: PaymentLink): void {
  const status = effectiveLinkStatus(ctx, link);
  if (status === 'paid') throw new DomainError('invalid_state', `Payment link ${link.id} is already paid (order ${link.orderId}).`, { param: 'id', details: { status, order_id: link.orderId } });
  if (status === 'expired') throw new DomainError('invalid_state', `Payment link ${link.id} expired at ${link.expiresAt.toISOString()} and can no longer be paid.`, { param: 'id', details: { status } });
  if (status === 'cancelled') throw new DomainError('invalid_state', `Payment link ${link.id} was cancelled and can no longer be paid.`, { param: 'id', details: { status } });
}

/**
 * Marks a link paid by `order` with `payment_link.paid`; a second call changes nothing.
 * TODO(lead): move into the order transaction (the pay hook); today it runs in the caller's
 * transaction that payCheckoutSession joins, so it commits with the order or not at all.
 */
export function markPaymentLinkPaid(ctx: ServiceContext, link: PaymentLink, order: Order): void {
  if (link.status === 'paid') return;
  const now = order.completedAt ?? ctx.now();
  link.status = 'paid';
  link.paidAt = now;
  link.orderId = order.id;
  link.updatedAt = now;
  if (!link.customer) {
    link.customer = { email: order.customer.email, first_name: order.customer.first_name, last_name: order.customer.last_name };
    link.customerEmail = order.customer.email.toLowerCase();
  }
  recordEvent(ctx, 'payment_link.paid', paymentLinkPaidPayload(link, order), { webhookUrl: webhookUrlOfLink(link) });
}

/**
 * Pays a link as its hosted page does (`{hsa_fsa_card?, card?, lmn?, client_reference_id?,
 * customer?}`; `queryReference` is the page URL's `?client_reference_id=`). The link row is
 * locked for the whole attempt, so concurrent pays run one after the other and one order is
 * ever made; the order carries `payment_link_id` and `client_reference_id`, not `reference_id`.
 * A link that names no customer takes the payer's `customer` (422 when missing).
 */
export async function payPaymentLink(ctx: ServiceContext, id: string, body: unknown, queryReference?: string): Promise<LinkPayment> {
  const input = parseInput(payPaymentLinkSchema, requireObject(body ?? {}, 'validation_error'));
  const clientReferenceId = input.client_reference_id ?? (queryReference === undefined ? null : parseInput(z.object({ client_reference_id: clientReferenceIdSchema }), { client_reference_id: queryReference }).client_reference_id);
  // Concurrent pays of one link queue here rather than each holding a pooled connection while
  // waiting on the link's row lock: the payer holding the lock needs a second connection for
  // the payment journal, so a pool full of waiters would never let it finish.
  return serialized(`payment_link:${id}`, () => payLocked(ctx, id, input, clientReferenceId));
}

/** Pays a link in one transaction holding its row lock (see payPaymentLink). */
async function payLocked(ctx: ServiceContext, id: string, input: PayPaymentLinkInput, clientReferenceId: string | null): Promise<LinkPayment> {
  return ctx.em.transactional(async (em) => {
    const tx = { ...ctx, em };
    const link = await getPaymentLink(tx, id, true);
    assertPayable(tx, link);
    if (link.paymentType === 'subscription') return paySubscriptionLink(tx, link, input, clientReferenceId);
    if (!link.customer && !input.customer) {
      throw new DomainError('validation_error', 'Invalid request: customer is required: this link names no customer, so give the payer’s email and name', {
        param: 'customer',
        details: [{ field: 'customer', message: 'is required: this link names no customer' }],
      });
    }
    const session = await em.findOneOrFail(CheckoutSession, { id: link.checkoutId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!link.customer && input.customer) {
      session.customer = { ...input.customer, phone: null };
      await em.flush();
    }
    const { hsa_fsa_card, card, lmn } = input;
    const outcome = await payCheckoutSession(tx, session.id, { hsa_fsa_card, card, lmn }, { clientReferenceId });
    if (outcome.ok) markPaymentLinkPaid(tx, link, outcome.order);
    await em.flush();
    return { link, outcome };
  });
}
