import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { HttpResult } from '../../platform/rest/routes.js';
import { payCheckoutSession } from '../checkout/checkout-payment.service.js';
import { effectiveStatus } from '../checkout/checkout.service.js';
import { hostedCheckoutContext } from './hosted-page-context.js';
import { withQuery } from './hosted-page-html.js';
import { pageHandler, payHandler, payRateLimit } from './hosted-page-http.js';
import { renderCheckoutPage } from './hosted-page.js';

interface HostedRoute {
  Params: { id: string };
  Querystring: { token?: unknown };
}

const tokenOf = (query: HostedRoute['Querystring']): string => (typeof query.token === 'string' ? query.token : '');

/** The hosted checkout page at `checkout_url` (`GET /checkout/:id?token=…`). */
const checkoutPage: PublicRoute<HostedRoute> = {
  method: 'GET',
  url: '/checkout/:id',
  handler: pageHandler(async (req, orm, nonce) => {
    const { ctx, session, merchantName } = await hostedCheckoutContext(orm, req.params.id, tokenOf(req.query), req.id, req.log);
    const payUrl = `/checkout/${encodeURIComponent(session.id)}/pay?token=${encodeURIComponent(tokenOf(req.query))}`;
    return renderCheckoutPage(session, effectiveStatus(ctx, session), { nonce, payUrl, merchantName });
  }),
};

/** The JSON call the page's script makes to pay (`POST /checkout/:id/pay?token=…`, body `payCheckoutSchema`). */
const payCheckout: PublicRoute<HostedRoute> = {
  method: 'POST',
  url: '/checkout/:id/pay',
  rateLimit: payRateLimit,
  handler: payHandler(async (req, orm) => {
    const { ctx, session } = await hostedCheckoutContext(orm, req.params.id, tokenOf(req.query), req.id, req.log);
    const outcome = await payCheckoutSession(ctx, session.id, req.body);
    if (outcome.ok) {
      const orderId = outcome.order.id;
      return { order_id: orderId, redirect_url: withQuery(session.successUrl, { checkout_id: session.id, order_id: orderId }) };
    }
    return new HttpResult(outcome.error.status, { ...outcome.error.toBody(), redirect_url: withQuery(session.failureUrl, { checkout_id: session.id }) });
  }),
};

/** A checkout's hosted page and the call that pays it. */
export const hostedCheckoutRoutes: PublicRoute[] = [checkoutPage, payCheckout];
