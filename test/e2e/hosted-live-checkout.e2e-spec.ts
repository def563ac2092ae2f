/**
 * Live-mode hosted pages on Adyen Web, in Chromium, against the Adyen stand-in behind Prism. Adyen
 * Web's own bundle is replaced by a stand-in (test/helpers/adyen-web-fake.ts: its secured-field
 * iframes cannot load offline); the card-entry module, the page's script and every route run as
 * in production.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import { PaymentLink } from '../../src/modules/payment-links/payment-link.entity.js';
import { completeAction, enterCard, fakeState, openWithFakeAdyenWeb } from '../helpers/adyen-web-fake.js';
import { playAdyenHosts, securedField, typeCard } from '../helpers/adyen-web-hosts.js';
import { launchBrowser, startStore, type StoreServer } from '../helpers/browser.js';
import { openCheckout } from '../helpers/fixtures.js';
import { client } from '../helpers/http.js';
import { inlineCode } from '../helpers/inline-code.js';
import { adyenCard, useLiveMode } from '../helpers/live-mode.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const m = useLiveMode([
  ['thermo', 'Digital Thermometer', 1999],
  ['mug', 'Coffee Mug', 1700],
]);
const SPLIT: [string, string, number, number][] = [
  ['thermo', 'Digital Thermometer', 1999, 2],
  ['mug', 'Coffee Mug', 1700, 1],
];
const MUG: [string, string, number, number][] = [['mug', 'Coffee Mug', 1700, 1]];
const THERMOS: [string, string, number, number][] = [['thermo', 'Digital Thermometer', 1999, 2]];

let browser: Browser;
let store: StoreServer;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  store = await startStore();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await store?.close();
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
});

/** Opens `path` with Adyen Web's stand-in; collects script errors, CSP reports and the JSON posted by the page. */
async function open(path: string, opts: { bypassCSP?: boolean } = {}) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    bypassCSP: opts.bypassCSP ?? false,
  });
  contexts.push(context);
  return openWithFakeAdyenWeb(context, `${m.t.url}${path}`);
}

const pagePath = (url: string) => new URL(url).pathname + new URL(url).search;
const liveCheckout = (items: [string, string, number, number][]) =>
  openCheckout(m.live, items, { success_url: `${store.url}/thanks`, failure_url: `${store.url}/cart` });
const text = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();

async function axeViolations(page: Page) {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const result = await (window as typeof window & { axe: typeof axe }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
}

describe('the live-mode checkout page', () => {
  test("boots Adyen Web with the merchant's client key, the environment, the amounts, locale and country; no card input of ours", async () => {
    const checkout = await liveCheckout(SPLIT);
    const { page, problems, headers } = await open(pagePath(checkout.checkout_url));
    const state = await fakeState(page);
    expect(state.checkout).toEqual({
      clientKey: 'test_CLIENTKEY1234567890',
      environment: 'test',
      locale: 'en-US',
      countryCode: 'US',
      amount: { value: 5698, currency: 'USD' },
      showPayButton: false,
      analytics: { enabled: false },
    });
    expect(state.cards).toEqual({
      hsa_fsa_card: { amount: { value: 3998, currency: 'USD' }, hasHolderName: false },
      card: { amount: { value: 1700, currency: 'USD' }, hasHolderName: false },
    });
    expect(
      await page.locator('input[name^="card."], input[name^="hsa_fsa_card."], input[autocomplete^="cc-"]').count(),
    ).toBe(0);
    expect(await page.locator('.test-banner').count()).toBe(0);
    expect(headers['content-security-policy']).toContain('frame-src https://checkoutshopper-test.adyen.com https:');
    expect(problems).toEqual([]);
  });

  test('pays through POST /api/v2/checkout/{id}/payments?token= with only Adyen Web paymentMethods; the order holds the pspReferences', async () => {
    const checkout = await liveCheckout(SPLIT);
    const { page, problems, posts } = await open(pagePath(checkout.checkout_url));
    await enterCard(page, 'hsa_fsa_card', '4111110000000013');
    await enterCard(page, 'card', '4111111111111111');
    await Promise.all([page.waitForURL(`${store.url}/thanks**`), page.click('#pay-button')]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('checkout_id')).toBe(checkout.checkout_id);
    const orderId = landed.searchParams.get('order_id')!;
    const [pay] = posts;
    expect(pay.url).toMatch(new RegExp(`^/api/v2/checkout/${checkout.checkout_id}/payments\\?token=`));
    const body = JSON.parse(pay.body);
    expect(Object.keys(body).sort()).toEqual(['browser_info', 'card', 'hsa_fsa', 'return_url']);
    expect(body.hsa_fsa).toEqual(adyenCard('4111110000000013'));
    expect(body.return_url).toBe(`${m.t.url}${pagePath(checkout.checkout_url)}`);
    const order = (await m.live.get<OrderResource>(`/api/v2/orders/${orderId}`)).body;
    expect(order).toMatchObject({
      status: 'completed',
      amount: 5698,
      amounts: { hsa_amount: 3998, regular_amount: 1700 },
    });
    const psps = order.payments.map((p) => p.psp_reference);
    expect(psps.every((psp) => m.adyen.standIn.payments.has(psp))).toBe(true);
    expect(problems).toEqual([]);
  });

  test('a partly authorised HSA/FSA card: the page says how the total was split, then continues to the store (axe: 0 violations)', async () => {
    const checkout = await liveCheckout(SPLIT);
    const { page } = await open(pagePath(checkout.checkout_url), { bypassCSP: true });
    await enterCard(page, 'hsa_fsa_card', '4111110000000054'); // $20.00 balance
    await enterCard(page, 'card', '4111111111111111');
    await page.click('#pay-button');
    await page.locator('#continue').waitFor();
    expect(await text(page, '#pay-status')).toBe(
      'Payment complete. Your HSA/FSA card covered $20.00 of the eligible $39.98; the remaining $36.98 was charged to your regular card.',
    );
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('continue');
    expect(await axeViolations(page)).toEqual([]);
    await Promise.all([page.waitForURL(`${store.url}/thanks**`), page.click('#continue')]);
    expect(new URL(page.url()).searchParams.get('order_id')).toMatch(/^ord_/);
  });

  test('an HSA/FSA card alone that covers part of an all-eligible total: nothing is charged, a regular card is asked for the rest, and then it pays', async () => {
    const checkout = await liveCheckout(THERMOS);
    const { page, posts } = await open(pagePath(checkout.checkout_url), { bypassCSP: true });
    expect(await page.locator('#card').isVisible()).toBe(false);
    await enterCard(page, 'hsa_fsa_card', '4111110000000054');
    await page.click('#pay-button');
    await page.locator('#card').waitFor({ state: 'visible' });
    expect(await text(page, '#form-error')).toBe(
      'The HSA/FSA card covers only $20.00 of $39.98. Nothing was charged; add a regular card for the rest.',
    );
    expect(await text(page, '#card-amount')).toBe('pays the rest');
    expect(await axeViolations(page)).toEqual([]);
    await enterCard(page, 'card', '5555444433331111');
    await page.click('#pay-button');
    await page.locator('#continue').waitFor();
    expect(await text(page, '#pay-status')).toContain(
      'Your HSA/FSA card covered $20.00 of the eligible $39.98; the remaining $19.98 was charged to your regular card.',
    );
    expect(Object.keys(JSON.parse(posts[1].body)).sort()).toEqual(['browser_info', 'card', 'hsa_fsa', 'return_url']);
  });

  test('3-D Secure: a 202 action is shown with Adyen Web, its details go to /payments/details, and the order is made (axe: 0 violations on the action)', async () => {
    const checkout = await liveCheckout(MUG);
    const { page, posts, problems } = await open(pagePath(checkout.checkout_url), { bypassCSP: true });
    await enterCard(page, 'card', '4212345678901237');
    await page.click('#pay-button');
    await page.locator('#fake-action').waitFor();
    const [{ action, props }] = (await fakeState(page)).actions;
    expect(action).toMatchObject({ type: 'threeDS2' });
    expect(props).toEqual({ challengeWindowSize: '05' });
    expect(await page.locator('#card-action').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-action');
    expect(await text(page, '#pay-status')).toBe('Confirm the payment with your bank…');
    expect(await axeViolations(page)).toEqual([]);
    const threeDSResult = m.adyen.standIn.threeDSResult(action.authorisationToken, 'Y');
    await Promise.all([page.waitForURL(`${store.url}/thanks**`), completeAction(page, { threeDSResult })]);
    expect(posts.map((p) => p.url.replace(/\?.*/, ''))).toEqual([
      `/api/v2/checkout/${checkout.checkout_id}/payments`,
      `/api/v2/checkout/${checkout.checkout_id}/payments/details`,
    ]);
    expect(JSON.parse(posts[1].body)).toEqual({ details: { threeDSResult } });
    const orderId = new URL(page.url()).searchParams.get('order_id')!;
    expect((await m.live.get<OrderResource>(`/api/v2/orders/${orderId}`)).body).toMatchObject({
      status: 'completed',
      amount: 1700,
    });
    expect(problems).toEqual([]);
  });

  test('3-D Secure by redirect: the page sends return_url, and back from the issuer with redirectResult it finishes the payment', async () => {
    const checkout = await liveCheckout(MUG);
    const { page, posts } = await open(pagePath(checkout.checkout_url));
    await enterCard(page, 'card', '4917610000000000');
    await page.click('#pay-button');
    await page.locator('#fake-action').waitFor();
    expect((await fakeState(page)).actions[0].action).toMatchObject({ type: 'redirect' });
    const returnUrl = JSON.parse(posts[0].body).return_url as string;
    const psp = [...m.adyen.standIn.payments.values()].find(
      (p) => p.pending?.type === 'redirect' && p.amountRequested.value === 1700,
    )!.pspReference;
    const back = new URL(returnUrl);
    back.searchParams.set('redirectResult', m.adyen.standIn.redirectResult(psp));
    await Promise.all([page.waitForURL(`${store.url}/thanks**`), page.goto(back.toString())]);
    expect(posts.at(-1)!.url).toBe(
      `/api/v2/checkout/${checkout.checkout_id}/payments/details?token=${new URL(checkout.checkout_url).searchParams.get('token')}`,
    );
    expect(new URL(page.url()).searchParams.get('order_id')).toMatch(/^ord_/);
  });

  test('a decline shows in place with the way back to the store; an incomplete card is named (axe: 0 violations on both)', async () => {
    const checkout = await liveCheckout(MUG);
    const { page } = await open(pagePath(checkout.checkout_url), { bypassCSP: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.click('#pay-button');
    expect(await text(page, '#card-error')).toBe(
      'Complete the card number, expiry date and security code of this card.',
    );
    expect((await fakeState(page)).validations).toEqual(['card']);
    expect(await axeViolations(page)).toEqual([]);
    await enterCard(page, 'card', '4000000000000002');
    await page.click('#pay-button');
    await page.locator('#try-another-card').waitFor();
    expect(await text(page, '#form-error')).toContain('Refused');
    expect(await page.locator('#form-error a[href^="http://127.0.0.1"]').getAttribute('href')).toBe(
      `${store.url}/cart?checkout_id=${checkout.checkout_id}`,
    );
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('the live-mode payment-link page', () => {
  test("takes cards in Adyen Web, finishes 3-D Secure through the link's own details route, and marks the link paid", async () => {
    const created = await m.live.post<{ id: string; url: string }>('/api/v2/payment-links', {
      products: [{ merchant_product_id: 'mug', quantity: 1 }],
      currency: 'USD',
      customer: { email: 'pat@example.com', first_name: 'Pat', last_name: 'Lee' },
      collect_shipping_address: false,
      success_url: `${store.url}/thanks`,
      cancel_url: `${store.url}/cart`,
    });
    expect(created.status).toBe(201);
    const { page, posts, problems, headers } = await open(`${pagePath(created.body.url)}?client_reference_id=ref-42`);
    expect((await fakeState(page)).checkout).toMatchObject({
      clientKey: 'test_CLIENTKEY1234567890',
      amount: { value: 1700, currency: 'USD' },
    });
    expect(headers['content-security-policy']).toContain('https://checkoutshopper-test.adyen.com');
    await enterCard(page, 'card', '4212345678901237');
    await page.click('#pay-button');
    await page.locator('#fake-action').waitFor();
    const [{ action }] = (await fakeState(page)).actions;
    const threeDSResult = m.adyen.standIn.threeDSResult(action.authorisationToken, 'Y');
    await Promise.all([page.waitForURL(`${store.url}/thanks**`), completeAction(page, { threeDSResult })]);
    expect(posts.map((p) => p.url)).toEqual([
      `/pay/${created.body.id}/pay?client_reference_id=ref-42`,
      `/pay/${created.body.id}/pay/details`,
    ]);
    expect(JSON.parse(posts[0].body).card).toEqual(adyenCard('4212345678901237'));
    const link = await m.live.get<{ status: string; order: { id: string; client_reference_id: string } }>(
      `/api/v2/payment-links/${created.body.id}`,
    );
    expect(link.body).toMatchObject({
      status: 'paid',
      order: { id: new URL(page.url()).searchParams.get('order_id') },
    });
    const order = (
      await m.live.get<OrderResource & { client_reference_id: string }>(`/api/v2/orders/${link.body.order.id}`)
    ).body;
    expect(order.client_reference_id).toBe('ref-42');
    expect(problems).toEqual([]);
  });
});

describe('the pay routes authorised by the page token', () => {
  test("a wrong token, or another checkout's token, is 404 not_found; no token and no key is 401; the merchant's key still works", async () => {
    const anon = client(m.t.url);
    const a = await liveCheckout(MUG);
    const b = await liveCheckout(MUG);
    const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
    const body = { card: adyenCard('4111111111111111') };
    const wrong = await anon.post(`/api/v2/checkout/${a.checkout_id}/payments?token=${'x'.repeat(32)}`, body);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual({ error: expect.objectContaining({ code: 'not_found', param: 'checkout_id' }) });
    expect(
      (await anon.post(`/api/v2/checkout/${a.checkout_id}/payments?token=${tokenOf(b.checkout_url)}`, body)).status,
    ).toBe(404);
    expect(
      (await anon.post(`/api/v2/checkout/${a.checkout_id}/payments/details?token=nope`, { details: {} })).status,
    ).toBe(404);
    expect((await anon.post(`/api/v2/checkout/${a.checkout_id}/payments`, body)).status).toBe(401);
    expect((await anon.get(`/api/v2/checkout/${a.checkout_id}?token=${tokenOf(a.checkout_url)}`)).status).toBe(401);
    const paid = await anon.post<OrderResource>(
      `/api/v2/checkout/${a.checkout_id}/payments?token=${tokenOf(a.checkout_url)}`,
      body,
    );
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ checkout_id: a.checkout_id, status: 'completed' });
    expect((await m.live.post(`/api/v2/checkout/${b.checkout_id}/payments`, body)).status).toBe(200);
  });

  test("a page token is limited to 10 payment attempts a minute per network, with the page's message", async () => {
    const anon = client(m.t.url);
    const c = await liveCheckout(MUG);
    const url = `/api/v2/checkout/${c.checkout_id}/payments?token=${new URL(c.checkout_url).searchParams.get('token')}`;
    for (let i = 0; i < 10; i++) expect((await anon.post(url, {})).status).toBe(422);
    const limited = await anon.post(url, {});
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toMatch(
      /^Too many payment attempts for this checkout from your network \(at most 10 a minute\)/,
    );
    expect((await m.live.post(url.replace(/\?.*/, ''), {})).status).toBe(422); // the merchant's key has its own limit
  });

  test("a payment link's checkout is not paid (nor its 3-D Secure finished) through the checkout routes", async () => {
    const created = await m.live.post<{ id: string }>('/api/v2/payment-links', {
      amount: 1500,
      description: 'Consultation',
      currency: 'USD',
    });
    const { checkoutId } = await m.t.orm.em.fork().findOneOrFail(PaymentLink, created.body.id);
    for (const path of ['payments', 'payments/details']) {
      const res = await m.live.post(
        `/api/v2/checkout/${checkoutId}/${path}`,
        path === 'payments' ? { card: adyenCard('4111111111111111') } : { details: { threeDSResult: 'x' } },
      );
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(`belongs to payment link ${created.body.id}`);
    }
  });
});

describe('Content Security Policy', () => {
  test("live pages allow Adyen Web's origins; test pages stay self-only; no page runs anything inline", async () => {
    const live = await liveCheckout(MUG);
    const livePage = await fetch(live.checkout_url.replace(/^https?:\/\/[^/]+/, m.t.url));
    const liveCsp = livePage.headers.get('content-security-policy')!;
    // Nothing inline: the configuration is a JSON block, which no CSP runs.
    const liveHtml = await livePage.text();
    expect(liveHtml).toContain('<script type="application/json" id="card-entry-config">');
    expect(inlineCode(liveHtml)).toEqual([]);
    const directives = Object.fromEntries(
      liveCsp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    );
    expect(directives).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': 'https: http: data:',
      'connect-src':
        "'self' https://checkoutshopper-test.adyen.com https://checkoutshopper-test.cdn.adyen.com https://checkoutanalytics-test.adyen.com",
      'frame-src': 'https://checkoutshopper-test.adyen.com https:',
      'form-action': "'self' https:",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
    });
    const test = await openCheckout(client(m.t.url, m.keys.test_api_key), MUG);
    const testCsp = (await fetch(test.checkout_url.replace(/^https?:\/\/[^/]+/, m.t.url))).headers.get(
      'content-security-policy',
    )!;
    expect(testCsp).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src https: http: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(testCsp).not.toContain('adyen');
  });

  test("the real Adyen Web bundle boots under the live page's CSP: its secured fields are Adyen's iframes, no card input of ours", async () => {
    const checkout = await liveCheckout(MUG);
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) blocked.push(msg.text());
    });
    // Offline: Adyen's origins answer nothing (what they would serve cannot be had here).
    await page.route(/adyen\.com/, (route) => route.abort());
    await page.goto(`${m.t.url}${pagePath(checkout.checkout_url)}`);
    const frame = page.locator('#card-adyen iframe').first();
    await frame.waitFor({ state: 'attached' });
    expect(await frame.getAttribute('src')).toMatch(
      /^https:\/\/checkoutshopper-test\.adyen\.com\/checkoutshopper\/securedfields\/test_CLIENTKEY1234567890\//,
    );
    expect(await page.locator('#card-adyen input[autocomplete^="cc-"]').count()).toBe(0);
    expect(blocked).toEqual([]);
  });

  test("Adyen Web's own bundle and stylesheet are served from our origin", async () => {
    const js = await fetch(`${m.t.url}/card-entry/adyen-web.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect(await js.text()).toContain('checkoutshopper-live-us.adyen.com');
    expect((await fetch(`${m.t.url}/card-entry/adyen-web.css`)).status).toBe(200);
    expect((await fetch(`${m.t.url}/card-entry/card-entry.js`)).status).toBe(200);
    expect((await fetch(`${m.t.url}/card-entry/other.js`)).status).toBe(404);
  });
});

describe("with Adyen Web's real bundle, Adyen's hosts played locally", () => {
  /** Opens `url` with Adyen Web's own bundle; Adyen's hosts are played (or offline); what the page posted to our origin. */
  async function openReal(url: string, opts: { offline?: boolean } = {}) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const { requests } = await playAdyenHosts(page, opts);
    const posts: { url: string; body: string }[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().startsWith(m.t.url))
        posts.push({ url: pagePath(req.url()), body: req.postData() ?? '' });
    });
    await page.goto(`${m.t.url}${pagePath(url)}`);
    return { page, requests, posts };
  }

  test("the page's token reaches no Adyen host (address, Referer or body), while the page pays with it", async () => {
    const checkout = await liveCheckout(MUG);
    const token = new URL(checkout.checkout_url).searchParams.get('token')!;
    const { page, requests, posts } = await openReal(checkout.checkout_url);
    await typeCard(page, 'card-adyen', { number: '4111111111111111' });
    await page.click('#pay-button');
    await page.waitForURL(`${store.url}/thanks**`);
    expect(posts.map((p) => p.url)).toEqual([`/api/v2/checkout/${checkout.checkout_id}/payments?token=${token}`]);
    expect(requests.some((r) => r.url.startsWith('https://checkoutanalytics-test.adyen.com/'))).toBe(true); // Adyen Web did call Adyen…
    expect(requests.some((r) => r.url.includes('/securedFields.html'))).toBe(true);
    expect(requests.filter((r) => [r.url, r.referer ?? '', r.body].some((s) => s.includes(token)))).toEqual([]); // …never with the token
  });

  test('reloaded after it took its token out of the address bar, the page opens again', async () => {
    const checkout = await liveCheckout(MUG);
    const { page } = await openReal(checkout.checkout_url);
    await securedField(page, 'card-adyen', 'encryptedCardNumber');
    expect(page.url()).toBe(`${m.t.url}/checkout/${checkout.checkout_id}`);
    await page.reload();
    await securedField(page, 'card-adyen', 'encryptedCardNumber');
    expect(await text(page, 'h1')).toBe('Review and pay');
    expect(page.url()).toBe(`${m.t.url}/checkout/${checkout.checkout_id}`);
  });

  test('"Try another card" empties the declined card from Adyen Web\'s fields and puts the cursor in its card number; Pay then sends the new card', async () => {
    const checkout = await liveCheckout(MUG);
    const { page, posts } = await openReal(checkout.checkout_url);
    await typeCard(page, 'card-adyen', { number: '4000000000000002' });
    await page.click('#pay-button');
    await page.locator('#try-another-card').click();
    const number = await securedField(page, 'card-adyen', 'encryptedCardNumber');
    await number.waitForFunction(() => document.hasFocus() && document.activeElement?.id === 'field');
    for (const field of ['encryptedCardNumber', 'encryptedExpiryDate', 'encryptedSecurityCode'] as const) {
      expect(await (await securedField(page, 'card-adyen', field)).locator('input').inputValue()).toBe('');
    }
    await page.keyboard.type('4111111111111111');
    await (await securedField(page, 'card-adyen', 'encryptedExpiryDate')).locator('input').fill('03/30');
    await (await securedField(page, 'card-adyen', 'encryptedSecurityCode')).locator('input').fill('737');
    await page.click('#pay-button');
    await page.waitForURL(`${store.url}/thanks**`);
    expect(
      posts.map(
        (p) =>
          (JSON.parse(p.body) as { card: { payment_method_data: { encryptedCardNumber: string } } }).card
            .payment_method_data.encryptedCardNumber,
      ),
    ).toEqual(['test_4000000000000002', 'test_4111111111111111']);
  });

  test('with Adyen unreachable, the page says once that the card form could not load', async () => {
    const checkout = await liveCheckout(SPLIT);
    const context = await browser.newContext();
    contexts.push(context);
    // Counts each time the page writes the sentence: once per card component Adyen Web could not load.
    await context.addInitScript(() => {
      const w = window as unknown as { cardFormFailures: number };
      w.cardFormFailures = 0;
      new MutationObserver((records) => {
        for (const r of records)
          if ((r.target as Element).closest?.('#form-error'))
            for (const n of Array.from(r.addedNodes))
              if (n.textContent?.includes('The card form could not load')) w.cardFormFailures++;
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    await playAdyenHosts(page, { offline: true });
    // Adyen Web gives up on a card's secured fields after 30 s of the page's clock: the page's clock runs ahead.
    await page.clock.install();
    await page.goto(`${m.t.url}${pagePath(checkout.checkout_url)}`);
    const failures = () => page.evaluate(() => (window as unknown as { cardFormFailures: number }).cardFormFailures);
    for (let second = 0; second < 120 && (await failures()) < 2; second++) await page.clock.runFor(1000);
    expect(await failures()).toBe(2);
    expect((await text(page, '#form-error')).split('The card form could not load').length - 1).toBe(1);
  });
});
