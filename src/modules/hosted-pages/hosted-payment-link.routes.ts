import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { HttpResult } from '../../platform/rest/routes.js';
import { payPaymentLink } from '../payment-links/payment-link-payment.service.js';
import { paymentLinkUrl } from '../payment-links/payment-link.resource.js';
import { effectiveLinkStatus } from '../payment-links/payment-link.service.js';
import { hostedPaymentLinkContext } from './hosted-page-context.js';
import { pageHandler, payHandler, payRateLimit } from './hosted-page-http.js';
import { linkCancelHref, linkSuccessRedirect, renderPaymentLinkPage } from './payment-link-page.js';

interface LinkRoute {
  Params: { id: string };
  Querystring: { client_reference_id?: unknown };
}

const referenceOf = (query: LinkRoute['Querystring']): string | undefined => (typeof query.client_reference_id === 'string' ? query.client_reference_id : undefined);

/** A payment link's `url` (`GET /pay/:id`, `?client_reference_id=` kept): the checkout page's second entry point. */
const paymentLinkPage: PublicRoute<LinkRoute> = {
  method: 'GET',
  url: '/pay/:id',
  handler: pageHandler(async (req, orm, nonce) => {
    const { ctx, link, session, merchantName } = await hostedPaymentLinkContext(orm, req.params.id, req.id, req.log);
    const reference = referenceOf(req.query);
    const payUrl = `/pay/${encodeURIComponent(link.id)}/pay${reference !== undefined ? `?client_reference_id=${encodeURIComponent(reference)}` : ''}`;
    return renderPaymentLinkPage(link, session, effectiveLinkStatus(ctx, link), { nonce, payUrl, merchantName });
  }),
};

/** The JSON call the page's script makes to pay (`POST /pay/:id/pay`). */
const payLink: PublicRoute<LinkRoute> = {
  method: 'POST',
  url: '/pay/:id/pay',
  rateLimit: payRateLimit,
  handler: payHandler(async (req, orm) => {
    const { ctx, link } = await hostedPaymentLinkContext(orm, req.params.id, req.id, req.log);
    const { outcome } = await payPaymentLink(ctx, link.id, req.body, referenceOf(req.query));
    if (outcome.ok) return { order_id: outcome.order.id, redirect_url: linkSuccessRedirect(link, outcome.order.id, paymentLinkUrl(link.id)) };
    const cancel = linkCancelHref(link);
    return new HttpResult(outcome.error.status, { ...outcome.error.toBody(), ...(cancel && { redirect_url: cancel }) });
  }),
};

/** A payment link's hosted page and the call that pays it. */
export const hostedPaymentLinkRoutes: PublicRoute[] = [paymentLinkPage, payLink];
