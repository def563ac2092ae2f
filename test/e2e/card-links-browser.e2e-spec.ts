/**
 * The card setup and card-update link pages in a real headless browser (Debian Chromium via
 * playwright-core), test mode: the shopper opens the link, enters a test card, the card is stored
 * (`payment_method.attached` reaches a webhook endpoint) and, on a card-update link, rescues an
 * `action_required` subscription whose next renewal is then paid. Used, expired and unknown links
 * show a page saying so. axe-core reports no violation on any state.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import { axeViolations } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { newCustomer, pathOf, renewalCards, subscribeWith, type SetupLinkBody } from '../helpers/card-links.js';
import { cards } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let api: Client;
let browser: Browser;
let receiver: Receiver;
const contexts: BrowserContext[] = [];
const DAY = 86_400;

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  browser = await launchBrowser();
  receiver = await startReceiver();
});
beforeEach(async () => {
  ({ api } = await newMerchant(t, 'Corner Pharmacy'));
  receiver.received.length = 0;
  const endpoint = await api.post('/api/v2/webhook-endpoints', {
    url: `${receiver.url}/hooks`,
    events: ['payment_method.attached', 'subscription.resumed'],
  });
  expect(endpoint.status).toBe(201);
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await t?.close();
});

/** Opens `url` (a link of the service under test) in a fresh tab; collects CSP violations, script errors and dialogs. */
async function open(url: string, expectedStatus = 200): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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
  const response = await page.goto(`${t.url}${pathOf(url)}`);
  expect(response?.status()).toBe(expectedStatus);
  return { page, problems };
}

async function fillCard(page: Page, card: { number: string; exp_month: number; exp_year: number; cvc: string }) {
  await page.fill('#card-number', card.number.replace(/(\d{4})(?=\d)/g, '$1 '));
  await page.fill('#card-exp_month', String(card.exp_month));
  await page.fill('#card-exp_year', String(card.exp_year));
  await page.fill('#card-cvc', card.cvc);
}

const text = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();
const deliver = () => t.app.http.jobs.runDue(new Date());
const advance = async (seconds: number) =>
  expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds })).status).toBe(200);

test('card setup link: a declined card is shown in place, a good one is stored for the customer, payment_method.attached is delivered, and the link is then used', async () => {
  const customer = await newCustomer(api);
  const link = (await api.post<SetupLinkBody>(`/api/v2/customers/${customer.id}/payment-method-setup-links`)).body;
  const { page, problems } = await open(link.url);
  expect(await text(page, 'h1')).toBe('Save a card');
  expect(await text(page, '#merchant-name')).toBe('Corner Pharmacy');
  expect(await text(page, '.test-banner')).toContain('Test mode');
  expect(await axeViolations(page)).toEqual([]);

  await fillCard(page, cards.declined);
  await page.click('#pay-button');
  await page.locator('#card-error', { hasText: 'could not be verified' }).waitFor();
  expect(await page.locator('#card[data-invalid]').count()).toBe(1);
  expect(await page.locator('#pay-button').isEnabled()).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  expect((await api.get(`/api/v2/customers/${customer.id}/payment-methods`)).body.data).toEqual([]);

  await fillCard(page, cards.visa);
  await page.click('#pay-button');
  await page.locator('h1', { hasText: 'Your card is saved' }).waitFor();
  expect(await text(page, '#main')).toContain('The card ending 4242 is saved.');
  expect(await page.locator('#pay-form').count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);

  const methods = (await api.get(`/api/v2/customers/${customer.id}/payment-methods`)).body.data;
  expect(methods).toEqual([
    expect.objectContaining({ customer_id: customer.id, brand: 'visa', last4: '4242', type: 'card' }),
  ]);
  await deliver();
  const [attached] = await receiver.waitFor(1);
  expect(attached.body).toMatchObject({
    type: 'payment_method.attached',
    data: { id: methods[0].id, customer_id: customer.id, last4: '4242' },
  });
  expect(attached.rawBody).not.toContain(cards.visa.number);

  // The same link again, in another tab: no form, the saved notice.
  const reopened = await open(link.url);
  expect(await text(reopened.page, 'h1')).toBe('Your card is saved');
  expect(await reopened.page.locator('#pay-form').count()).toBe(0);
  expect([...problems, ...reopened.problems]).toEqual([]);
});

test('card-update link: the card_update_url of an action_required failure rescues the subscription in the browser, and its next renewal is paid', async () => {
  const { sub } = await subscribeWith(api, renewalCards.actionRequired);
  expect(sub.status).toBe('action_required');
  const [failed] = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ data: { card_update_url: string } }[]>(
      `select data from events where type = 'subscription.payment_failed' and data->>'subscription_id' = ?`,
      [sub.id],
    );
  const { page, problems } = await open(failed.data.card_update_url);
  expect(await text(page, 'h1')).toBe('Update your card');
  expect(await text(page, '#subscription')).toContain('$15.00 every month');
  expect(await text(page, '#subscription')).toContain('Payment failed');
  expect(await text(page, '#pay-button')).toBe('Save card and pay');
  expect(await axeViolations(page)).toEqual([]);

  await fillCard(page, cards.mastercard);
  await page.click('#pay-button');
  await page.locator('h1', { hasText: 'Your card is updated' }).waitFor();
  expect(await text(page, '#main')).toContain(
    'The card ending 4444 is saved. Your subscription uses it from now on and is active.',
  );
  expect(await axeViolations(page)).toEqual([]);
  expect(problems).toEqual([]);

  const rescued = (await api.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body;
  expect(rescued).toMatchObject({ status: 'active', payment_method: { brand: 'mastercard', last4: '4444' } });
  await deliver();
  const received = await receiver.waitFor(3); // the first card's attachment, then the new card's and the rescue
  expect(received.map((r) => [r.body.type, r.body.data.last4 ?? r.body.data.card_last4]).sort()).toEqual([
    ['payment_method.attached', '0069'],
    ['payment_method.attached', '4444'],
    ['subscription.resumed', '4444'],
  ]);

  await advance(32 * DAY);
  const invoices = (await api.get(`/api/v2/orders?limit=10`)).body.data.filter(
    (o: { is_recurring: boolean }) => o.is_recurring,
  );
  expect(invoices).toHaveLength(2); // the rescued cycle and the next renewal, both on the new card
  expect((await api.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('active');
});

test('an expired link and an unknown one show a page saying so, without a form', async () => {
  const customer = await newCustomer(api);
  const link = (await api.post<SetupLinkBody>(`/api/v2/customers/${customer.id}/payment-method-setup-links`)).body;
  await advance(DAY + 60);
  const expired = await open(link.url);
  expect(await text(expired.page, 'h1')).toBe('This link has expired');
  expect(await text(expired.page, '#main')).toContain('Ask the store for a new link.');
  expect(await expired.page.locator('#pay-form').count()).toBe(0);
  expect(await axeViolations(expired.page)).toEqual([]);

  const wrong = new URL(link.url);
  wrong.searchParams.set('token', 'A'.repeat(32));
  const unknown = await open(wrong.toString(), 404);
  expect(await text(unknown.page, 'h1')).toBe('Link not found');
  expect(await axeViolations(unknown.page)).toEqual([]);
  expect([...expired.problems, ...unknown.problems]).toEqual([]);
});
