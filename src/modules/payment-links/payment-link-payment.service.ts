import { z } from 'zod';
import { withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { PaymentJournal } from '../payments/payment-journal.js';
import { refuseRawCardInLiveMode } from '../payments/payment-method-input.js';
import {
  continueCheckoutPayment,
  payCheckoutSession,
  type PayOptions,
  type PayOutcome,
} from '../checkout/checkout-payment.service.js';
import { checkoutPaymentDetailsSchema } from '../checkout/checkout.schemas.js';
import { prepareSessionForPayment } from '../checkout/checkout.service.js';
import type { Order } from '../orders/order.entity.js';
import type { PaymentLink } from './payment-link.entity.js';
import { paymentLinkPaidPayload } from './payment-link.resource.js';
import { clientReferenceIdSchema, payPaymentLinkSchema } from './payment-link.schemas.js';
import { effectiveLinkStatus, getPaymentLink, webhookUrlOfLink } from './payment-link.service.js';

/** A link and the outcome of paying it (a declined card is an outcome with a failed order, not an error). */
export interface LinkPayment {
  link: PaymentLink;
  outcome: PayOutcome;
}

/** Refuses a link that cannot be paid now (400 `invalid_state`). */
function assertPayable(ctx: ServiceContext, link: PaymentLink): void {
  const status = effectiveLinkStatus(ctx, link);
  if (status === 'paid')
    throw new DomainError('invalid_state', `Payment link ${link.id} is already paid (order ${link.orderId}).`, {
      param: 'id',
      details: { status, order_id: link.orderId },
    });
  if (status === 'expired')
    throw new DomainError(
      'invalid_state',
      `Payment link ${link.id} expired at ${link.expiresAt.toISOString()} and can no longer be paid.`,
      { param: 'id', details: { status } },
    );
  if (status === 'cancelled')
    throw new DomainError('invalid_state', `Payment link ${link.id} was cancelled and can no longer be paid.`, {
      param: 'id',
      details: { status },
    });
}

/** Marks a link paid by `order` with `payment_link.paid` (inside the order's transaction); a second call changes nothing. */
export function markPaymentLinkPaid(ctx: ServiceContext, link: PaymentLink, order: Order): void {
  if (link.status === 'paid') return;
  const now = order.completedAt ?? ctx.now();
  link.status = 'paid';
  link.paidAt = now;
  link.orderId = order.id;
  link.updatedAt = now;
  if (!link.customer) {
    link.customer = {
      email: order.customer.email,
      first_name: order.customer.first_name,
      last_name: order.customer.last_name,
    };
    link.customerEmail = order.customer.email.toLowerCase();
  }
  recordEvent(ctx, 'payment_link.paid', paymentLinkPaidPayload(link, order), { webhookUrl: webhookUrlOfLink(link) });
}

/**
 * Pays a link as its hosted page does (`{hsa_fsa_card?, card?, lmn?, client_reference_id?,
 * customer?}`; `queryReference` is the page URL's `?client_reference_id=`). The link pays
 * through its checkout session, so the session's guarantees hold (one attempt at a time, one
 * order ever, no transaction open while the processor works); the link is marked paid in the
 * transaction that commits the order. The order carries `payment_link_id` and
 * `client_reference_id`, not `reference_id`. A link that names no customer takes the payer's
 * `customer` (422 when missing).
 *
 * Lock order, in every transaction that takes both rows (this prepare step, the settle step and
 * `cancelPaymentLink`): the payment link first, then its checkout session. The settle step is
 * checkout's, so it is handed the link's lock as `lockFirst`; taking them the other way round
 * there deadlocked concurrent pays (PostgreSQL aborts one transaction: a 500).
 */
export async function payPaymentLink(
  ctx: ServiceContext,
  id: string,
  body: unknown,
  queryReference?: string,
): Promise<LinkPayment> {
  refuseRawCardInLiveMode(body, ctx.principal.livemode);
  const input = parseInput(payPaymentLinkSchema, requireObject(body ?? {}, 'validation_error'));
  const clientReferenceId =
    input.client_reference_id ??
    (queryReference === undefined
      ? null
      : parseInput(z.object({ client_reference_id: clientReferenceIdSchema }), { client_reference_id: queryReference })
          .client_reference_id);
  const prepared = await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const link = await getPaymentLink(tx, id, true);
    // This request, retried under its Idempotency-Key, paid the link before its answer was lost
    // (a failover cut the connection): its checkout answers that order again.
    if (link.orderId && (await PaymentJournal.paidByThisRequest(tx, link.checkoutId, link.orderId)))
      return link.checkoutId;
    assertPayable(tx, link);
    if (!link.customer && !input.customer) {
      throw new DomainError(
        'validation_error',
        'Invalid request: customer is required: this link names no customer, so give the payer’s email and name',
        {
          param: 'customer',
          details: [{ field: 'customer', message: 'is required: this link names no customer' }],
        },
      );
    }
    if (link.collectShippingAddress && !input.shipping_address) {
      throw new DomainError(
        'validation_error',
        'Invalid request: shipping_address is required: this link ships its products, so give the payer’s address',
        {
          param: 'shipping_address',
          details: [{ field: 'shipping_address', message: 'is required: this link ships its products' }],
        },
      );
    }
    // A subscription link's payment starts the subscription (see startSubscriptionFromCheckout);
    // the payer's address becomes the order's shipping and billing address (as checkout's billing_info defaults).
    await prepareSessionForPayment(tx, link.checkoutId, {
      subscription: link.paymentType === 'subscription' ? link.subscription : undefined,
      customer: !link.customer && input.customer ? { ...input.customer, phone: null } : undefined,
      address: input.shipping_address ?? undefined,
    });
    return link.checkoutId;
  });

  const { hsa_fsa_card, card, lmn, return_url, browser_info } = input;
  const hooks = linkHooks(id);
  const outcome = await payCheckoutSession(
    ctx,
    prepared,
    { hsa_fsa_card, card, lmn, return_url, browser_info },
    { clientReferenceId, ...hooks },
  );
  return { link: hooks.paid() ?? (await getPaymentLink(withEm(ctx, ctx.em.fork()), id)), outcome };
}

/**
 * Continues a link's payment the shopper had to act on (3-D Secure, `details` from Adyen Web's
 * onAdditionalDetails): the same link rules and paid mark as `payPaymentLink`.
 */
export async function continuePaymentLink(ctx: ServiceContext, id: string, body: unknown): Promise<LinkPayment> {
  const { details } = parseInput(checkoutPaymentDetailsSchema, requireObject(body ?? {}, 'validation_error'));
  const link = await getPaymentLink(ctx, id);
  const hooks = linkHooks(id);
  const outcome = await continueCheckoutPayment(ctx, link.checkoutId, details, hooks);
  return { link: hooks.paid() ?? (await getPaymentLink(withEm(ctx, ctx.em.fork()), id)), outcome };
}

/** What a link's payment runs in the transaction that commits its order (see the lock order above), and the link it marked paid. */
function linkHooks(id: string): Required<Pick<PayOptions, 'lockFirst' | 'onPaid'>> & { paid(): PaymentLink | null } {
  let paidLink: PaymentLink | null = null;
  return {
    lockFirst: async (tx) => {
      await getPaymentLink(tx, id, true);
    },
    onPaid: async (tx, { order }) => {
      const link = await getPaymentLink(tx, id, true);
      // Cancelled while the cards were charged: nothing commits; reconciliation returns the money.
      if (link.status === 'cancelled')
        throw new DomainError(
          'invalid_state',
          `Payment link ${link.id} was cancelled during the payment; nothing was kept and the card is refunded.`,
          { param: 'id' },
        );
      markPaymentLinkPaid(tx, link, order);
      paidLink = link;
    },
    paid: () => paidLink,
  };
}
