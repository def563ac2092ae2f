import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { HttpResult } from '../../platform/rest/routes.js';
import { payCheckoutSession } from '../checkout/checkout-payment.service.js';
import { effectiveStatus } from '../checkout/checkout.service.js';
import { MERCHANT_PAGE_HSA_FSA_FIELD } from '../shared/hsa-fsa-field.js';
import { adyenWebSetup } from './card-entry-page.js';
import { hostedCheckoutContext } from './hosted-page-context.js';
import { withQuery } from './hosted-page-html.js';
import { pageHandler, payHandler, payRateLimit } from './hosted-page-http.js';
import { renderCheckoutPage } from './hosted-page.js';

interface HostedRoute {
  Params: { id: string };
  Querystring: { token?: unknown };
}

const tokenOf = (query: HostedRoute['Querystring']): string => (typeof query.token === 'string' ? query.token : '');

/**
 * The hosted checkout page at `checkout_url` (`GET /checkout/:id?token=…`). Test mode pays test
 * cards through `/checkout/:id/pay`; live mode takes cards in Adyen Web and pays through the
 * contract's `POST /api/v2/checkout/{id}/payments` (and `/payments/details`), authorised by the
 * page's token.
 */
const checkoutPage: PublicRoute<HostedRoute> = {
  method: 'GET',
  url: '/checkout/:id',
  handler: pageHandler(async (req, orm) => {
    const { ctx, session, merchantName } = await hostedCheckoutContext(
      orm,
      req.params.id,
      tokenOf(req.query),
      req.id,
      req.log,
    );
    const status = effectiveStatus(ctx, session);
    const id = encodeURIComponent(session.id);
    const token = encodeURIComponent(tokenOf(req.query));
    if (!session.livemode || status !== 'open')
      return renderCheckoutPage(session, status, { payUrl: `/checkout/${id}/pay?token=${token}`, merchantName });
    const adyen = await adyenWebSetup(ctx);
    const pay = {
      url: `/api/v2/checkout/${id}/payments?token=${token}`,
      detailsUrl: `/api/v2/checkout/${id}/payments/details?token=${token}`,
      hsaField: MERCHANT_PAGE_HSA_FSA_FIELD,
      successUrl: withQuery(session.successUrl, { checkout_id: session.id }),
      failureUrl: withQuery(session.failureUrl, { checkout_id: session.id }),
    };
    return {
      html: renderCheckoutPage(session, status, { payUrl: pay.url, merchantName, cardEntry: { adyen, pay } }),
      adyenWeb: adyen.environment,
    };
  }),
};

/** The JSON call the page's script makes to pay (`POST /checkout/:id/pay?token=…`, body `payCheckoutSchema`). */
const payCheckout: PublicRoute<HostedRoute> = {
  method: 'POST',
  url: '/checkout/:id/pay',
  rateLimit: payRateLimit,
  handler: payHandler(async (req, orm) => {
    const { ctx, session } = await hostedCheckoutContext(orm, req.params.id, tokenOf(req.query), req.id, req.log);
    const outcome = await payCheckoutSession(ctx, session, req.body);
    if (outcome.ok) {
      const orderId = outcome.order.id;
      return {
        order_id: orderId,
        redirect_url: withQuery(session.successUrl, { checkout_id: session.id, order_id: orderId }),
      };
    }
    return new HttpResult(outcome.error.status, {
      ...outcome.error.toBody(),
      redirect_url: withQuery(session.failureUrl, { checkout_id: session.id }),
    });
  }),
};

/** A checkout's hosted page and the call that pays it. */
export const hostedCheckoutRoutes: PublicRoute[] = [checkoutPage, payCheckout];
