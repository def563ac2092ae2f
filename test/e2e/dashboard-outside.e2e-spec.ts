/// <reference lib="dom" />
/**
 * The merchant dashboard as a shared counter sees it (Chromium via playwright-core): nothing of
 * the merchant's is rendered before sign-in or after sign-out.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let key: string;
let api: ReturnType<typeof client>;
let browser: Browser;
let orderNumber: string;
const CUSTOMER = 'Quintessa Privatename';

beforeAll(async () => {
  let keys;
  ({ t, keys, api } = await startWithMerchant('Shared Counter Pharmacy'));
  key = keys.test_api_key;
  expect((await api.post('/api/v2/products', { name: 'Digital thermometer', price: 2499, currency: 'USD', merchant_product_id: 'THERM' })).status).toBe(201);
  const session = (await api.post('/api/v2/checkout', checkoutBody([['THERM', 'Digital thermometer', 2499, 1], ['CANDY', 'Candy', 399, 1]], { customer: { email: 'q@example.com', first_name: 'Quintessa', last_name: 'Privatename' } }))).body.data;
  const order = (await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, { hsa_fsa_card: cards.hsa, card: cards.visa })).body;
  orderNumber = order.order_number;
  expect((await api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks', events: ['order.completed'] })).status).toBe(201);
  // Enough activity for the live list to scroll (it shows the last 20 events).
  for (let i = 0; i < 20; i++) expect((await api.post('/api/v2/products', { name: `Bandage pack ${i}`, price: 500, currency: 'USD' })).status).toBe(201);
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function open(viewport = { width: 1280, height: 900 }, opts: { bypassCSP?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport, ...opts });
  const page = await context.newPage();
  await page.goto(`${t.url}/dashboard`);
  return page;
}

async function signIn(page: Page): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.connection === 'live');
  await page.locator(`#orders tbody tr`).first().waitFor();
  await page.waitForFunction(() => (document.getElementById('revenue-summary')?.textContent ?? '').length > 0);
}

/** What a person sees: the rendered text (`innerText` leaves out what is not displayed) and the visible panels. */
const rendered = (page: Page) => page.evaluate(() => document.body.innerText);
const visiblePanels = (page: Page) =>
  page.evaluate(() => Array.from(document.querySelectorAll("#app section, #app canvas, #orders")).filter((el) => (el as HTMLElement).getClientRects().length > 0).map((el) => el.id || el.tagName));

test('before sign-in and after sign-out nothing of the merchant is rendered, and the status says signed out', async () => {
  const page = await open();
  expect(await visiblePanels(page)).toEqual([]); // the empty panels are not shown before sign-in
  expect(await rendered(page)).not.toMatch(/Revenue|Recent orders|Live activity|Webhook endpoints/);

  await signIn(page);
  const before = await rendered(page);
  expect(before).toContain(orderNumber);
  expect(before).toContain(CUSTOMER);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForTimeout(1500); // the live connection's close has come and gone
  const after = await rendered(page);
  for (const secret of [orderNumber, CUSTOMER, '$24.99', 'Revenue', 'order.completed', '127.0.0.1:9']) expect(after).not.toContain(secret);
  expect(await visiblePanels(page)).toEqual([]);
  expect(await page.locator('#revenue-chart').isVisible()).toBe(false);
  // Not merely hidden: the merchant's data is gone from the document too.
  expect(await page.evaluate(() => document.body.textContent)).not.toContain(orderNumber);
  expect(await page.locator('#connection').textContent()).toBe('Signed out');
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  await page.context().close();
});
