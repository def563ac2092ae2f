import type { CheckoutLineItem, CheckoutSession, CheckoutStatus } from '../checkout/checkout-session.entity.js';
import { cardEntryConfigScript, sessionAmounts, type LiveCardEntry } from './card-entry-page.js';
import { HOSTED_PAGE_SCRIPTS, HOSTED_PAGE_STYLESHEET, type HostedPageScript } from './hosted-page-assets.js';
import { formatMoney, html, safeUrl, trusted, withQuery, type SafeHtml } from './hosted-page-html.js';

/**
 * The hosted checkout page, rendered on the server from the session. Every value that comes from
 * the merchant or the customer goes through `html`, which escapes it. Input ids follow the API's
 * field names with dots as dashes (`hsa_fsa_card.number` is `#hsa_fsa_card-number`, its message
 * `#hsa_fsa_card-number-error`), so the script can put each server error next to its field.
 */

export interface PageOptions {
  /** The merchant the payer is paying (shown in the header and the title). */
  merchantName?: string;
}

/**
 * The whole document around `body`: viewport, the pages' stylesheet, and `script` (`cardEntry`:
 * Adyen Web's stylesheet and the pay form's configuration, a JSON block). Nothing inline runs: the
 * stylesheet and scripts are files of our origin (hosted-page-assets.ts), which the CSP allows.
 */
export function layout(
  title: string,
  body: SafeHtml,
  opts: PageOptions & { script?: HostedPageScript; livemode?: boolean; cardEntry?: SafeHtml },
): string {
  const merchant = opts.merchantName?.trim();
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${merchant ? `${title} · ${merchant}` : title}</title>
<link rel="stylesheet" href="${HOSTED_PAGE_STYLESHEET}">${
    opts.cardEntry
      ? html`
<link rel="stylesheet" href="/card-entry/adyen-web.css">`
      : ''
  }
</head>
<body>
<header class="site-header"><p>${merchant ? html`<span class="merchant-name" id="merchant-name">${merchant}</span>` : ''}<span class="secure"><span class="lock" aria-hidden="true"></span> Secure checkout</span></p></header>
<main id="main">
${opts.livemode === false ? html`<p class="test-banner"><strong>Test mode:</strong> no real payment is made. Try card 4242 4242 4242 4242 or HSA/FSA card 4111 1100 0000 0013, any future expiry and any 3-digit CVC.</p>` : ''}
${body}
</main>
${opts.cardEntry ?? ''}${opts.script ? html`<script type="module" src="${HOSTED_PAGE_SCRIPTS[opts.script]}"></script>` : ''}
</body>
</html>
`.value;
}

/** A short page with a heading, a message and an optional link (not found, paid, expired, error). */
export function renderNoticePage(
  opts: PageOptions & {
    title: string;
    message: string;
    link?: { href: string; text: string } | null;
    livemode?: boolean;
    script?: HostedPageScript;
  },
): string {
  const href = safeUrl(opts.link?.href);
  const body = html`<section class="panel notice" aria-labelledby="notice-title">
<h1 id="notice-title">${opts.title}</h1>
<p>${opts.message}</p>
${href ? html`<p><a class="button-link" href="${href}">${opts.link!.text}</a></p>` : ''}
</section>`;
  return layout(opts.title, body, {
    livemode: opts.livemode,
    merchantName: opts.merchantName,
    script: opts.script,
  });
}

/** The 404 page for an unknown checkout or a wrong access token (the two look the same); a live page reloaded without its token gets it back. */
export function renderNotFoundPage(opts: PageOptions): string {
  return renderNoticePage({
    ...opts,
    script: 'tokenRestore', // a live page reloaded after it hid its token
    title: 'Checkout not found',
    message:
      'This checkout link is not valid. Check that you opened the complete link the store sent you, or go back to the store and start the checkout again.',
  });
}

/** The page for an unexpected failure; carries the request id for support. */
export function renderErrorPage(opts: PageOptions & { requestId: string }): string {
  return renderNoticePage({
    ...opts,
    title: 'Something went wrong',
    message: `We could not load this checkout. Please try again in a moment. If it keeps happening, contact the store and quote reference ${opts.requestId}.`,
  });
}

/** How the pay form differs between its entry points (a checkout's page, a payment link's page). */
export interface PayFormOptions {
  payUrl: string;
  /** Where "cancel" goes: the session's failure_url by default, none when null. */
  cancelHref?: string | null;
  /** Ask for the payer's email and name (a payment link that names no customer). */
  collectCustomer?: boolean;
  /** Ask for a shipping address (a payment link with `collect_shipping_address`). */
  collectShipping?: boolean;
  /** Live mode: the cards are entered in Adyen Web's components and paid through these routes (no card input of ours). */
  cardEntry?: LiveCardEntry;
}

/** The page at `checkout_url`: the order summary, the card entry for its type, or its paid/expired state. */
export function renderCheckoutPage(
  session: CheckoutSession,
  status: CheckoutStatus,
  opts: PageOptions & PayFormOptions,
): string {
  if (status === 'paid') {
    return renderNoticePage({
      ...opts,
      livemode: session.livemode,
      title: 'This checkout is already paid',
      message: 'Payment for this order has already been received. There is nothing more to pay.',
      link: {
        href: withQuery(session.successUrl, {
          checkout_id: session.id,
          ...(session.orderId && { order_id: session.orderId }),
        }),
        text: 'Continue to the store',
      },
    });
  }
  if (status === 'expired') {
    return renderNoticePage({
      ...opts,
      livemode: session.livemode,
      title: 'This checkout has expired',
      message: 'Checkout links are valid for 24 hours. Nothing was charged. Return to the store to start again.',
      link: { href: withQuery(session.failureUrl, { checkout_id: session.id }), text: 'Return to the store' },
    });
  }
  const body = html`<h1>Review and pay</h1>
<div class="layout">
${orderSummary(session)}
${paymentForm(session, opts)}
</div>`;
  const cardEntry =
    opts.cardEntry && cardEntryConfigScript(sessionAmounts(session), opts.cardEntry, liveCards(session));
  return layout('Checkout', body, {
    script: 'payForm',
    livemode: session.livemode,
    merchantName: opts.merchantName,
    cardEntry,
  });
}

/** The Adyen Web card components of a live page and what each pays (the regular card is mounted even when the HSA/FSA card should cover everything: a partial authorisation asks for it). */
function liveCards(session: CheckoutSession): { slot: 'hsa_fsa_card' | 'card'; amount: number }[] {
  const { hsa_amount, regular_amount, total } = session.amounts;
  return hsaPossible(session)
    ? [
        { slot: 'hsa_fsa_card', amount: hsa_amount },
        { slot: 'card', amount: regular_amount || total },
      ]
    : [{ slot: 'card', amount: total }];
}

function lineItem(item: CheckoutLineItem, currency: string): SafeHtml {
  const image = safeUrl(item.image_url);
  return html`<li class="item">
${image ? html`<img src="${image}" alt="" width="48" height="48" loading="lazy">` : ''}
<div class="item-main">
<p class="item-name">${item.name}</p>
<p class="item-meta">Qty ${item.quantity} × ${formatMoney(item.price, currency)}</p>
${
  item.hsa_fsa_eligible || item.requires_lmn
    ? html`<ul class="badges">
${item.hsa_fsa_eligible ? html`<li class="badge badge-eligible">HSA/FSA eligible</li>` : ''}
${item.requires_lmn ? html`<li class="badge badge-lmn">Needs a letter of medical necessity</li>` : ''}
</ul>`
    : ''
}
</div>
<span class="item-total">${formatMoney(item.price * item.quantity, currency)}</span>
</li>`;
}

function orderSummary(session: CheckoutSession): SafeHtml {
  const { amounts, currency } = session;
  const money = (cents: number) => formatMoney(cents, currency);
  return html`<section class="panel summary" aria-labelledby="summary-title">
<h2 id="summary-title">Order summary</h2>
<ul class="items">
${session.lineItems.map((item) => lineItem(item, currency))}
</ul>
<dl class="amounts" id="amounts">
<dt>Subtotal</dt><dd>${money(amounts.subtotal)}</dd>
<dt>Discount</dt><dd>${amounts.discount > 0 ? `−${money(amounts.discount)}` : money(0)}</dd>
<dt>Shipping</dt><dd>${money(amounts.shipping)}</dd>
<dt>Tax</dt><dd>${money(amounts.tax)}</dd>
<dt class="total">Total</dt><dd class="total">${money(amounts.total)}</dd>
</dl>
<h3>How the total splits</h3>
<dl class="amounts" id="split">
<dt>HSA/FSA eligible</dt><dd>${money(amounts.hsa_amount)}</dd>
<dt>Regular (not eligible)</dt><dd>${money(amounts.regular_amount)}</dd>
</dl>
${session.customer.email ? html`<p class="customer">Ordering as ${session.customer.first_name} ${session.customer.last_name} (${session.customer.email})</p>` : ''}
</section>`;
}

/** Whether an HSA/FSA card can pay part of this session (it pays only the eligible amount). */
function hsaPossible(session: CheckoutSession): boolean {
  return session.type !== 'regular' && session.amounts.hsa_amount > 0;
}

function paymentForm(session: CheckoutSession, opts: PayFormOptions): SafeHtml {
  const { payUrl } = opts;
  const cancelHref =
    opts.cancelHref === undefined ? withQuery(session.failureUrl, { checkout_id: session.id }) : opts.cancelHref;
  const { amounts, currency } = session;
  const money = (cents: number) => formatMoney(cents, currency);
  const hsa = hsaPossible(session);
  const lmnItems = session.lineItems.filter((l) => l.requires_lmn);
  const cardSplit = hsa && amounts.regular_amount > 0;
  const cardAmount = hsa ? `pays ${money(amounts.regular_amount)}` : `pays ${money(amounts.total)}`;
  const live = Boolean(opts.cardEntry);
  return html`<section class="panel" aria-labelledby="pay-title">
<h2 id="pay-title">Payment</h2>
<noscript><p class="error-summary">This page needs JavaScript to take your payment. Turn it on and reload the page.</p></noscript>
<form id="pay-form" method="post" action="${payUrl}" novalidate ${opts.cardEntry ? trusted('data-card-entry="adyen" ') : ''}data-regular-amount="${amounts.regular_amount}" data-requires-lmn="${String(lmnItems.length > 0 && hsa)}">
<div id="form-error" class="error-summary" role="alert" aria-live="assertive"></div>
${opts.collectCustomer ? customerFieldset() : ''}
${opts.collectShipping ? shippingFieldset() : ''}
${
  hsa
    ? html`<fieldset id="method">
<legend>How would you like to pay?</legend>
<div class="check"><input type="radio" id="method-hsa" name="method" value="hsa" checked><label for="method-hsa">HSA/FSA card for the eligible ${money(amounts.hsa_amount)}${cardSplit ? `, and a regular card for the remaining ${money(amounts.regular_amount)}` : ''}</label></div>
<div class="check"><input type="radio" id="method-card" name="method" value="card"><label for="method-card">One regular card for everything (${money(amounts.total)})</label></div>
</fieldset>
${cardFieldset('hsa_fsa_card', 'HSA/FSA card', `pays ${money(amounts.hsa_amount)}`, true, undefined, live)}`
    : ''
}
${cardFieldset('card', hsa ? 'Regular card' : 'Card', cardAmount, !hsa || cardSplit, { split: `pays ${money(amounts.regular_amount)}`, full: `pays ${money(amounts.total)}` }, live)}
${live ? html`<div id="card-action" class="card-action" role="region" aria-label="Confirm the payment with your bank" tabindex="-1" hidden></div>` : ''}
${lmnItems.length && hsa ? lmnFieldset(lmnItems) : ''}
<button type="submit" class="pay" id="pay-button">Pay ${money(amounts.total)}</button>
<p id="pay-status" class="status" role="status" aria-live="polite"></p>
${cancelHref ? html`<a class="cancel" href="${cancelHref}">Cancel and return to the store</a>` : ''}
</form>
</section>`;
}

/** The payer's email and name (`customer`), for a payment link that names no customer. */
function customerFieldset(): SafeHtml {
  const input = (field: string, label: string, type: string, autocomplete: string) => html`<div class="field">
<label for="customer-${field}">${label}</label>
<input type="${type}" id="customer-${field}" name="customer.${field}" data-label="${label}" autocomplete="${autocomplete}" maxlength="255" aria-describedby="customer-${field}-error">
<p class="field-error" id="customer-${field}-error"></p>
</div>`;
  return html`<fieldset id="customer" data-label="Your details">
<legend>Your details</legend>
<p class="field-error" id="customer-error"></p>
${input('email', 'Email', 'email', 'email')}
<div class="row">
${input('first_name', 'First name', 'text', 'given-name')}
${input('last_name', 'Last name', 'text', 'family-name')}
</div>
</fieldset>`;
}

/** Where to ship (`shipping_address`), for a payment link whose products ship; it is also the billing address. */
function shippingFieldset(): SafeHtml {
  const input = (
    field: string,
    label: string,
    autocomplete: string,
    attrs: { maxlength: number; optional?: boolean; value?: string },
  ) => html`<div class="field">
<label for="shipping_address-${field}">${label}${attrs.optional ? html` <span class="optional">(optional)</span>` : ''}</label>
<input type="text" id="shipping_address-${field}" name="shipping_address.${field}" data-label="${label}" autocomplete="shipping ${autocomplete}" maxlength="${attrs.maxlength}" ${attrs.value ? html`value="${attrs.value}"` : ''} aria-describedby="shipping_address-${field}-error">
<p class="field-error" id="shipping_address-${field}-error"></p>
</div>`;
  return html`<fieldset id="shipping_address" data-label="Shipping address">
<legend>Shipping address</legend>
<p class="field-error" id="shipping_address-error"></p>
${input('address_line_1', 'Address', 'address-line1', { maxlength: 255 })}
${input('address_line_2', 'Apartment, suite, etc.', 'address-line2', { maxlength: 255, optional: true })}
<div class="row">
${input('city', 'City', 'address-level2', { maxlength: 100 })}
${input('state', 'State', 'address-level1', { maxlength: 100 })}
${input('postal_code', 'ZIP code', 'postal-code', { maxlength: 20 })}
</div>
${input('country', 'Country (2-letter code)', 'country', { maxlength: 2, value: 'US' })}
</fieldset>`;
}

/**
 * One card's fieldset: number, expiry month and year, CVC; `slot` is the API field (`card`,
 * `hsa_fsa_card`). In live mode (`adyen`) it holds Adyen Web's card component instead, whose
 * fields are Adyen's own iframes: no card input of ours is ever on a live page.
 */
export function cardFieldset(
  slot: 'card' | 'hsa_fsa_card',
  title: string,
  amount: string,
  visible: boolean,
  amounts?: { split: string; full: string },
  adyen = false,
): SafeHtml {
  const input = (
    field: string,
    label: string,
    attrs: { autocomplete: string; maxlength: number; placeholder?: string; hint?: string },
  ) => {
    const id = `${slot}-${field}`;
    return html`<div class="field">
<label for="${id}">${label}</label>
<input type="text" id="${id}" name="${slot}.${field}" data-label="${label}" inputmode="numeric" autocomplete="${attrs.autocomplete}" maxlength="${attrs.maxlength}" ${attrs.placeholder ? html`placeholder="${attrs.placeholder}"` : ''} spellcheck="false" autocorrect="off" autocapitalize="off" aria-describedby="${attrs.hint ? `${id}-hint ` : ''}${id}-error">
${attrs.hint ? html`<p class="hint" id="${id}-hint">${attrs.hint}</p>` : ''}
<p class="field-error" id="${id}-error"></p>
</div>`;
  };
  return html`<fieldset id="${slot}" data-label="${title}" ${visible ? '' : trusted('hidden disabled')}>
<legend>${title} <span class="legend-amount">(<span ${amounts ? html`id="card-amount" data-split="${amounts.split}" data-full="${amounts.full}"` : ''}>${amount}</span>)</span></legend>
<p class="field-error" id="${slot}-error"></p>
${adyen ? html`<div class="card-entry" id="${slot}-adyen"></div>` : cardInputs(input)}
</fieldset>`;
}

/** A test-mode card's own inputs. */
function cardInputs(
  input: (
    field: string,
    label: string,
    attrs: { autocomplete: string; maxlength: number; placeholder?: string; hint?: string },
  ) => SafeHtml,
): SafeHtml {
  return html`${input('number', 'Card number', { autocomplete: 'cc-number', maxlength: 23, placeholder: '1234 1234 1234 1234' })}
<div class="row">
${input('exp_month', 'Expiry month', { autocomplete: 'cc-exp-month', maxlength: 2, placeholder: 'MM' })}
${input('exp_year', 'Expiry year', { autocomplete: 'cc-exp-year', maxlength: 4, placeholder: 'YYYY' })}
${input('cvc', 'CVC', { autocomplete: 'cc-csc', maxlength: 4, placeholder: '123' })}
</div>`;
}

/** The short health questionnaire that approves a letter of medical necessity (`lmn`). */
function lmnFieldset(items: CheckoutLineItem[]): SafeHtml {
  return html`<fieldset id="lmn" data-label="Letter of medical necessity">
<legend>Letter of medical necessity</legend>
<p class="hint" id="lmn-intro">To pay for ${items.map((i, n) => html`${n ? ', ' : ''}<strong>${i.name}</strong>`)} with an HSA/FSA card, answer these questions. A letter of medical necessity is issued from your answers. Or choose "One regular card" above instead.</p>
<p class="field-error" id="lmn-error"></p>
<div class="field">
<label for="lmn-condition">Which condition do these items treat or prevent?</label>
<textarea id="lmn-condition" name="lmn.condition" data-label="The condition" maxlength="500" rows="2" autocomplete="off" aria-describedby="lmn-condition-error"></textarea>
<p class="field-error" id="lmn-condition-error"></p>
</div>
<div class="check"><input type="checkbox" id="lmn-recommended_by_provider" name="lmn.recommended_by_provider" aria-describedby="lmn-recommended_by_provider-error"><label for="lmn-recommended_by_provider">A licensed healthcare provider recommended these items for this condition</label></div>
<p class="field-error" id="lmn-recommended_by_provider-error"></p>
<div class="field">
<label for="lmn-provider_name">Provider name <span class="optional">(optional)</span></label>
<input type="text" id="lmn-provider_name" name="lmn.provider_name" data-label="Provider name" maxlength="255" autocomplete="off" aria-describedby="lmn-provider_name-error">
<p class="field-error" id="lmn-provider_name-error"></p>
</div>
<div class="check"><input type="checkbox" id="lmn-attestation" name="lmn.attestation" aria-describedby="lmn-attestation-error"><label for="lmn-attestation">I confirm that these answers are true and that the items are for treating or preventing this condition</label></div>
<p class="field-error" id="lmn-attestation-error"></p>
</fieldset>`;
}
