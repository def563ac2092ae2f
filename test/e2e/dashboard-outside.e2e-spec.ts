/// <reference lib="dom" />
/**
 * The merchant dashboard as a shared counter and a phone see it (Chromium via playwright-core):
 * nothing of the merchant's is rendered before sign-in or after sign-out, the live activity list
 * is reachable by keyboard (axe-core), and the recent orders' money fits a phone's width.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';
import { PASSWORD, teamMember } from '../helpers/console.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let t: TestApp;
let ownerEmail: string;
let api: Client;
let browser: Browser;
let orderNumber: string;
const CUSTOMER = 'Quintessa Privatename';

beforeAll(async () => {
  let keys;
  ({ t, keys, api } = await startWithMerchant('Shared Counter Pharmacy'));
  ownerEmail = 'owner@counter.test';
  await teamMember(t, keys.id, ownerEmail, 'owner');
  expect(
    (
      await api.post('/api/v2/products', {
        name: 'Digital thermometer',
        price: 2499,
        currency: 'USD',
        merchant_product_id: 'THERM',
      })
    ).status,
  ).toBe(201);
  const session = (
    await api.post(
      '/api/v2/checkout',
      checkoutBody(
        [
          ['THERM', 'Digital thermometer', 2499, 1],
          ['CANDY', 'Candy', 399, 1],
        ],
        { customer: { email: 'q@example.com', first_name: 'Quintessa', last_name: 'Privatename' } },
      ),
    )
  ).body.data;
  const order = (
    await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, {
      hsa_fsa_card: cards.hsa,
      card: cards.visa,
    })
  ).body;
  orderNumber = order.order_number;
  expect(
    (await api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks', events: ['order.completed'] }))
      .status,
  ).toBe(201);
  // Enough activity for the live list to scroll (it shows the last 20 events).
  for (let i = 0; i < 20; i++)
    expect(
      (await api.post('/api/v2/products', { name: `Bandage pack ${i}`, price: 500, currency: 'USD' })).status,
    ).toBe(201);
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
  await page.getByLabel('Email', { exact: true }).fill(ownerEmail);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.connection === 'live');
  await page.locator(`#orders tbody tr`).first().waitFor();
  await page.waitForFunction(() => (document.getElementById('revenue-summary')?.textContent ?? '').length > 0);
}

/** What a person sees: the rendered text (`innerText` leaves out what is not displayed) and the visible panels. */
const rendered = (page: Page) => page.evaluate(() => document.body.innerText);
const visiblePanels = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('#app section, #app canvas, #orders'))
      .filter((el) => (el as HTMLElement).getClientRects().length > 0)
      .map((el) => el.id || el.tagName),
  );

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
  for (const secret of [orderNumber, CUSTOMER, '$24.99', 'Revenue', 'order.completed', '127.0.0.1:9'])
    expect(after).not.toContain(secret);
  expect(await visiblePanels(page)).toEqual([]);
  expect(await page.locator('#revenue-chart').isVisible()).toBe(false);
  // Not merely hidden: the merchant's data is gone from the document too.
  expect(await page.evaluate(() => document.body.textContent)).not.toContain(orderNumber);
  expect(await page.locator('#connection').textContent()).toBe('Signed out');
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  await page.context().close();
});

test('axe-core: no scrollable region is out of keyboard reach, and no serious or critical violation', async () => {
  const page = await open({ width: 1280, height: 900 }, { bypassCSP: true }); // axe is injected as a script
  await signIn(page);
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const result = await (window as typeof window & { axe: typeof axe }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  expect(violations.filter((v) => v.id === 'scrollable-region-focusable')).toEqual([]);
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  // The activity list scrolls, and takes the focus by keyboard.
  expect(
    await page.evaluate(() => {
      const el = document.getElementById('activity')!;
      return el.scrollHeight > el.clientHeight;
    }),
  ).toBe(true);
  await page.locator('#activity').focus();
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('activity');
  await page.context().close();
});

test('on a phone (375 x 667) every money amount of a recent order is on screen, without sideways scrolling', async () => {
  const page = await open({ width: 375, height: 667 });
  await signIn(page);
  const row = page.locator('#orders tbody tr').first();
  for (const label of ['Total', 'HSA/FSA', 'Regular']) {
    // Measured in one step in the page: the table is rendered again once the live connection is up, and a replaced cell has no box or style.
    const cell = await page.evaluate((l) => {
      const el = document.querySelector(`#orders tbody tr td[data-label="${l}"]`)!;
      const box = el.getBoundingClientRect();
      return { left: box.left, right: box.right, before: getComputedStyle(el, '::before').content };
    }, label);
    expect([label, cell.left >= 0, cell.right <= 375]).toEqual([label, true, true]);
    expect(cell.before).toBe(`"${label}"`); // labelled on screen
  }
  expect(await row.locator('td[data-label="Total"]').innerText()).toContain('$28.98');
  const scroll = await page.evaluate(() => {
    const wrap = document.querySelector('#orders')!.closest('.table-wrap')!;
    return [
      wrap.scrollWidth,
      wrap.clientWidth,
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ];
  });
  expect(scroll[0]).toBeLessThanOrEqual(scroll[1]);
  expect(scroll[2]).toBeLessThanOrEqual(scroll[3]);
  await page.context().close();
});
