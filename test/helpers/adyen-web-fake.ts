import type { BrowserContext, Page } from 'playwright-core';

/**
 * A stand-in for Adyen Web's bundle (`/card-entry/adyen-web.js`) in Chromium tests: Adyen's
 * secured-field iframes load from Adyen and cannot load offline, so a test replaces exactly that
 * module (`page.route`; production pages have no hook) with this one. It exports what the
 * card-entry module imports (`AdyenCheckout`, `Card`), records what they were given in
 * `window.adyenWebFake`, and lets the test play the shopper: `enter(slot, number)` fills a card
 * with Adyen's documented unencrypted test values (`test_4111…`, `test_03`, `test_2030`,
 * `test_737`), `complete(details)` finishes a shown action as Adyen Web's onAdditionalDetails does.
 */
const FAKE_ADYEN_WEB = `
const fake = (window.adyenWebFake = { checkout: null, cards: {}, actions: [], validations: [] });
let core = null;
export async function AdyenCheckout(options) {
  const { clientKey, environment, locale, countryCode, amount, showPayButton, analytics } = options;
  fake.checkout = JSON.parse(JSON.stringify({ clientKey, environment, locale, countryCode, amount, showPayButton, analytics }));
  let shown = null;
  core = {
    options,
    createFromAction(action, props) {
      fake.actions.push(JSON.parse(JSON.stringify({ action, props })));
      return {
        mount(node) {
          shown = node;
          const p = document.createElement('p');
          p.id = 'fake-action';
          p.textContent = 'Your bank asks you to confirm this payment (' + action.type + ').';
          node.appendChild(p);
          return this;
        },
        unmount() {
          if (shown) shown.textContent = '';
        },
      };
    },
  };
  return core;
}
export class Card {
  constructor(checkout, props) {
    this.props = props;
  }
  mount(node) {
    const slot = node.id.replace(/-adyen$/, '');
    fake.cards[slot] = JSON.parse(JSON.stringify({ amount: this.props.amount, hasHolderName: this.props.hasHolderName }));
    const p = document.createElement('p');
    p.textContent = 'Card fields (Adyen Web stand-in)';
    node.appendChild(p);
    (fake.onChange = fake.onChange || {})[slot] = this.props.onChange;
    return this;
  }
  showValidation() {
    fake.validations.push(Object.keys(fake.cards).find((slot) => fake.onChange[slot] === this.props.onChange));
    return this;
  }
}
fake.enter = (slot, number) =>
  fake.onChange[slot]({
    isValid: true,
    data: {
      paymentMethod: { type: 'scheme', encryptedCardNumber: 'test_' + number, encryptedExpiryMonth: 'test_03', encryptedExpiryYear: 'test_2030', encryptedSecurityCode: 'test_737' },
      browserInfo: { acceptHeader: '*/*', colorDepth: 24, language: 'en-US', javaEnabled: false, screenHeight: 900, screenWidth: 1280, userAgent: navigator.userAgent, timeZoneOffset: 0 },
    },
  });
fake.complete = (details) => core.options.onAdditionalDetails({ data: { details } });
`;

/** Serves the stand-in instead of Adyen Web's bundle to `page`. */
export async function fakeAdyenWeb(page: Page): Promise<void> {
  await page.route('**/card-entry/adyen-web.js', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: FAKE_ADYEN_WEB }),
  );
}

/** Fills a card slot on the page with the stand-in's `test_` values of `number`. */
export async function enterCard(page: Page, slot: 'hsa_fsa_card' | 'card', number: string): Promise<void> {
  await page.waitForFunction(
    (s) =>
      Boolean(
        (window as unknown as { adyenWebFake?: { onChange?: Record<string, unknown> } }).adyenWebFake?.onChange?.[s],
      ),
    slot,
  );
  await page.evaluate(
    ([s, n]) =>
      (window as unknown as { adyenWebFake: { enter(slot: string, number: string): void } }).adyenWebFake.enter(s, n),
    [slot, number] as const,
  );
}

/** What the page gave Adyen Web. */
export interface FakeAdyenWebState {
  checkout: Record<string, unknown>;
  cards: Record<string, { amount: { value: number; currency: string }; hasHolderName: boolean }>;
  actions: { action: Record<string, string>; props: Record<string, unknown> }[];
  validations: string[];
}

export function fakeState(page: Page): Promise<FakeAdyenWebState> {
  return page.evaluate(() => {
    const { checkout, cards, actions, validations } = (window as unknown as { adyenWebFake: FakeAdyenWebState })
      .adyenWebFake;
    return { checkout, cards, actions, validations };
  });
}

/** Finishes the shown action with `details`, as Adyen Web's onAdditionalDetails does. */
export async function completeAction(page: Page, details: Record<string, string>): Promise<void> {
  await page.evaluate(
    (d) => (window as unknown as { adyenWebFake: { complete(details: unknown): void } }).adyenWebFake.complete(d),
    details,
  );
}

/** A page opened with Adyen Web's stand-in: script errors and CSP reports (`problems`), the POSTs it made, its answer's headers. */
export interface FakeAdyenWebPage {
  page: Page;
  problems: string[];
  posts: { url: string; body: string }[];
  headers: Record<string, string>;
}

/** Opens `url` in a new tab of `context` with Adyen Web's stand-in and waits until the page booted it (the page must answer 200). */
export async function openWithFakeAdyenWeb(context: BrowserContext, url: string): Promise<FakeAdyenWebPage> {
  const page = await context.newPage();
  await fakeAdyenWeb(page);
  const problems: string[] = [];
  const posts: { url: string; body: string }[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (req) => {
    if (req.method() === 'POST')
      posts.push({ url: new URL(req.url()).pathname + new URL(req.url()).search, body: req.postData() ?? '' });
  });
  const response = await page.goto(url);
  if (response?.status() !== 200) throw new Error(`${url} answered ${response?.status()}`);
  await page.waitForFunction(() =>
    Boolean((window as unknown as { adyenWebFake?: { checkout: unknown } }).adyenWebFake?.checkout),
  );
  return { page, problems, posts, headers: response.headers() };
}
