/// <reference lib="dom" />
/** The merchant dashboard in a real headless browser (Debian Chromium via playwright-core). */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import type { CheckoutResource } from '../../src/modules/checkout/checkout.resource.js';
import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import { address, checkoutBody, cards, createProducts } from '../helpers/fixtures.js';
import { client, type Envelope, type Page as ListPage } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';

let t: TestApp; // the service the page is open on (restarted on the same port)
let other: TestApp; // a second API process on the same database: it takes requests while `t` is down
let keys: CreatedMerchant;
let browser: Browser;
let receiver: Receiver;
let context: BrowserContext;
let page: Page;
const cspProblems: string[] = [];

const api = () => client(t.url, keys.test_api_key);

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  other = await startTestApp();
  keys = await t.merchant('Dashboard Pharmacy');
  for (const [ref, name, price] of [
    ['THERM', 'Digital thermometer', 2499],
    ['CANDY', 'Chocolate candy bar', 399],
    ['BAND', 'Adhesive bandages', 599],
  ] as const) {
    expect((await api().post('/api/v2/products', { name, price, currency: 'USD', merchant_product_id: ref })).status).toBe(201);
  }
  receiver = await startReceiver(() => 500);
  expect((await api().post('/api/v2/webhook-endpoints', { url: `${receiver.url}/hooks`, events: ['order.completed'], description: 'fulfilment' })).status).toBe(201);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  page = await context.newPage();
  watchCsp(page);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await other?.close();
  await t?.close();
});

/** Records what a page reports of the Content Security Policy (and its errors) into `cspProblems`. */
function watchCsp(p: Page) {
  p.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspProblems.push(m.text());
  });
  p.on('pageerror', (err) => cspProblems.push(`page error: ${err.message}`));
}

/** Pays a new checkout of `items` through `via` (split on the HSA/FSA and the regular card); the order's id. */
async function payCheckout(via: TestApp, items: [string, string, number, number][], apiKey = keys.test_api_key): Promise<string> {
  const http = client(via.url, apiKey);
  const created = await http.post<Envelope<CheckoutResource>>('/api/v2/checkout', checkoutBody(items));
  expect(created.status).toBe(201);
  const paid = await http.post<OrderResource>(`/api/v2/test-helpers/checkout/${created.body.data.checkout_id}/pay`, { hsa_fsa_card: cards.hsa, card: cards.visa });
  expect(paid.status).toBe(200);
  return paid.body.id;
}

const eventIds = async () => (await t.orm.em.getConnection().execute<{ id: string }[]>('select id from events where merchant_id = ?', [keys.id])).map((r) => r.id);

test('sign in with the keyboard; test mode is marked; a paid order appears within a second without a reload', async () => {
  const res = await page.goto(`${t.url}/dashboard`);
  const csp = res!.headers()['content-security-policy'];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(await page.locator('script:not([src])').count()).toBe(0);

  await page.getByLabel('API key').focus();
  await page.keyboard.type('not-a-key');
  await page.keyboard.press('Enter');
  await expect(page.locator('#api-key-error').textContent()).resolves.toMatch(/starting with glm_test_/);
  await page.getByLabel('API key').fill(keys.test_api_key);
  await page.keyboard.press('Enter');
  await page.locator('#mode-banner.test').waitFor();
  expect(await page.locator('#mode-banner').textContent()).toMatch(/TEST MODE/);
  await page.waitForFunction(() => document.body.dataset.connection === 'live');
  // The key lives only in this tab: not in the URL, not in a cookie, not in localStorage.
  expect(page.url()).toBe(`${t.url}/dashboard`);
  expect(await context.cookies()).toEqual([]);
  expect(await page.evaluate(() => [sessionStorage.getItem('dashboard.apiKey'), localStorage.length])).toEqual([keys.test_api_key, 0]);

  await page.evaluate(() => ((window as typeof window & { sameDocument?: boolean }).sameDocument = true));
  const orderId = await payCheckout(t, [
    ['THERM', 'Digital thermometer', 2499, 1],
    ['CANDY', 'Chocolate candy bar', 399, 2],
  ]);
  const paidAt = Date.now();
  const row = page.locator(`tr[data-order-id="${orderId}"]`);
  await row.waitFor({ timeout: 1000 });
  expect(Date.now() - paidAt).toBeLessThan(1000);
  expect(await page.evaluate(() => (window as typeof window & { sameDocument?: boolean }).sameDocument)).toBe(true); // no reload
  const cells = await row.locator('td').allTextContents();
  expect(cells.slice(2, 5)).toEqual(['$32.97', '$24.99', '$7.98']); // total, HSA/FSA, regular

  // Click-through (by keyboard) to the details and the receipt.
  await row.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await page.locator('#order-detail:not([hidden])').waitFor();
  expect(await page.locator('#order-detail-body').textContent()).toContain('Digital thermometer');
  const receipt = await page.locator('#receipt-link').getAttribute('href');
  expect((await fetch(receipt!)).headers.get('content-type')).toBe('application/pdf');
  expect(await page.locator('#orders-empty').isHidden()).toBe(true);
  // The chart refetches its days after the live event: wait for it rather than race it.
  await page.waitForFunction(() => /HSA\/FSA \$24\.99, regular \$7\.98/.test(document.querySelector('#revenue-summary')?.textContent ?? ''), undefined, { timeout: 5000 });
  expect(await page.locator('#revenue-summary').textContent()).toMatch(/HSA\/FSA \$24\.99, regular \$7\.98/);
}, 60_000);

test('the service restarts while the page is open: every event caused while it was down shows up once after the reconnect', async () => {
  const before = new Set(await eventIds());
  const shownBefore = await page.locator('#activity li').count();
  const port = Number(new URL(t.url).port);
  await t.close();
  await page.waitForFunction(() => document.body.dataset.connection === 'reconnecting');

  // Meanwhile the other API process takes requests: products, and a paid order.
  for (const name of ['Ice pack', 'Elastic bandage', 'Sunscreen SPF 50'])
    expect((await client(other.url, keys.test_api_key).post('/api/v2/products', { name, price: 500, currency: 'USD' })).status).toBe(201);
  const orderWhileDown = await payCheckout(other, [['BAND', 'Adhesive bandages', 599, 1]]);
  t = await startTestApp({}, { port });
  const caused = (await eventIds()).filter((id) => !before.has(id));
  expect(caused.length).toBeGreaterThanOrEqual(6);

  await page.waitForFunction(() => document.body.dataset.connection === 'live', undefined, { timeout: 20_000 });
  await page.waitForFunction((n) => document.querySelectorAll('#activity li').length >= n, shownBefore + caused.length, { timeout: 10_000 });
  await new Promise((r) => setTimeout(r, 500));
  const shown = await page.locator('#activity li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-event-id')));
  for (const id of caused) expect(shown.filter((s) => s === id)).toHaveLength(1);
  expect(new Set(shown).size).toBe(shown.length); // nothing twice
  expect(shown).toHaveLength(shownBefore + caused.length);
  await page.locator(`tr[data-order-id="${orderWhileDown}"]`).waitFor({ timeout: 5000 });
}, 90_000);

test('a failed webhook delivery is replayed from the page', async () => {
  // A merchant, receiver and page of its own: this test moves its merchant's test clock through the whole retry schedule.
  const { keys: own, api: ownApi } = await newMerchant(t, 'Replay Pharmacy');
  const failing = await startReceiver(() => 500);
  const ownContext = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  try {
    await createProducts(ownApi, [['THERM', 'Digital thermometer', 2499]]);
    const hooks = { url: `${failing.url}/hooks`, events: ['order.completed'], description: 'fulfilment' };
    expect((await ownApi.post('/api/v2/webhook-endpoints', hooks)).status).toBe(201);
    const ownPage = await ownContext.newPage();
    watchCsp(ownPage);
    await ownPage.goto(`${t.url}/dashboard`);
    await ownPage.getByLabel('API key').fill(own.test_api_key);
    await ownPage.keyboard.press('Enter');
    await ownPage.waitForFunction(() => document.body.dataset.connection === 'live');
    await payCheckout(t, [['THERM', 'Digital thermometer', 2499, 1]], own.test_api_key);

    // Every attempt answers 500 until the schedule is exhausted: the deliveries fail (dead letters).
    for (const seconds of [1, 60, 300, 1800, 7200, 21600]) expect((await ownApi.post('/api/v2/test-helpers/advance-clock', { seconds })).status).toBe(200);
    const list = await ownApi.get<ListPage<{ id: string }>>(`/api/v2/webhook-endpoints`);
    const deliveries = await ownApi.get<ListPage<{ id: string; status: string }>>(`/api/v2/webhook-endpoints/${list.body.data[0].id}/deliveries`);
    const failed = deliveries.body.data.find((d) => d.status === 'failed')!;
    expect(failed).toBeDefined();
    failing.respondWith(() => 200);
    const received = failing.received.length;

    // Any event refreshes the panel; the failed delivery is listed with its attempts and last response.
    expect((await ownApi.post('/api/v2/products', { name: 'Cold pack', price: 300, currency: 'USD' })).status).toBe(201);
    const row = ownPage.locator(`tr[data-delivery-id="${failed.id}"]`);
    await ownPage.locator(`tr[data-delivery-id="${failed.id}"][data-status="failed"]`).waitFor({ timeout: 10_000 });
    expect(await row.locator('td').allTextContents()).toEqual(['order.completed', 'failed', '6', 'HTTP 500', expect.any(String), 'Replay']);
    await row.getByRole('button', { name: /Replay order.completed delivery/ }).focus();
    await ownPage.keyboard.press('Enter');
    const queued = `Delivery ${failed.id} queued to be sent again now (pending).`;
    await ownPage.waitForFunction((text) => document.getElementById('webhooks-status')!.textContent === text, queued);
    expect((await ownApi.post('/api/v2/test-helpers/advance-clock', { seconds: 1 })).status).toBe(200); // the delivery worker runs
    await ownPage.locator(`tr[data-delivery-id="${failed.id}"][data-status="succeeded"]`).waitFor({ timeout: 10_000 });
    expect(await row.locator('td').allTextContents()).toEqual(['order.completed', 'succeeded', '7', 'HTTP 200', expect.any(String), '']);
    expect(failing.received.length).toBe(received + 1);
  } finally {
    await ownContext.close();
    await failing.close();
  }
}, 90_000);

test('payment links are listed with their status, updated live when one is paid', async () => {
  await page.locator('#payment-links-panel:not([hidden])').waitFor();
  const created = await api().post('/api/v2/payment-links', {
    products: [{ merchant_product_id: 'THERM', quantity: 1 }],
    currency: 'USD',
    customer: { email: 'jane@example.com', first_name: 'Jane', last_name: 'Doe' },
    description: 'Thermometer refill',
    success_url: 'https://shop.example.com/thanks',
    cancel_url: 'https://shop.example.com/cart',
  });
  expect(created.status).toBe(201);
  // Creating a link records no event of its own; paying it does (payment_link.paid), and the panel follows live.
  const paid = await api().post(`/api/v2/test-helpers/payment-links/${created.body.id}/pay`, { hsa_fsa_card: cards.hsa, shipping_address: address });
  expect(paid.status).toBe(200);
  const item = page.locator('#payment-links li', { hasText: 'Thermometer refill' });
  await item.waitFor({ timeout: 5000 });
  expect(await item.textContent()).toMatch(/^paid Thermometer refill · \$24\.99/);
  expect(await item.getByRole('link', { name: 'open link' }).getAttribute('href')).toBe(created.body.url);
}, 30_000);

test('README screenshot; usable on a phone; no CSP violation anywhere', async () => {
  await page.locator('#order-detail-close').click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await new Promise((r) => setTimeout(r, 300));
  // The README's picture; rewritten only on request so that test runs leave the checkout clean.
  const shot = await page.screenshot({ path: process.env.UPDATE_SCREENSHOT ? 'docs/dashboard.png' : undefined, fullPage: true });
  expect(shot.subarray(1, 4).toString()).toBe('PNG');

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const p = await phone.newPage();
    await p.goto(`${t.url}/dashboard`);
    await p.getByLabel('API key').fill(keys.test_api_key);
    await p.getByRole('button', { name: 'Sign in' }).tap();
    await p.locator('#orders tbody tr').first().waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await p.locator('#orders-title').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
  } finally {
    await phone.close();
  }
  expect(cspProblems).toEqual([]);
}, 60_000);
