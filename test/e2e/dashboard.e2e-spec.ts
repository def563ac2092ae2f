/// <reference lib="dom" />
/** The merchant dashboard in a real headless browser (Debian Chromium via playwright-core). */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import type { CheckoutResource } from '../../src/modules/checkout/checkout.resource.js';
import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import { address, checkoutBody, cards, createProducts, type ProductRow } from '../helpers/fixtures.js';
import { client, type Client, type Envelope, type Page as ListPage } from '../helpers/http.js';
import { newMerchant, startTestApp, type MerchantClient, type TestApp } from '../helpers/test-app.js';
import { subscribeWith } from '../helpers/card-links.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';
import { PASSWORD, teamMember } from '../helpers/console.js';

let t: TestApp; // the service the pages are open on (the restart test restarts it on the same port)
let browser: Browser;
let receiver: Receiver; // every merchant's fulfilment endpoint: it answers 500, so deliveries stay unsent (pending, with a Replay button)
const contexts: BrowserContext[] = []; // the browser contexts the running test opened: closed after it
const cspProblems: string[] = []; // what the running test's pages reported of the Content Security Policy

const DESKTOP = { width: 1280, height: 1000 };
const CATALOG: readonly ProductRow[] = [
  ['THERM', 'Digital thermometer', 2499],
  ['CANDY', 'Chocolate candy bar', 399],
  ['BAND', 'Adhesive bandages', 599],
];

beforeAll(async () => {
  t = await startTestApp({ CONSOLE_SIGN_IN_LIMIT: '1000' });
  await t.reset();
  receiver = await startReceiver(() => 500);
  browser = await launchBrowser();
}, 60_000);
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  expect(cspProblems.splice(0)).toEqual([]); // no CSP violation on any page of any test
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await t?.close();
});

/** A merchant of the test's own: the pharmacy's three products and a fulfilment webhook endpoint (the receiver answering 500). */
async function pharmacy(name: string, hooksUrl = receiver.url): Promise<MerchantClient> {
  const merchant = await newMerchant(t, name);
  await createProducts(merchant.api, CATALOG);
  const hooks = { url: `${hooksUrl}/hooks`, events: ['order.completed'], description: 'fulfilment' };
  expect((await merchant.api.post('/api/v2/webhook-endpoints', hooks)).status).toBe(201);
  return merchant;
}

/** A new tab in a browser context of its own (closed after the test), its CSP reports recorded into `cspProblems`. */
async function newTab(options: BrowserContextOptions = { viewport: DESKTOP }): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspProblems.push(m.text());
  });
  page.on('pageerror', (err) => cspProblems.push(`page error: ${err.message}`));
  return page;
}

/** An owner of `keys`' merchant in the console: their email (password PASSWORD). */
async function owner(keys: CreatedMerchant): Promise<string> {
  const email = `owner-${keys.id.slice(-8).toLowerCase()}-${Math.random().toString(36).slice(2, 6)}@team.test`;
  await teamMember(t, keys.id, email, 'owner');
  return email;
}

/** Signs `page` in to the console as `email`. */
async function signInAs(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.keyboard.press('Enter');
}

/** A new tab on the console signed in as a new owner of `keys`' merchant, in test mode, its live connection up. */
async function signedInPage(keys: CreatedMerchant): Promise<Page> {
  const email = await owner(keys);
  const page = await newTab();
  await page.goto(`${t.url}/dashboard`);
  await signInAs(page, email);
  await page.waitForFunction(() => document.body.dataset.connection === 'live');
  return page;
}

/** Pays a new checkout of `items` through `via` (split on the HSA/FSA and the regular card); the order's id. */
async function payCheckout(via: TestApp, apiKey: string, items: [string, string, number, number][]): Promise<string> {
  const http = client(via.url, apiKey);
  const created = await http.post<Envelope<CheckoutResource>>('/api/v2/checkout', checkoutBody(items));
  expect(created.status).toBe(201);
  const paid = await http.post<OrderResource>(`/api/v2/test-helpers/checkout/${created.body.data.checkout_id}/pay`, {
    hsa_fsa_card: cards.hsa,
    card: cards.visa,
  });
  expect(paid.status).toBe(200);
  return paid.body.id;
}

/** Creates the payment link for a thermometer refill and pays it on the HSA/FSA card; the link. */
async function paidThermometerRefill(api: Client): Promise<{ id: string; url: string }> {
  const created = await api.post<{ id: string; url: string }>('/api/v2/payment-links', {
    products: [{ merchant_product_id: 'THERM', quantity: 1 }],
    currency: 'USD',
    customer: { email: 'jane@example.com', first_name: 'Jane', last_name: 'Doe' },
    description: 'Thermometer refill',
    success_url: 'https://shop.example.com/thanks',
    cancel_url: 'https://shop.example.com/cart',
  });
  expect(created.status).toBe(201);
  const paid = await api.post(`/api/v2/test-helpers/payment-links/${created.body.id}/pay`, {
    hsa_fsa_card: cards.hsa,
    shipping_address: address,
  });
  expect(paid.status).toBe(200);
  return created.body;
}

const eventIds = async (merchantId: string) =>
  (
    await t.orm.em
      .getConnection()
      .execute<{ id: string }[]>('select id from events where merchant_id = ?', [merchantId])
  ).map((r) => r.id);

test('sign in with the keyboard; test mode is marked; a paid order appears without a reload', async () => {
  const { keys } = await pharmacy('Sign-in Pharmacy');
  const page = await newTab();
  const res = await page.goto(`${t.url}/dashboard`);
  const csp = res!.headers()['content-security-policy'];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(await page.locator('script:not([src])').count()).toBe(0);

  await page.getByLabel('Email', { exact: true }).fill(await owner(keys));
  await page.getByLabel('Password', { exact: true }).fill('not the password at all');
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    () => document.getElementById('sign-in-error')!.textContent === 'Wrong email, password or code.',
  );
  expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.keyboard.press('Enter');
  await page.locator('#mode-banner.test').waitFor();
  expect(await page.locator('#mode-banner').textContent()).toMatch(/TEST MODE/);
  await page.waitForFunction(() => document.body.dataset.connection === 'live');
  // The session is an HttpOnly cookie: not in the URL, not readable by the page, nothing in storage but the event cursor.
  expect(page.url()).toBe(`${t.url}/dashboard`);
  const cookies = await page.context().cookies();
  expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['glm_console', true, 'Lax']]);
  expect(await page.evaluate(() => [document.cookie, localStorage.length])).toEqual(['', 0]);

  await page.evaluate(() => ((window as typeof window & { sameDocument?: boolean }).sameDocument = true));
  const orderId = await payCheckout(t, keys.test_api_key, [
    ['THERM', 'Digital thermometer', 2499, 1],
    ['CANDY', 'Chocolate candy bar', 399, 2],
  ]);
  // Pushed to the open page (how fast is the bench's event latency, not a test's bound).
  const row = page.locator(`tr[data-order-id="${orderId}"]`);
  await row.waitFor({ timeout: 10_000 });
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
  await page.waitForFunction(
    () => /HSA\/FSA \$24\.99, regular \$7\.98/.test(document.querySelector('#revenue-summary')?.textContent ?? ''),
    undefined,
    { timeout: 5000 },
  );
  expect(await page.locator('#revenue-summary').textContent()).toMatch(/HSA\/FSA \$24\.99, regular \$7\.98/);
  await page.locator('#order-detail-close').click();
  await page.locator('#order-detail').waitFor({ state: 'hidden' });
}, 60_000);

test('a live update of the orders keeps the keyboard on the order it was on', async () => {
  const { keys } = await pharmacy('Keyboard Pharmacy');
  const page = await signedInPage(keys);
  const cart: [string, string, number, number][] = [
    ['THERM', 'Digital thermometer', 2499, 1],
    ['CANDY', 'Chocolate candy bar', 399, 1],
  ];
  const first = await payCheckout(t, keys.test_api_key, cart);
  await page.locator(`tr[data-order-id="${first}"]`).waitFor({ timeout: 10_000 });
  await page.locator(`tr[data-order-id="${first}"]`).getByRole('button').focus();
  // Another order arrives: the table is redrawn under the keyboard.
  const second = await payCheckout(t, keys.test_api_key, cart);
  await page.locator(`tr[data-order-id="${second}"]`).waitFor({ timeout: 10_000 });
  expect(await page.evaluate(() => document.activeElement?.closest('tr')?.dataset.orderId)).toBe(first);
  await page.keyboard.press('Enter');
  await page.locator('#order-detail:not([hidden])').waitFor();
  expect(await page.locator('#order-detail-body').textContent()).toContain('Digital thermometer');
  await page.close();
});

test('the service restarts while the page is open: every event caused while it was down shows up once after the reconnect', async () => {
  const { keys } = await pharmacy('Restart Pharmacy');
  await payCheckout(t, keys.test_api_key, [['THERM', 'Digital thermometer', 2499, 1]]); // an order on the page before the restart
  const page = await signedInPage(keys);
  const other = await startTestApp(); // a second API process on the same database: it takes requests while `t` is down
  try {
    await page.locator('#orders tbody tr').first().waitFor();
    const before = new Set(await eventIds(keys.id));
    const shownBefore = await page.locator('#activity li').count();
    expect(shownBefore).toBe(before.size); // every event so far is on the page, none yet to come
    const port = Number(new URL(t.url).port);
    await t.close();
    await page.waitForFunction(() => document.body.dataset.connection === 'reconnecting');

    // Meanwhile the other API process takes requests: products, and a paid order.
    for (const name of ['Ice pack', 'Elastic bandage', 'Sunscreen SPF 50'])
      expect(
        (await client(other.url, keys.test_api_key).post('/api/v2/products', { name, price: 500, currency: 'USD' }))
          .status,
      ).toBe(201);
    const orderWhileDown = await payCheckout(other, keys.test_api_key, [['BAND', 'Adhesive bandages', 599, 1]]);
    t = await startTestApp({ CONSOLE_SIGN_IN_LIMIT: '1000' }, { port });
    const caused = (await eventIds(keys.id)).filter((id) => !before.has(id));
    expect(caused.length).toBeGreaterThanOrEqual(6);

    await page.waitForFunction(() => document.body.dataset.connection === 'live', undefined, { timeout: 20_000 });
    await page.waitForFunction(
      (n) => document.querySelectorAll('#activity li').length >= n,
      shownBefore + caused.length,
      { timeout: 10_000 },
    );
    await new Promise((r) => setTimeout(r, 500));
    const shown = await page
      .locator('#activity li')
      .evaluateAll((lis) => lis.map((li) => li.getAttribute('data-event-id')));
    for (const id of caused) expect(shown.filter((s) => s === id)).toHaveLength(1);
    expect(new Set(shown).size).toBe(shown.length); // nothing twice
    expect(shown).toHaveLength(shownBefore + caused.length);
    await page.locator(`tr[data-order-id="${orderWhileDown}"]`).waitFor({ timeout: 5000 });
  } finally {
    await other.close();
  }
}, 90_000);

test('a failed webhook delivery is replayed from the page', async () => {
  // A receiver of its own, answering 500 until told otherwise: this test moves its merchant's test clock through the whole retry schedule.
  const { keys, api } = await newMerchant(t, 'Replay Pharmacy');
  const failing = await startReceiver(() => 500);
  try {
    await createProducts(api, [['THERM', 'Digital thermometer', 2499]]);
    const hooks = { url: `${failing.url}/hooks`, events: ['order.completed'], description: 'fulfilment' };
    expect((await api.post('/api/v2/webhook-endpoints', hooks)).status).toBe(201);
    const page = await signedInPage(keys);
    // The console's webhooks view (Settings → Webhooks): endpoints and their deliveries, following the live events while it is open.
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Webhooks', exact: true })
      .click();
    await page.locator('#settings .endpoint').waitFor();
    await payCheckout(t, keys.test_api_key, [['THERM', 'Digital thermometer', 2499, 1]]);

    // Every attempt answers 500 until the schedule is exhausted: the deliveries fail (dead letters).
    for (const seconds of [1, 60, 300, 1800, 7200, 21600])
      expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds })).status).toBe(200);
    const list = await api.get<ListPage<{ id: string }>>(`/api/v2/webhook-endpoints`);
    const deliveries = await api.get<ListPage<{ id: string; status: string }>>(
      `/api/v2/webhook-endpoints/${list.body.data[0].id}/deliveries`,
    );
    const failed = deliveries.body.data.find((d) => d.status === 'failed')!;
    expect(failed).toBeDefined();
    failing.respondWith(() => 200);
    const received = failing.received.length;

    // Any event refreshes the open view; the failed delivery is listed with its attempts and last response.
    expect((await api.post('/api/v2/products', { name: 'Cold pack', price: 300, currency: 'USD' })).status).toBe(201);
    const row = page.locator(`tr[data-delivery-id="${failed.id}"]`);
    await page.locator(`tr[data-delivery-id="${failed.id}"][data-status="failed"]`).waitFor({ timeout: 10_000 });
    expect(await row.locator('td').allTextContents()).toEqual([
      'order.completed',
      'failed',
      '6',
      'HTTP 500',
      expect.any(String),
      'Replay',
    ]);
    await row.getByRole('button', { name: /Replay order.completed delivery/ }).focus();
    await page.keyboard.press('Enter');
    const queued = `Delivery ${failed.id} queued to be sent again now (pending).`;
    await page.waitForFunction((text) => document.getElementById('settings-status')!.textContent === text, queued);
    expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 })).status).toBe(200); // the delivery worker runs
    await page.locator(`tr[data-delivery-id="${failed.id}"][data-status="succeeded"]`).waitFor({ timeout: 10_000 });
    expect(await row.locator('td').allTextContents()).toEqual([
      'order.completed',
      'succeeded',
      '7',
      'HTTP 200',
      expect.any(String),
      '',
    ]);
    expect(failing.received.length).toBe(received + 1);
  } finally {
    await failing.close();
  }
}, 90_000);

test('payment links are listed with their status, updated live when one is paid', async () => {
  const { keys, api } = await pharmacy('Payment Link Pharmacy');
  const page = await signedInPage(keys);
  await page.locator('#payment-links-panel:not([hidden])').waitFor();
  // Creating a link records no event of its own; paying it does (payment_link.paid), and the panel follows live.
  const link = await paidThermometerRefill(api);
  const item = page.locator('#payment-links li', { hasText: 'Thermometer refill' });
  // The link may show as active first (its checkout session's checkout.created refreshes the panel): wait for the paid state rather than race it.
  await page.locator('#payment-links li', { hasText: /^paid Thermometer refill/ }).waitFor({ timeout: 5000 });
  expect(await item.textContent()).toMatch(/^paid Thermometer refill · \$24\.99/);
  expect(await item.getByRole('link', { name: 'open link' }).getAttribute('href')).toBe(link.url);
}, 30_000);

test('the docs screenshot; usable on a phone; no CSP violation anywhere', async () => {
  // What the picture shows, a healthy shop: a split order, an order on the HSA/FSA card alone, a paid payment link, a subscription.
  const healthy = await startReceiver(() => 200);
  const { keys, api } = await pharmacy('Dashboard Pharmacy', healthy.url);
  await subscribeWith(api, cards.hsa, { merchant_product_id: 'BAND', amount_cents: 599 });
  await payCheckout(t, keys.test_api_key, [
    ['THERM', 'Digital thermometer', 2499, 1],
    ['CANDY', 'Chocolate candy bar', 399, 2],
  ]);
  await payCheckout(t, keys.test_api_key, [['BAND', 'Adhesive bandages', 599, 1]]);
  await paidThermometerRefill(api);
  expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 })).status).toBe(200); // the delivery worker makes the first attempts
  const page = await signedInPage(keys);
  await page.waitForFunction(() => document.querySelectorAll('#orders tbody tr').length === 4);
  await page.locator('#payment-links li', { hasText: 'Thermometer refill' }).waitFor();
  await page.locator('#subscriptions li[data-subscription-id]').first().waitFor();
  await healthy.close();
  await page.waitForFunction(() =>
    /HSA\/FSA \$61\.96, regular \$7\.98/.test(document.querySelector('#revenue-summary')?.textContent ?? ''),
  );
  await new Promise((r) => setTimeout(r, 300));
  // The picture in docs/console.md; rewritten only on request so that test runs leave the checkout clean.
  const shot = await page.screenshot({
    path: process.env.UPDATE_SCREENSHOT ? 'docs/dashboard.png' : undefined,
    fullPage: true,
  });
  expect(shot.subarray(1, 4).toString()).toBe('PNG');

  const p = await newTab({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await p.goto(`${t.url}/dashboard`);
  await p.getByLabel('Email', { exact: true }).fill(await owner(keys));
  await p.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await p.getByRole('button', { name: 'Sign in' }).tap();
  await p.locator('#orders tbody tr').first().waitFor();
  expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = await p.locator('#orders-title').boundingBox();
  expect(box!.width).toBeLessThanOrEqual(390);
  expect(cspProblems).toEqual([]);
}, 60_000);
