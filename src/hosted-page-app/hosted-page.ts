/**
 * The hosted pages' pay form (`/hosted-page/hosted-page.js`: the checkout page, a payment link's
 * page, a card setup link's page). It switches between "HSA/FSA card + card" and "one card",
 * posts the form as `payCheckoutSchema` JSON with fetch, disables the button while paying, shows
 * errors next to the field they name (form-errors.ts), and on success goes to the `redirect_url`
 * the server answered. Field rules stay on the server: the script only turns the inputs into JSON.
 *
 * Live mode (a `#card-entry-config` JSON block on the page): the cards are Adyen Web's components,
 * mounted by the card-entry module (`mountCardEntry`, imported from our origin once the page's
 * token left the address bar); the script sends only the `paymentMethod` they give
 * (`payment_method_data`), with `browser_info` and `return_url`, to the pay route the configuration
 * names, shows a 202's `action` with Adyen Web and sends its details on, finishes a redirect that
 * came back with `redirectResult`, and says how a partly authorised HSA/FSA card split the total
 * (or asks for a regular card for the rest).
 */
import type { CardEntry, CardEntryConfig, mountCardEntry } from '../card-entry-app/card-entry.js';
import { HSA_FSA_CARD_FIELD, nameHsaFsaField, type HsaFsaField } from '../modules/shared/hsa-fsa-field.js';
import { byId, required, toggle } from './dom.js';
import { FormErrors, type ApiError, type ErrorEntry } from './form-errors.js';
import { hideToken } from './page-token.js';
import { payRequest, type CardSlot, type LocalError } from './pay-request.js';

/** The page's live configuration (`#card-entry-config`, written by card-entry-page.ts's `cardEntryConfigScript`). */
interface LivePageConfig {
  /** Where the card-entry module is imported from. */
  module: string;
  adyen: CardEntryConfig;
  pay: {
    url: string;
    detailsUrl: string | null;
    /** The HSA/FSA card's field in the pay route's body. */
    hsaField: HsaFsaField;
    successUrl: string | null;
    failureUrl: string | null;
    hsaAmount: number;
    currency: string;
  };
}

/** A pay call's answer. */
interface PayAnswer {
  redirect_url?: string;
  id?: string;
  amounts?: { hsa_amount: number; regular_amount: number };
  action?: Record<string, unknown>;
  error?: ApiError;
}

const form = byId('pay-form');
if (form instanceof HTMLFormElement) payForm(form);

function payForm(form: HTMLFormElement): void {
  const statusLine = required('pay-status');
  const button = required('pay-button') as HTMLButtonElement;
  const buttonLabel = button.textContent ?? '';
  const regularAmount = Number(form.getAttribute('data-regular-amount'));
  const requiresLmn = form.getAttribute('data-requires-lmn') === 'true';
  let busy = false;
  const configEl = byId('card-entry-config');
  const live = configEl ? (JSON.parse(configEl.textContent ?? '') as LivePageConfig) : null;
  // A partial HSA/FSA authorisation asked for a regular card for the rest (live mode).
  let addRegular = false;
  // The page's address as opened (its token, a redirect's result), before hideToken takes the token out of it.
  const pageUrl = new URL(window.location.href);
  // The token leaves the address bar before Adyen Web (imported by the card-entry module) loads.
  if (live) hideToken(pageUrl);
  const entry: Promise<CardEntry> | null = live
    ? (import(live.module) as Promise<{ mountCardEntry: typeof mountCardEntry }>).then((m) =>
        m.mountCardEntry(live.adyen, { onAdditionalDetails: sendDetails, onError: cardFormFailed }),
      )
    : null;
  entry?.catch(cardFormFailed);

  const errors = new FormErrors(form, required('form-error'), (fieldset) => {
    if (entry) {
      entry.then((cards) => cards.reset(fieldset.id as CardSlot), cardFormFailed);
      return;
    }
    for (const el of fieldset.querySelectorAll('input')) el.value = '';
    fieldset.querySelector('input')?.focus();
  });

  function method(): string {
    return form.querySelector<HTMLInputElement>('input[name="method"]:checked')?.value ?? 'card';
  }
  function applyMethod(): void {
    const hsa = method() === 'hsa';
    toggle('hsa_fsa_card', hsa);
    toggle('card', !hsa || regularAmount > 0 || addRegular);
    toggle('lmn', hsa && requiresLmn);
    const amount = byId('card-amount');
    if (amount)
      amount.textContent = hsa && addRegular ? 'pays the rest' : amount.getAttribute(hsa ? 'data-split' : 'data-full');
  }
  for (const radio of form.querySelectorAll('input[name="method"]')) {
    radio.addEventListener('change', () => {
      errors.clear();
      applyMethod();
    });
  }
  applyMethod();

  function setBusy(on: boolean, text = ''): void {
    busy = on;
    button.disabled = on;
    form.setAttribute('aria-busy', on ? 'true' : 'false');
    button.textContent = on ? text : buttonLabel;
    statusLine.textContent = on ? text : '';
  }

  function post(url: string, body: unknown): void {
    setBusy(true, form.getAttribute('data-busy-text') || 'Processing payment\u2026');
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    })
      .then(async (res) => {
        const data = (await res.json().catch(() => ({}))) as PayAnswer | null;
        return { ok: res.ok, status: res.status, data: data ?? {} };
      })
      .then(settle, () => {
        setBusy(false);
        errors.show(
          [],
          'We could not reach the payment service. Check your connection and try again; nothing was charged.',
        );
      });
  }
  function settle(result: { ok: boolean; status: number; data: PayAnswer }): void {
    const { data } = result;
    if (live && result.status === 202 && data.action) return showAction(data.action);
    if (result.ok && (data.redirect_url || (live && data.id))) return paid(data);
    setBusy(false);
    const error = data.error;
    if (!live || !error) return errors.showServer(error, data.redirect_url);
    const onPage = pageError(error);
    if (isPartialAuthorisation(onPage.details) && (onPage.param ?? '').startsWith(HSA_FSA_CARD_FIELD)) {
      addRegular = true;
      applyMethod();
      return errors.show([], onPage.message);
    }
    errors.showServer(onPage, data.redirect_url || live.pay.failureUrl);
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) return;
    errors.clear();
    const local: LocalError[] = [];
    const hsa = method() === 'hsa';
    const body = payRequest({ hsa, withRegularCard: regularAmount > 0 || addRegular, requiresLmn }, local);
    if (local.length) return errors.show(local);
    if (!live || !entry) return post(form.getAttribute('action') ?? '', body);
    entry.then((cards) => {
      const slots = (['hsa_fsa_card', 'card'] as const).filter((slot) => body[slot]);
      const got = cards.collect([...slots]);
      if (!got.ok)
        return errors.show(
          got.invalid.map((slot): ErrorEntry => [
            slot,
            'Complete the card number, expiry date and security code of this card.',
            false,
          ]),
        );
      for (const slot of slots) {
        delete body[slot];
        body[slot === 'hsa_fsa_card' ? live.pay.hsaField : slot] = { payment_method_data: got.paymentMethods[slot]! };
      }
      if (got.browserInfo) body.browser_info = got.browserInfo;
      body.return_url = returnUrl();
      post(live.pay.url, body);
    }, cardFormFailed);
  });

  // Live mode from here on.
  function cardFormFailed(): void {
    setBusy(false);
    errors.clear(); // Adyen Web and the module's load can both fail: say it once
    errors.show([], 'The card form could not load. Check your connection and reload the page; nothing was charged.');
  }
  function money(cents: number): string {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: live?.pay.currency }).format(cents / 100);
  }
  function returnUrl(): string {
    const url = new URL(pageUrl.href);
    url.searchParams.delete('redirectResult');
    url.hash = '';
    return url.toString();
  }
  // 202: the shopper confirms with the bank (3-D Secure) in Adyen Web; its result comes back to sendDetails.
  function showAction(action: Record<string, unknown>): void {
    const box = required('card-action');
    box.hidden = false;
    setBusy(true, 'Confirm the payment with your bank\u2026');
    entry?.then((cards) => {
      cards.handleAction(action);
      box.focus();
    }, cardFormFailed);
  }
  function sendDetails(details: Record<string, unknown>): void {
    required('card-action').hidden = true;
    void entry?.then((cards) => cards.clearAction());
    if (live?.pay.detailsUrl) post(live.pay.detailsUrl, { details });
  }
  // Paid. When the HSA/FSA card covered less than its share, say how the total was paid before leaving.
  function paid(data: PayAnswer): void {
    let to = data.redirect_url;
    if (!to && live?.pay.successUrl) {
      const url = new URL(live.pay.successUrl);
      url.searchParams.set('order_id', data.id ?? '');
      to = url.toString();
    }
    const amounts = data.amounts;
    if (!live || !amounts || method() !== 'hsa' || amounts.hsa_amount >= live.pay.hsaAmount) {
      setBusy(true, form.getAttribute('data-done-text') || 'Payment complete. Redirecting\u2026');
      if (to) window.location.assign(to);
      return;
    }
    setBusy(false);
    busy = true;
    button.hidden = true;
    statusLine.textContent = `Payment complete. Your HSA/FSA card covered ${money(amounts.hsa_amount)} of the eligible ${money(live.pay.hsaAmount)}; the remaining ${money(amounts.regular_amount)} was charged to your regular card.`;
    const next = document.createElement('a');
    next.className = 'button-link';
    next.id = 'continue';
    next.href = to ?? '';
    next.textContent = 'Continue to the store';
    statusLine.after(next);
    next.focus();
  }
  // Back from a redirect (3-D Secure on the issuer's page): finish it with the result Adyen appended.
  const redirectResult = live && pageUrl.searchParams.get('redirectResult');
  if (redirectResult && live.pay.detailsUrl) {
    const back = new URL(window.location.href);
    back.searchParams.delete('redirectResult');
    window.history.replaceState(null, '', back.toString());
    post(live.pay.detailsUrl, { details: { redirectResult } });
  }
}

/** The error with the fields it names as this page names them (the contract's route says `hsa_fsa` where the page says `hsa_fsa_card`). */
function pageError(error: ApiError): ApiError {
  const onPage = (field: string) => nameHsaFsaField(field, HSA_FSA_CARD_FIELD);
  const details = Array.isArray(error.details)
    ? (error.details as { field?: string; message: string }[]).map((d) =>
        d.field ? { ...d, field: onPage(d.field) } : d,
      )
    : error.details;
  return { ...error, param: error.param && onPage(error.param), details };
}

/** Whether an error's details say how much of a card was authorised (a partial HSA/FSA authorisation). */
function isPartialAuthorisation(details: unknown): boolean {
  return typeof details === 'object' && details !== null && 'authorized_amount' in details;
}
