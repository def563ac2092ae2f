import type { PaymentMethod } from '../customers/customer.entity.js';
import type { PaymentMethodSetupLink, SetupLinkStatus } from '../customers/payment-method-setup-link.entity.js';
import { EVENT_INTERVAL } from '../subscriptions/subscription-calendar.js';
import { isRescuable } from '../subscriptions/subscription-lifecycle.js';
import type { Subscription } from '../subscriptions/subscription.entity.js';
import { HSA_FSA_CARD_FIELD } from '../shared/hsa-fsa-field.js';
import { cardEntryConfigScript, type AdyenWebSetup } from './card-entry-page.js';
import { formatMoney, html, trusted, type SafeHtml } from './hosted-page-html.js';
import { cardFieldset, layout, renderNoticePage, type PageOptions } from './hosted-page.js';

/**
 * The page of a card setup link and of a card-update link (`/card-setup/{id}?token=…`): one card,
 * verified and stored for the customer (and, on a card-update link, taken by its subscription).
 * The card entry (`cardEntry`) is the contract's simulated card form in test mode and Adyen Web's card
 * component (the card-entry module, as on the live checkout page) in live mode.
 */

/** What the page shows besides the link: its subscription (a card-update link) and, once used, the card stored. */
export interface CardSetupView {
  link: PaymentMethodSetupLink;
  status: SetupLinkStatus;
  subscription: Subscription | null;
  paymentMethod: PaymentMethod | null;
}

/** The card entry: the markup that takes the card (the pay form's script posts it to `submitUrl` as `{card}`), and (live mode) Adyen Web's configuration. */
export interface CardEntry {
  markup: SafeHtml;
  config?: SafeHtml;
}

/** What the card entry says and, in live mode, how Adyen Web is set up and what it is told the card is for. */
export interface CardEntryOptions {
  submitUrl: string;
  buttonLabel: string;
  cardNote: string;
  /** Live mode: Adyen Web's setup and the amount it is given (0 for a card only checked). */
  live?: { adyen: AdyenWebSetup; amount: number; currency: string };
}

/**
 * The card form: test mode's simulated card inputs posting `{card: {number, exp_month, exp_year, cvc}}`,
 * or live mode's Adyen Web card component (no card input of ours) posting only
 * `{card: {payment_method_data}, browser_info, return_url}`; the checkout page's script runs both.
 */
export function cardEntry(opts: CardEntryOptions): CardEntry {
  const { submitUrl, live } = opts;
  const markup = html`<form id="pay-form" method="post" action="${submitUrl}" novalidate ${live ? trusted('data-card-entry="adyen" ') : ''}data-busy-text="Saving your card…" data-done-text="Card saved. Loading…">
<noscript><p class="error-summary">This page needs JavaScript to save your card. Turn it on and reload the page.</p></noscript>
<div id="form-error" class="error-summary" role="alert" aria-live="assertive"></div>
${cardFieldset('card', 'Card', opts.cardNote, true, undefined, Boolean(live))}
${live ? html`<div id="card-action" class="card-action" role="region" aria-label="Confirm the card with your bank" tabindex="-1" hidden></div>` : ''}
<button type="submit" class="pay" id="pay-button">${opts.buttonLabel}</button>
<p id="pay-status" class="status" role="status" aria-live="polite"></p>
</form>`;
  if (!live) return { markup };
  // No details route: the card check refuses a card that asks for 3-D Secure (useSetupLink), so the submit never answers an action.
  const pay = {
    url: submitUrl,
    detailsUrl: null,
    hsaField: HSA_FSA_CARD_FIELD,
    successUrl: null,
    failureUrl: null,
  };
  const amounts = { amount: live.amount, currency: live.currency, hsaAmount: 0, countryCode: 'US' };
  return {
    markup,
    config: cardEntryConfigScript(amounts, { adyen: live.adyen, pay }, [{ slot: 'card', amount: live.amount }]),
  };
}

/** The 404 page for an unknown link or a wrong token (the two look the same). */
export function renderSetupLinkNotFoundPage(opts: PageOptions): string {
  return renderNoticePage({
    ...opts,
    script: 'tokenRestore', // a live page reloaded after it hid its token
    title: 'Link not found',
    message:
      'This link to save a card is not valid. Check that you opened the complete link the store sent you, or ask the store for a new one.',
  });
}

const every = (sub: Subscription) =>
  `${formatMoney(sub.amountCents, sub.currency)} every ${sub.intervalCount > 1 ? `${sub.intervalCount} ${EVENT_INTERVAL[sub.interval]}s` : EVENT_INTERVAL[sub.interval]}`;

/** The subscription a card-update link is for, and what the new card does to it. */
function subscriptionSummary(sub: Subscription): SafeHtml {
  const due = isRescuable(sub.status);
  return html`<h2 id="subscription-title">Your subscription</h2>
<dl class="amounts" id="subscription">
<dt>Plan</dt><dd>${sub.description}</dd>
<dt>Price</dt><dd>${every(sub)}</dd>
<dt>Status</dt><dd>${due ? 'Payment failed: the card needs updating' : 'Active'}</dd>
</dl>
<p>${due ? 'Enter a new card. The payment that failed is charged to it right away, and later payments use it too.' : 'Enter a new card. Later payments use it.'}</p>`;
}

/** What a used link says: the card stored and, on a card-update link, where the subscription stands. */
function usedMessage(view: CardSetupView): string {
  const card = view.paymentMethod ? `The card ending ${view.paymentMethod.last4} is saved.` : 'Your card is saved.';
  if (!view.subscription) return `${card} This link works only once, so there is nothing more to do here.`;
  const standing =
    view.subscription.status === 'active' || view.subscription.status === 'trialing'
      ? 'Your subscription uses it from now on and is active.'
      : `Your subscription uses it from now on, but the payment due could not be taken yet (status: ${view.subscription.status.replace('_', ' ')}). The store will be in touch.`;
  return `${card} ${standing} This link works only once.`;
}

/** The page of a link in each state: the card entry while open, a notice once used or expired. */
export function renderCardSetupPage(
  view: CardSetupView,
  opts: PageOptions & { submitUrl: string; live?: { adyen: AdyenWebSetup } },
): string {
  const { link, status, subscription } = view;
  const common = { ...opts, livemode: link.livemode };
  if (status === 'used')
    return renderNoticePage({
      ...common,
      title: subscription ? 'Your card is updated' : 'Your card is saved',
      message: usedMessage(view),
    });
  if (status === 'expired') {
    return renderNoticePage({
      ...common,
      title: 'This link has expired',
      message: `Links to save a card work for 24 hours; this one expired on ${link.expiresAt.toUTCString()}. Nothing was charged. Ask the store for a new link.`,
    });
  }
  const title = subscription ? 'Update your card' : 'Save a card';
  const due = subscription !== null && isRescuable(subscription.status);
  // Adyen Web is told what the card is for: a card-update link's subscription amount, nothing for a card only checked.
  const live = opts.live && {
    ...opts.live,
    amount: subscription?.amountCents ?? 0,
    currency: subscription?.currency ?? 'USD',
  };
  const labels = subscription
    ? {
        buttonLabel: due ? 'Save card and pay' : 'Save card',
        cardNote: due ? 'pays what is due now' : 'for later payments',
      }
    : { buttonLabel: 'Save card', cardNote: 'verified, not charged' };
  const entry = cardEntry({ submitUrl: opts.submitUrl, ...labels, live });
  const body = html`<h1>${title}</h1>
<section class="panel notice" aria-labelledby="${subscription ? 'subscription-title' : 'setup-intro'}">
${subscription ? subscriptionSummary(subscription) : html`<p id="setup-intro">${opts.merchantName?.trim() || 'The store'} asks you to save a card for later payments. The card is checked now; nothing is charged.</p>`}
${entry.markup}
</section>`;
  return layout(title, body, {
    livemode: link.livemode,
    merchantName: opts.merchantName,
    script: 'payForm',
    cardEntry: entry.config,
  });
}
