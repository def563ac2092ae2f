import type { CheckoutSession } from '../checkout/checkout-session.entity.js';
import { withQuery } from './hosted-page-html.js';
import { renderCheckoutPage, renderNoticePage, type PageOptions, type PayFormOptions } from './hosted-page.js';
import type { PaymentLink, PaymentLinkStatus } from '../payment-links/payment-link.entity.js';

/** Where the payer goes after paying: the merchant's success_url (with the link and order ids), else the link's own page, which then says it is paid. */
export function linkSuccessRedirect(link: PaymentLink, orderId: string, ownPage: string): string {
  return link.successUrl ? withQuery(link.successUrl, { payment_link_id: link.id, order_id: orderId }) : ownPage;
}

/** The merchant's cancel_url with the link id, or null when the link has none. */
export function linkCancelHref(link: PaymentLink): string | null {
  return link.cancelUrl ? withQuery(link.cancelUrl, { payment_link_id: link.id }) : null;
}

/**
 * A payment link's hosted page: the checkout page component on the link's checkout (same
 * summary, split, cards and LMN questionnaire, plus the payer's details when the link names no
 * customer), or a clear notice for a paid, expired or cancelled link.
 */
export function renderPaymentLinkPage(
  link: PaymentLink,
  session: CheckoutSession,
  status: PaymentLinkStatus,
  opts: PageOptions & Pick<PayFormOptions, 'payUrl' | 'cardEntry'>,
): string {
  const common = { merchantName: opts.merchantName, livemode: link.livemode };
  if (status === 'paid') {
    return renderNoticePage({
      ...common,
      title: 'This payment link has been paid',
      message: 'Payment has already been received. There is nothing more to pay.',
      link:
        link.successUrl && link.orderId
          ? {
              href: withQuery(link.successUrl, { payment_link_id: link.id, order_id: link.orderId }),
              text: 'Continue to the store',
            }
          : null,
    });
  }
  if (status === 'expired') {
    return renderNoticePage({
      ...common,
      title: 'This payment link has expired',
      message: `It could be paid until ${link.expiresAt.toUTCString()}. Nothing was charged. Ask the store for a new link.`,
      link: linkCancelHref(link) ? { href: linkCancelHref(link)!, text: 'Return to the store' } : null,
    });
  }
  if (status === 'cancelled') {
    return renderNoticePage({
      ...common,
      title: 'This payment link was cancelled',
      message:
        'The store cancelled this link, so it can no longer be paid. Nothing was charged. Ask the store for a new link.',
      link: linkCancelHref(link) ? { href: linkCancelHref(link)!, text: 'Return to the store' } : null,
    });
  }
  return renderCheckoutPage(session, 'open', {
    ...opts,
    cancelHref: linkCancelHref(link),
    collectCustomer: !link.customer,
    collectShipping: link.collectShippingAddress,
  });
}
