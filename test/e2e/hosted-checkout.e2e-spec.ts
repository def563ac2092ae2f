/** The hosted checkout page in a real headless browser (Debian Chromium via playwright-core). */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startStore, type StoreServer } from '../helpers/browser.js';
import { checkoutBody, cards } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;
let browser: Browser;
let store: StoreServer;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  api = client(t.url, (await t.merchant()).test_api_key);
  for (const [ref, name, price] of [
    ['THERM', 'Digital thermometer', 2000],
    ['CANDY', 'Chocolate candy bar', 1000],
    ['VIT', 'Daily multivitamin', 1299],
  ] as const) {
    expect(
      (await api.post('/api/v2/products', { name, price, currency: 'USD', merchant_product_id: ref })).status,
    ).toBe(201);
  }
  store = await startStore();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await store?.close();
  await t?.close();
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
});

type Card = { number: string; exp_month: number; exp_year: number; cvc: string };
const SPLIT: [string, string, number, number][] = [
  ['THERM', 'Digital thermometer', 2000, 1],
  ['CANDY', 'Chocolate candy bar', 1000, 1],
];

/** Creates a checkout returning to the local store and opens its page; collects CSP violations and dialogs. */
async function openCheckout(items: [string, string, number, number][], viewport = { width: 1280, height: 900 }) {
  const res = await api.post(
    '/api/v2/checkout',
    checkoutBody(items, { success_url: `${store.url}/thanks`, failure_url: `${store.url}/cart` }),
  );
  expect(res.status).toBe(201);
  const session = res.body.data;
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  const link = new URL(session.checkout_url);
  const response = await page.goto(`${t.url}${link.pathname}${link.search}`);
  expect(response?.status()).toBe(200);
  return { page, session, problems };
}

async function fillCard(page: Page, slot: 'card' | 'hsa_fsa_card', card: Card) {
  await page.fill(`#${slot}-number`, card.number.replace(/(\d{4})(?=\d)/g, '$1 '));
  await page.fill(`#${slot}-exp_month`, String(card.exp_month));
  await page.fill(`#${slot}-exp_year`, String(card.exp_year));
  await page.fill(`#${slot}-cvc`, card.cvc);
}

const text = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();
const activeId = (page: Page) => page.evaluate('document.activeElement && document.activeElement.id');

test('split checkout paid with the HSA/FSA card and a regular card redirects to success_url; the order exists', async () => {
  const { page, session, problems } = await openCheckout(SPLIT);
  expect(await page.locator('#hsa_fsa_card').isVisible()).toBe(true);
  expect(await page.locator('#card').isVisible()).toBe(true);
  expect(await text(page, '#split')).toContain('$20.00');
  await fillCard(page, 'hsa_fsa_card', cards.hsa);
  await fillCard(page, 'card', cards.visa);
  // Hold the pay call so the busy state can be seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/pay?token=*', async (route) => {
    await held;
    await route.continue();
  });
  await page.click('#pay-button');
  await page.locator('#pay-button[disabled]').waitFor();
  expect(await text(page, '#pay-button')).toBe('Processing payment…');
  expect(await page.getAttribute('#pay-form', 'aria-busy')).toBe('true');
  release();
  await page.waitForURL(`${store.url}/thanks?*`);
  const landed = new URL(page.url());
  expect(landed.searchParams.get('checkout_id')).toBe(session.checkout_id);
  const orderId = landed.searchParams.get('order_id')!;
  expect(store.visits).toContain(`/thanks?checkout_id=${session.checkout_id}&order_id=${orderId}`);
  const order = await api.get(`/api/v2/orders/${orderId}`);
  expect(order.status).toBe(200);
  expect(order.body).toMatchObject({
    status: 'completed',
    payment_status: 'captured',
    checkout_id: session.checkout_id,
    amount: 3000,
  });
  expect(
    order.body.payments.map((p: { payment_method: string; amount: number }) => [p.payment_method, p.amount]),
  ).toEqual([
    ['hsa_fsa_card', 2000],
    ['card', 1000],
  ]);
  expect(problems).toEqual([]);
});

test('a declined regular card shows the error in place with a way back; nothing is paid', async () => {
  const { page, session, problems } = await openCheckout(SPLIT);
  await fillCard(page, 'hsa_fsa_card', cards.hsa);
  await fillCard(page, 'card', cards.declined);
  await page.click('#pay-button');
  await page.locator('#card-error', { hasText: 'declined' }).waitFor();
  expect(await text(page, '#form-error')).toContain('The card was declined.');
  const back = page.locator('#form-error a');
  expect(await back.textContent()).toBe('Cancel and return to the store');
  expect(await back.getAttribute('href')).toBe(`${store.url}/cart?checkout_id=${session.checkout_id}`);
  expect(await activeId(page)).toBe('form-error');
  // No auto-redirect: the customer stays to fix the card; the button works again.
  expect(page.url()).toContain(`/checkout/${session.checkout_id}?token=`);
  expect(await page.locator('#pay-button').isEnabled()).toBe(true);
  expect(await page.locator('a.cancel').getAttribute('href')).toBe(
    `${store.url}/cart?checkout_id=${session.checkout_id}`,
  );
  const status = await api.get(`/api/v2/checkout/${session.checkout_id}`);
  expect(status.body.data).toMatchObject({ status: 'open', order_id: null });
  const paid = await t.orm.em
    .fork()
    .getConnection()
    .execute(`select count(*)::int as n from orders where checkout_id = ? and status <> 'failed'`, [
      session.checkout_id,
    ]);
  expect(paid[0].n).toBe(0);
  expect(store.visits.filter((v) => v.includes(session.checkout_id))).toEqual([]);
  expect(problems).toEqual([]);
});

test('a Luhn-invalid number shows the error next to the field; fixing it pays', async () => {
  const { page, session, problems } = await openCheckout(SPLIT);
  await fillCard(page, 'hsa_fsa_card', cards.hsa);
  await fillCard(page, 'card', { ...cards.visa, number: '4242424242424241' });
  await page.click('#pay-button');
  await page.locator('#card-number-error', { hasText: 'Luhn' }).waitFor();
  expect(await text(page, '#card-number-error')).toBe('Card number is not a valid card number (Luhn check failed)');
  expect(await page.getAttribute('#card-number', 'aria-invalid')).toBe('true');
  expect(await page.getAttribute('#card-number', 'aria-describedby')).toContain('card-number-error');
  expect(await page.getAttribute('#hsa_fsa_card-number', 'aria-invalid')).toBeNull();
  expect(await activeId(page)).toBe('card-number');
  // The summary says what to fix (a link to the field), never just "the highlighted field".
  expect(await text(page, '#form-error p')).toBe('Please fix this field:');
  expect(await text(page, '#form-error li a')).toBe('Card number is not a valid card number (Luhn check failed)');
  expect(await page.getAttribute('#form-error li a', 'href')).toBe('#card-number');

  await page.fill('#card-number', cards.visa.number);
  await page.click('#pay-button');
  await page.waitForURL(`${store.url}/thanks?*`);
  expect(new URL(page.url()).searchParams.get('checkout_id')).toBe(session.checkout_id);
  expect(problems).toEqual([]);
});

test('one regular card may pay everything instead of the HSA/FSA split', async () => {
  const { page, problems } = await openCheckout(SPLIT);
  await page.check('#method-card');
  expect(await page.locator('#hsa_fsa_card').isVisible()).toBe(false);
  expect(await text(page, '#card-amount')).toBe('pays $30.00');
  await fillCard(page, 'card', cards.mastercard);
  await page.click('#pay-button');
  await page.waitForURL(`${store.url}/thanks?*`);
  const order = await api.get(`/api/v2/orders/${new URL(page.url()).searchParams.get('order_id')}`);
  expect(order.body.payments).toEqual([expect.objectContaining({ payment_method: 'card', amount: 3000 })]);
  expect(problems).toEqual([]);
});

test('an item needing a letter of medical necessity requires the questionnaire with the HSA/FSA card; the order waits for a clinician', async () => {
  const { page, problems } = await openCheckout([['VIT', 'Daily multivitamin', 1299, 1]]);
  expect(await page.locator('.badge-lmn').textContent()).toBe('Needs a letter of medical necessity');
  expect(await page.locator('#lmn').isVisible()).toBe(true);
  expect(await page.locator('#card').isVisible()).toBe(false);
  await fillCard(page, 'hsa_fsa_card', cards.hsa);
  await page.click('#pay-button');
  await page.locator('#lmn-condition-error', { hasText: 'required' }).waitFor();
  expect(await text(page, '#lmn-recommended_by_provider-error')).toBe(
    'A licensed provider must have recommended the items',
  );
  expect(await text(page, '#lmn-attestation-error')).toBe('The attestation must be accepted');
  expect(await page.getAttribute('#lmn-condition', 'aria-invalid')).toBe('true');

  await page.fill('#lmn-condition', 'Vitamin D deficiency');
  await page.check('#lmn-recommended_by_provider');
  await page.fill('#lmn-provider_name', 'Dr. Rivera');
  await page.check('#lmn-attestation');
  await page.click('#pay-button');
  await page.waitForURL(`${store.url}/thanks?*`);
  const order = await api.get(`/api/v2/orders/${new URL(page.url()).searchParams.get('order_id')}`);
  expect(order.body).toMatchObject({
    status: 'processing',
    payment_status: 'authorized',
    lmn_review: { status: 'pending' },
  });
  const review = await api.get(`/api/v2/lmn-reviews/${order.body.lmn_review.id}`);
  expect(review.body.answers).toMatchObject({ condition: 'Vitamin D deficiency', provider_name: 'Dr. Rivera' });
  expect(problems).toEqual([]);
});

test('a mobile viewport (375×667) has one column and no horizontal scrolling', async () => {
  const items: [string, string, number, number][] = [
    ...SPLIT,
    ['VIT', 'Daily multivitamin', 1299, 2],
    ['LONG', 'Extra-long-product-name-without-any-spaces-that-could-push-the-layout-sideways', 999, 1],
  ];
  const { page, problems } = await openCheckout(items, { width: 375, height: 667 });
  const widths = await page.evaluate<number[]>(
    '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
  );
  expect(widths[0]).toBeLessThanOrEqual(widths[1]);
  const summary = (await page.locator('section.summary').boundingBox())!;
  const payment = (await page.locator('section[aria-labelledby="pay-title"]').boundingBox())!;
  expect(payment.x).toBe(summary.x);
  expect(payment.y).toBeGreaterThan(summary.y + summary.height - 1);
  expect(summary.x + summary.width).toBeLessThanOrEqual(375);
  const button = (await page.locator('#pay-button').boundingBox())!;
  expect(button.height).toBeGreaterThanOrEqual(44);
  expect(problems).toEqual([]);
});

test('a line item named <script>alert(1)</script> is shown as text and never runs; the stylesheet and script of our origin run under the CSP', async () => {
  const { page, problems } = await openCheckout([['EVIL', '<script>alert(1)</script>', 100, 1]]);
  expect(await text(page, '.item-name')).toBe('<script>alert(1)</script>');
  expect(await page.evaluate('getComputedStyle(document.getElementById("pay-button")).backgroundColor')).toBe(
    'rgb(11, 87, 208)',
  );
  // The script ran: submitting an empty card form shows the server's field errors in place.
  await page.click('#pay-button');
  await page.locator('#card-number-error', { hasText: 'required' }).waitFor();
  expect(await text(page, '#card-number-error')).toBe('Card number is required');
  expect(problems).toEqual([]);
});

test('words a shopper meets: a regular card in the HSA/FSA field says what to do; the card is marked; the merchant is named', async () => {
  const { page, problems } = await openCheckout(SPLIT);
  expect(await text(page, '#merchant-name')).toBe('Test Merchant');
  expect(await page.title()).toContain('Test Merchant');
  await fillCard(page, 'hsa_fsa_card', cards.visa);
  await fillCard(page, 'card', cards.mastercard);
  await page.click('#pay-button');
  await page.locator('#hsa_fsa_card-error', { hasText: 'regular card' }).waitFor();
  const message = await text(page, '#hsa_fsa_card-error');
  expect(message).not.toMatch(/HSA\/FSA card is not an HSA\/FSA card/);
  expect(message).toContain('One regular card'); // the way forward
  // Something is highlighted: the HSA/FSA card's border is the error red, and the summary names it.
  expect(await page.evaluate('getComputedStyle(document.getElementById("hsa_fsa_card")).borderTopColor')).toBe(
    'rgb(179, 38, 30)',
  );
  expect(await text(page, '#form-error li a')).toBe(message);
  expect(await text(page, '#form-error')).not.toContain('highlighted');
  // Following the advice works.
  await page.check('#method-card');
  await page.click('#pay-button');
  await page.waitForURL(`${store.url}/thanks?*`);
  expect(problems).toEqual([]);
});

test('a declined card offers "Try another card": the card is emptied, the cursor is in its number, and another card pays', async () => {
  const { page, problems } = await openCheckout(SPLIT);
  await fillCard(page, 'hsa_fsa_card', cards.hsa);
  await fillCard(page, 'card', cards.declined);
  await page.click('#pay-button');
  const retry = page.getByRole('button', { name: 'Try another card' });
  await retry.waitFor();
  await page.keyboard.press('Tab'); // from the focused summary to its first control
  expect(await activeId(page)).toBe('try-another-card');
  await page.keyboard.press('Enter');
  expect(await activeId(page)).toBe('card-number');
  expect(await page.inputValue('#card-number')).toBe('');
  expect(await page.inputValue('#hsa_fsa_card-number')).not.toBe(''); // the card that was accepted stays
  expect(await text(page, '#form-error')).toBe('');
  await fillCard(page, 'card', cards.visa);
  await page.click('#pay-button');
  await page.waitForURL(`${store.url}/thanks?*`);
  expect(problems).toEqual([]);
});

test('too many payment attempts: the page says what is limited (this checkout from this network), not an API key', async () => {
  const { page, session, problems } = await openCheckout(SPLIT);
  const pay = new URL(session.checkout_url);
  for (let i = 0; i < 10; i++) {
    await fetch(`${t.url}/checkout/${session.checkout_id}/pay${pay.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
  }
  await fillCard(page, 'hsa_fsa_card', cards.hsa);
  await fillCard(page, 'card', cards.visa);
  await page.click('#pay-button');
  await page.locator('#form-error', { hasText: 'Too many' }).waitFor();
  const message = await text(page, '#form-error');
  expect(message).not.toMatch(/API key/i);
  expect(message).toMatch(/payment attempts for this checkout/);
  expect(message).toMatch(/Nothing was charged/);
  expect(problems).toEqual([]);
});
