import { bundleAssetRoute } from '../../platform/rest/bundle-assets.js';
import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import type { CheckoutSession } from '../checkout/checkout-session.entity.js';
import {
  adyenClientKeyFor,
  adyenWebEnvironment,
  type AdyenWebEnvironment,
} from '../processor-accounts/processor-account.service.js';
import type { HsaFsaField } from '../shared/hsa-fsa-field.js';
import { html, SafeHtml } from './hosted-page-html.js';

/**
 * The server side of card entry on live-mode pages: Adyen Web (its bundle from our origin, the
 * merchant's client key, the platform's environment) and what the page's script needs to pay.
 * The browser side is src/card-entry-app/ (`mountCardEntry`); any page can reuse both.
 */

/** `GET /card-entry/card-entry.js`, `adyen-web.js`, `adyen-web.css`: the browser module and Adyen Web, bundled by `npm run build:card-entry`. */
export const cardEntryAssets = bundleAssetRoute('card-entry', {
  'card-entry.js': 'text/javascript; charset=utf-8',
  'adyen-web.js': 'text/javascript; charset=utf-8',
  'adyen-web.css': 'text/css; charset=utf-8',
});

/** Where the page's script imports the browser module from. */
export const CARD_ENTRY_MODULE = '/card-entry/card-entry.js';

/**
 * The origins Adyen Web uses in `environment` (its own table, @adyen/adyen-web core/Environment):
 * `api` serves the secured-field iframes and Adyen Web's API calls, `cdn` its images and
 * translations, `analytics` the checkout attempt id it asks for even with analytics off.
 */
export function adyenWebOrigins(environment: AdyenWebEnvironment): { api: string; cdn: string; analytics: string } {
  return {
    api: `https://checkoutshopper-${environment}.adyen.com`,
    cdn: `https://checkoutshopper-${environment}.cdn.adyen.com`,
    analytics: `https://checkoutanalytics-${environment}.adyen.com`,
  };
}

/** What Adyen Web runs with on a merchant's live pages. */
export interface AdyenWebSetup {
  clientKey: string;
  environment: AdyenWebEnvironment;
}

/** The merchant's client key and this platform's Adyen Web environment; a merchant without an Adyen configuration cannot take live cards (400 `invalid_state`). */
export async function adyenWebSetup(ctx: ServiceContext): Promise<AdyenWebSetup> {
  const clientKey = await adyenClientKeyFor(ctx.em, ctx.principal.merchantId);
  if (!clientKey) throw new DomainError('invalid_state', 'This store has not set up card payments yet.');
  return { clientKey, environment: adyenWebEnvironment() };
}

/** Where a live page pays: its pay and details routes, the slot name of the HSA/FSA card there, and where to go after. */
export interface LivePayRoutes {
  url: string;
  /** Null when the pay route never answers an action (a card setup link's card check). */
  detailsUrl: string | null;
  /** The HSA/FSA card's field in the pay route's body (`hsa_fsa` on the contract's checkout route, `hsa_fsa_card` on a link's route). */
  hsaField: HsaFsaField;
  /** Where a paid page goes (with `order_id` added); null when the pay route answers a `redirect_url`. */
  successUrl: string | null;
  failureUrl: string | null;
}

/** A live page's card entry: Adyen Web's setup and where the page pays. */
export interface LiveCardEntry {
  adyen: AdyenWebSetup;
  pay: LivePayRoutes;
}

/** What a page's card entry is for: the amount Adyen Web is given (minor units), its currency, the HSA/FSA card's share, the shopper's country. */
export interface CardEntryAmounts {
  amount: number;
  currency: string;
  hsaAmount: number;
  countryCode: string;
}

/** A checkout session's card entry amounts: its total and eligible share, the country of its billing (else shipping) address. */
export function sessionAmounts(session: CheckoutSession): CardEntryAmounts {
  return {
    amount: session.amounts.total,
    currency: session.currency,
    hsaAmount: session.amounts.hsa_amount,
    countryCode: session.billingInfo?.country ?? session.shippingInfo?.country ?? 'US',
  };
}

/**
 * The JSON the pay form's script boots from (`#card-entry-config`, a data block no CSP runs: the
 * page's `LivePageConfig`, src/hosted-page-app): the browser module's `CardEntryConfig` and the
 * page's pay routes. `<` is escaped so no value can
 * end the element.
 */
export function cardEntryConfigScript(
  amounts: CardEntryAmounts,
  entry: LiveCardEntry,
  cards: { slot: 'hsa_fsa_card' | 'card'; amount: number }[],
): SafeHtml {
  const currency = amounts.currency.toUpperCase();
  const config = {
    module: CARD_ENTRY_MODULE,
    adyen: {
      clientKey: entry.adyen.clientKey,
      environment: entry.adyen.environment,
      locale: 'en-US',
      countryCode: amounts.countryCode,
      amount: { value: amounts.amount, currency },
      cards: cards.map((c) => ({ slot: c.slot, containerId: `${c.slot}-adyen`, amount: c.amount })),
      actionContainerId: 'card-action',
    },
    pay: { ...entry.pay, hsaAmount: amounts.hsaAmount, currency },
  };
  const json = JSON.stringify(config)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  // Safe inside the element: the JSON holds no `<` (escaped above), so nothing in it can close the script.
  return html`<script type="application/json" id="card-entry-config">${new SafeHtml(json)}</script>`;
}
