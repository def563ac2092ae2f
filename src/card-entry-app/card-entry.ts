/**
 * The one browser module that talks to Adyen Web (`/card-entry/card-entry.js`). A page hands it a
 * configuration and two callbacks; it mounts one Adyen Web Card component per card slot (its
 * secured fields are Adyen's iframes: the card number never reaches the page or our servers),
 * gives back each card's `paymentMethod` (the encrypted fields) when the page pays, and shows the
 * action a payment needs (3-D Secure 2, a redirect) with Adyen Web, handing its result back.
 *
 * Seam for tests: Adyen Web is a bundle of its own (`./adyen-web.js`, external here), so a browser
 * test replaces exactly that module (Playwright's `page.route`) with a stand-in that records what
 * `AdyenCheckout` and `Card` were given and plays Adyen's documented `test_` values; everything
 * else (this module, the page's script, our routes) runs as in production. Production pages have
 * no test hook at all: nothing on the page can swap Adyen Web out, and the page's CSP only lets
 * scripts of our origin run (nothing inline).
 */
import type { AdditionalDetailsData, CoreConfiguration, OnChangeData, PaymentAction } from '@adyen/adyen-web';
import { AdyenCheckout, Card } from './adyen-web.js';

/** A card slot of a pay request (the API's field names). */
export type CardSlot = 'hsa_fsa_card' | 'card';

/** What a page gives: the merchant's public client key, Adyen's environment, what is paid, where to mount. */
export interface CardEntryConfig {
  clientKey: string;
  environment: NonNullable<CoreConfiguration['environment']>;
  /** The shopper's locale, e.g. `en-US`. */
  locale: string;
  /** ISO 3166 two-letter country, e.g. `US`. */
  countryCode: string;
  /** The total, in minor units and an upper-case ISO 4217 currency. */
  amount: { value: number; currency: string };
  /** One Card component per slot, mounted in the element with id `containerId`. */
  cards: { slot: CardSlot; containerId: string; amount: number }[];
  /** Id of the element an action (3-D Secure 2 challenge) is mounted in. */
  actionContainerId: string;
}

export interface CardEntryHandlers {
  /** The shopper completed an action: Adyen Web's `state.data.details`, for `…/payments/details`. */
  onAdditionalDetails(details: Record<string, unknown>): void;
  /** Adyen Web could not load or run (network, configuration); `message` can be shown to the shopper. */
  onError(message: string): void;
}

/** The page's card data: Adyen Web's `paymentMethod` per slot and the browser's details (3-D Secure 2), or the slots still to fix. */
export type CollectedCards =
  | {
      ok: true;
      paymentMethods: Partial<Record<CardSlot, Record<string, unknown>>>;
      browserInfo: Record<string, unknown> | null;
    }
  | { ok: false; invalid: CardSlot[] };

export interface CardEntry {
  /** The `paymentMethod` of each of `slots`; a slot not complete and valid shows Adyen Web's own field errors and is named in `invalid`. */
  collect(slots: CardSlot[]): CollectedCards;
  /** Shows an action from a 202 answer with Adyen Web; its result comes back through `onAdditionalDetails`. */
  handleAction(action: Record<string, unknown>): void;
  /** Removes the action shown (its details were sent). */
  clearAction(): void;
  /** Empties a slot's card (Adyen Web's fields, mounted afresh) and puts the cursor in its card number: "try another card". */
  reset(slot: CardSlot): void;
}

const element = (id: string): HTMLElement => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`card entry: no element #${id} on the page`);
  return el;
};

/** Mounts Adyen Web's card components for `config` (see the module comment). */
export async function mountCardEntry(config: CardEntryConfig, handlers: CardEntryHandlers): Promise<CardEntry> {
  const checkout = await AdyenCheckout({
    clientKey: config.clientKey,
    environment: config.environment,
    locale: config.locale,
    countryCode: config.countryCode,
    amount: config.amount,
    // The page's own button pays both cards in one request; Adyen Web only collects them.
    showPayButton: false,
    // Event tracking off (a health purchase); Adyen Web still asks its analytics origin for an attempt id.
    analytics: { enabled: false },
    onAdditionalDetails: (state: AdditionalDetailsData) => handlers.onAdditionalDetails(state.data.details),
    onError: (error: Error) => handlers.onError(error.message || 'The card form could not load.'),
  });
  const states = new Map<CardSlot, OnChangeData>();
  const components = new Map<CardSlot, InstanceType<typeof Card>>();
  const mountCard = (slot: CardSlot, containerId: string, amount: number, focus: boolean) => {
    const card = new Card(checkout, {
      amount: { value: amount, currency: config.amount.currency },
      hasHolderName: false,
      onChange: (state: OnChangeData) => states.set(slot, state),
      // Once its secured fields answered: the card number takes the cursor ("try another card").
      onConfigSuccess: () => (focus ? card.setFocusOn('encryptedCardNumber') : undefined),
    });
    card.mount(element(containerId));
    components.set(slot, card);
  };
  for (const { slot, containerId, amount } of config.cards) mountCard(slot, containerId, amount, false);
  let action: { unmount(): unknown } | null = null;
  return {
    collect(slots) {
      const invalid = slots.filter((slot) => !states.get(slot)?.isValid);
      if (invalid.length) {
        for (const slot of invalid) components.get(slot)?.showValidation();
        return { ok: false, invalid };
      }
      const paymentMethods: Partial<Record<CardSlot, Record<string, unknown>>> = {};
      let browserInfo: Record<string, unknown> | null = null;
      for (const slot of slots) {
        const data = states.get(slot)!.data as {
          paymentMethod: Record<string, unknown>;
          browserInfo?: Record<string, unknown>;
        };
        paymentMethods[slot] = data.paymentMethod;
        browserInfo ??= data.browserInfo ?? null;
      }
      return { ok: true, paymentMethods, browserInfo };
    },
    handleAction(next) {
      action?.unmount();
      action = checkout
        .createFromAction(next as unknown as PaymentAction, { challengeWindowSize: '05' })
        .mount(element(config.actionContainerId));
    },
    clearAction() {
      action?.unmount();
      action = null;
    },
    reset(slot) {
      const mounted = config.cards.find((c) => c.slot === slot);
      if (!mounted) return;
      components.get(slot)?.unmount();
      states.delete(slot);
      mountCard(slot, mounted.containerId, mounted.amount, true);
    },
  };
}
