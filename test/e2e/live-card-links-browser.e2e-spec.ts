/**
 * The live-mode card setup and card-update link pages in Chromium, against the Adyen stand-in
 * behind Prism. Adyen Web's own bundle is replaced by its stand-in (test/helpers/adyen-web-fake.ts:
 * the secured-field iframes cannot load offline); the card-entry module, the page's script and
 * every route run as in production. The page boots Adyen Web with the merchant's client key, posts
 * only Adyen Web's `paymentMethod` to its submit call, shows errors in place (a card whose bank asks
 * for 3-D Secure on the card check is refused: not supported there), and has the live CSP.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import { enterCard, fakeState, openWithFakeAdyenWeb } from '../helpers/adyen-web-fake.js';
import { playAdyenHosts, typeCard } from '../helpers/adyen-web-hosts.js';
import { axeViolations } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { newCustomer, pathOf, subscribeWith, type SetupLinkBody } from '../helpers/card-links.js';
import { adyenCard, useLiveMode } from '../helpers/live-mode.js';

const m = useLiveMode([['THERM', 'Digital thermometer', 1500]]);

let browser: Browser;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
});

/** Opens a link's page with Adyen Web's stand-in; collects script errors, CSP reports and the JSON the page posts. */
async function open(url: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  return openWithFakeAdyenWeb(context, `${m.t.url}${pathOf(url)}`);
}

const text = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();
const db = () => m.t.orm.em.fork().getConnection();
const RAW_CARD_INPUTS = 'input[name^="card."], input[autocomplete^="cc-"]';

test('card setup link: Adyen Web boots with the client key, environment and a zero amount under the live CSP; a declined card shows in place; a good one is stored (pm_, payment_method.attached)', async () => {
  const customer = await newCustomer(m.live);
  const link = (await m.live.post<SetupLinkBody>(`/api/v2/customers/${customer.id}/payment-method-setup-links`)).body;
  const { page, problems, posts, headers } = await open(link.url);
  expect(await text(page, 'h1')).toBe('Save a card');
  const state = await fakeState(page);
  expect(state.checkout).toEqual({
    clientKey: 'test_CLIENTKEY1234567890',
    environment: 'test',
    locale: 'en-US',
    countryCode: 'US',
    amount: { value: 0, currency: 'USD' },
    showPayButton: false,
    analytics: { enabled: false },
  });
  expect(state.cards).toEqual({ card: { amount: { value: 0, currency: 'USD' }, hasHolderName: false } });
  expect(await page.locator(RAW_CARD_INPUTS).count()).toBe(0);
  expect(await page.locator('.test-banner, #card-entry-unavailable').count()).toBe(0);
  expect(headers['content-security-policy']).toContain("script-src 'self'; style-src 'self';");
  expect(headers['content-security-policy']).toContain('frame-src https://checkoutshopper-test.adyen.com https:');
  expect(headers['content-security-policy']).toContain("connect-src 'self' https://checkoutshopper-test.adyen.com");
  expect(await axeViolations(page)).toEqual([]);

  // Nothing entered: Adyen Web shows its own field errors, nothing is posted.
  await page.click('#pay-button');
  await page.locator('#card-error', { hasText: 'Complete the card number' }).waitFor();
  expect((await fakeState(page)).validations).toEqual(['card']);
  expect(posts).toEqual([]);

  await enterCard(page, 'card', '4000000000000002');
  await page.click('#pay-button');
  await page.locator('#card-error', { hasText: 'could not be verified' }).waitFor();
  expect(await page.locator('#pay-button').isEnabled()).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  expect((await m.live.get(`/api/v2/customers/${customer.id}/payment-methods`)).body.data).toEqual([]);

  // A card whose bank asks for 3-D Secure on the card check: refused in place (no action is shown), nothing stored, the link stays open.
  await enterCard(page, 'card', '4212345678901237');
  await page.click('#pay-button');
  await page
    .locator('#card-error', {
      hasText: 'asks to confirm it with 3-D Secure, which saving a card does not support; nothing was charged',
    })
    .waitFor();
  expect((await fakeState(page)).actions).toEqual([]);
  expect(await page.locator('#card-action').isHidden()).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  expect((await m.live.get(`/api/v2/customers/${customer.id}/payment-methods`)).body.data).toEqual([]);

  await enterCard(page, 'card', '4111111111111111');
  await page.click('#pay-button');
  await page.locator('h1', { hasText: 'Your card is saved' }).waitFor();
  expect(await text(page, '#main')).toContain('The card ending 1111 is saved.');
  expect(await axeViolations(page)).toEqual([]);

  const submits = posts.filter((p) => p.url.startsWith(`/card-setup/${link.id}/submit?token=`));
  expect(submits).toHaveLength(3);
  const body = JSON.parse(submits[2].body);
  expect(Object.keys(body).sort()).toEqual(['browser_info', 'card', 'return_url']);
  expect(body.card).toEqual(adyenCard('4111111111111111'));
  expect(body.return_url).toBe(`${m.t.url}${pathOf(link.url)}`);

  const methods = (await m.live.get(`/api/v2/customers/${customer.id}/payment-methods`)).body.data;
  expect(methods).toEqual([
    expect.objectContaining({
      id: expect.stringMatching(/^pm_/),
      livemode: true,
      customer_id: customer.id,
      last4: '1111',
    }),
  ]);
  const verification = [...m.adyen.standIn.payments.values()].at(-1)!;
  expect(verification).toMatchObject({
    amountRequested: { value: 0 },
    request: { storePaymentMethod: true, shopperReference: customer.id },
  });
  const attached = await db().execute<{ n: number }[]>(
    `select count(*)::int as n from events where type = 'payment_method.attached' and data->>'id' = ?`,
    [methods[0].id],
  );
  expect(attached).toEqual([{ n: 1 }]);
  expect(problems).toEqual([]);
});

test('card-update link: the live page of an action_required subscription takes a card in Adyen Web (the subscription amount) and rescues it', async () => {
  const { sub } = await subscribeWith(m.live, adyenCard('4000000000000069'), { merchant_product_id: 'THERM' }); // refused on merchant-initiated charges
  expect(sub.status).toBe('action_required');
  const [failed] = await db().execute<{ data: { card_update_url: string } }[]>(
    `select data from events where type = 'subscription.payment_failed' and data->>'subscription_id' = ?`,
    [sub.id],
  );
  const { page, problems, headers } = await open(failed.data.card_update_url);
  expect(await text(page, 'h1')).toBe('Update your card');
  expect(await text(page, '#pay-button')).toBe('Save card and pay');
  const state = await fakeState(page);
  expect(state.checkout).toMatchObject({
    clientKey: 'test_CLIENTKEY1234567890',
    environment: 'test',
    amount: { value: 1500, currency: 'USD' },
  });
  expect(await page.locator(RAW_CARD_INPUTS).count()).toBe(0);
  expect(headers['content-security-policy']).toContain('frame-src https://checkoutshopper-test.adyen.com https:');
  expect(await axeViolations(page)).toEqual([]);

  await enterCard(page, 'card', '5555444433331111');
  await page.click('#pay-button');
  await page.locator('h1', { hasText: 'Your card is updated' }).waitFor();
  expect(await text(page, '#main')).toContain(
    'The card ending 1111 is saved. Your subscription uses it from now on and is active.',
  );
  expect(await axeViolations(page)).toEqual([]);
  expect(problems).toEqual([]);

  const rescued = (await m.live.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body;
  expect(rescued).toMatchObject({ status: 'active', payment_method: { last4: '1111' } });
  const types = (
    await db().execute<{ type: string }[]>(
      `select type from events where data->>'subscription_id' = ? order by created_at, id`,
      [sub.id],
    )
  ).map((e) => e.type);
  expect(types).toEqual([
    'subscription.created',
    'subscription.payment_failed',
    'subscription.resumed',
    'subscription.renewed',
  ]);
});

test("card setup link with Adyen Web's real bundle (Adyen's hosts played locally): the link's token reaches no Adyen host, and the card is saved", async () => {
  const customer = await newCustomer(m.live);
  const link = (await m.live.post<SetupLinkBody>(`/api/v2/customers/${customer.id}/payment-method-setup-links`)).body;
  const token = new URL(link.url).searchParams.get('token')!;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const { requests } = await playAdyenHosts(page);
  await page.goto(`${m.t.url}${pathOf(link.url)}`);
  await typeCard(page, 'card-adyen', { number: '4111111111111111' });
  await page.click('#pay-button');
  await page.locator('h1', { hasText: 'Your card is saved' }).waitFor();
  expect(requests.some((r) => r.url.startsWith('https://checkoutanalytics-test.adyen.com/'))).toBe(true); // Adyen Web did call Adyen…
  expect(requests.filter((r) => [r.url, r.referer ?? '', r.body].some((s) => s.includes(token)))).toEqual([]); // …never with the token
});
