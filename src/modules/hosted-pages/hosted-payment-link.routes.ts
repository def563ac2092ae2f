import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { HttpResult } from '../../platform/rest/routes.js';
import {
  continuePaymentLink,
  payPaymentLink,
  type LinkPayment,
} from '../payment-links/payment-link-payment.service.js';
import { paymentLinkUrl } from '../payment-links/payment-link.resource.js';
import { effectiveLinkStatus } from '../payment-links/payment-link.service.js';
import { HSA_FSA_CARD_FIELD } from '../shared/hsa-fsa-field.js';
import { adyenWebSetup } from './card-entry-page.js';
import { hostedPaymentLinkContext } from './hosted-page-context.js';
import { pageHandler, payHandler, payRateLimit } from './hosted-page-http.js';
import { linkCancelHref, linkSuccessRedirect, renderPaymentLinkPage } from './payment-link-page.js';

interface LinkRoute {
  Params: { id: string };
  Querystring: { client_reference_id?: unknown };
}

const referenceOf = (query: LinkRoute['Querystring']): string | undefined =>
  typeof query.client_reference_id === 'string' ? query.client_reference_id : undefined;

/**
 * A payment link's `url` (`GET /pay/:id`, `?client_reference_id=` kept): the checkout page's
 * second entry point. Live mode takes cards in Adyen Web and pays through the link's own routes.
 */
const paymentLinkPage: PublicRoute<LinkRoute> = {
  method: 'GET',
  url: '/pay/:id',
  handler: pageHandler(async (req, orm) => {
    const { ctx, link, session, merchantName } = await hostedPaymentLinkContext(orm, req.params.id, req.id, req.log);
    const reference = referenceOf(req.query);
    const id = encodeURIComponent(link.id);
    const payUrl = `/pay/${id}/pay${reference !== undefined ? `?client_reference_id=${encodeURIComponent(reference)}` : ''}`;
    const status = effectiveLinkStatus(ctx, link);
    if (!link.livemode || status !== 'active')
      return renderPaymentLinkPage(link, session, status, { payUrl, merchantName });
    const adyen = await adyenWebSetup(ctx);
    const pay = {
      url: payUrl,
      detailsUrl: `/pay/${id}/pay/details`,
      hsaField: HSA_FSA_CARD_FIELD,
      successUrl: null,
      failureUrl: linkCancelHref(link),
    };
    return {
      html: renderPaymentLinkPage(link, session, status, { payUrl, merchantName, cardEntry: { adyen, pay } }),
      adyenWeb: adyen.environment,
    };
  }),
};

/** A link payment's answer to the page: where to go once paid (and the split paid), the action the shopper must complete (202), or the error. */
function linkPayAnswer({ link, outcome }: LinkPayment): unknown {
  if (outcome.ok)
    return {
      order_id: outcome.order.id,
      amounts: outcome.order.amounts,
      redirect_url: linkSuccessRedirect(link, outcome.order.id, paymentLinkUrl(link.id)),
    };
  if (outcome.order === null) return new HttpResult(202, { status: 'action_required', action: outcome.action });
  const cancel = linkCancelHref(link);
  return new HttpResult(outcome.error.status, { ...outcome.error.toBody(), ...(cancel && { redirect_url: cancel }) });
}

/** The JSON call the page's script makes to pay (`POST /pay/:id/pay`): test cards in test mode, Adyen Web's `payment_method_data` in live mode. */
const payLink: PublicRoute<LinkRoute> = {
  method: 'POST',
  url: '/pay/:id/pay',
  rateLimit: payRateLimit,
  handler: payHandler(async (req, orm) => {
    const { ctx, link } = await hostedPaymentLinkContext(orm, req.params.id, req.id, req.log);
    return linkPayAnswer(await payPaymentLink(ctx, link.id, req.body, referenceOf(req.query)));
  }),
};

/** After the shopper's action (3-D Secure): `POST /pay/:id/pay/details` with Adyen Web's `{details}`. */
const payLinkDetails: PublicRoute<LinkRoute> = {
  method: 'POST',
  url: '/pay/:id/pay/details',
  rateLimit: payRateLimit,
  handler: payHandler(async (req, orm) => {
    const { ctx, link } = await hostedPaymentLinkContext(orm, req.params.id, req.id, req.log);
    return linkPayAnswer(await continuePaymentLink(ctx, link.id, req.body));
  }),
};

/** A payment link's hosted page and the calls that pay it. */
export const hostedPaymentLinkRoutes: PublicRoute[] = [paymentLinkPage, payLink, payLinkDetails];
