import type { ServiceContext } from '../../platform/context.js';
import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { setupLinkUrl } from '../customers/customer.resource.js';
import { setupLinkStatusAt, type PaymentMethodSetupLink } from '../customers/payment-method-setup-link.entity.js';
import { useSetupLink } from '../customers/payment-method-setup-link.service.js';
import { getPaymentMethod } from '../customers/payment-method.service.js';
import { getSubscription } from '../subscriptions/subscription.service.js';
import { adyenWebSetup } from './card-entry-page.js';
import { renderCardSetupPage, renderSetupLinkNotFoundPage, type CardSetupView } from './card-setup-page.js';
import { hostedSetupLinkContext } from './hosted-page-context.js';
import { cardSetupRateLimit, pageHandler, payHandler } from './hosted-page-http.js';

interface SetupRoute {
  Params: { id: string };
  Querystring: { token?: unknown };
}

const tokenOf = (query: SetupRoute['Querystring']): string => (typeof query.token === 'string' ? query.token : '');

/** What the page of `link` shows: its status on the merchant's clock, its subscription, the card stored once used. */
async function viewOf(ctx: ServiceContext, link: PaymentMethodSetupLink): Promise<CardSetupView> {
  const [subscription, paymentMethod] = await Promise.all([
    link.subscriptionId ? getSubscription(ctx, link.subscriptionId) : null,
    link.paymentMethodId ? getPaymentMethod(ctx, link.paymentMethodId) : null,
  ]);
  return { link, status: setupLinkStatusAt(link, ctx.now()), subscription, paymentMethod };
}

/** A card setup or card-update link's `url` (`GET /card-setup/:id?token=…`). */
const setupPage: PublicRoute<SetupRoute> = {
  method: 'GET',
  url: '/card-setup/:id',
  handler: pageHandler(async (req, orm) => {
    const { ctx, link, merchantName } = await hostedSetupLinkContext(
      orm,
      req.params.id,
      tokenOf(req.query),
      req.id,
      req.log,
    );
    const token = encodeURIComponent(tokenOf(req.query));
    const submitUrl = `/card-setup/${encodeURIComponent(link.id)}/submit?token=${token}`;
    const view = await viewOf(ctx, link);
    if (!link.livemode || view.status !== 'open') return renderCardSetupPage(view, { submitUrl, merchantName });
    const adyen = await adyenWebSetup(ctx);
    return {
      html: renderCardSetupPage(view, { submitUrl, merchantName, live: { adyen } }),
      adyenWeb: adyen.environment,
    };
  }, renderSetupLinkNotFoundPage),
};

/**
 * The JSON call the page's card entry makes (`POST /card-setup/:id/submit?token=…`, body `{card}`:
 * a test card, or Adyen Web's `{payment_method_data}`): answers the stored card's id and the page
 * to show next (the link's own, which then says the card is saved), or the API's error body.
 */
const submitCard: PublicRoute<SetupRoute> = {
  method: 'POST',
  url: '/card-setup/:id/submit',
  rateLimit: cardSetupRateLimit,
  handler: payHandler(async (req, orm) => {
    const { ctx, link } = await hostedSetupLinkContext(orm, req.params.id, tokenOf(req.query), req.id, req.log);
    const used = await useSetupLink(ctx, link.id, req.body);
    return {
      payment_method_id: used.paymentMethod.id,
      status: setupLinkStatusAt(used.link, ctx.now()),
      redirect_url: setupLinkUrl(used.link),
    };
  }),
};

/** A card setup link's hosted page and the call that stores the card. */
export const hostedCardSetupRoutes: PublicRoute[] = [setupPage, submitCard];
