/// <reference lib="dom" />
/**
 * Settings → Branding and Settings → Emails of the console in a real headless Chromium: branding
 * saved in the page, the outbox listed with a message's text part, a shopper message turned off;
 * axe-core on both pages.
 */
import type { Browser } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { consolePage } from '../helpers/console-browser.js';
import { cards, createProducts, openCheckout, paidOrder } from '../helpers/fixtures.js';
import { newMerchant, startTestApp, type MerchantClient, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let browser: Browser;
let shop: MerchantClient;
let orderNumber: string;
const problems: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ CONSOLE_SIGN_IN_LIMIT: '1000' });
  await t.reset();
  shop = await newMerchant(t, 'Console Pharmacy');
  await createProducts(shop.api, [['THERM', 'Digital thermometer', 2499]]);
  const s = await openCheckout(shop.api, [['THERM', 'Digital thermometer', 2499, 1]]);
  orderNumber = (await paidOrder(shop.api, s.checkout_id, { hsa_fsa_card: cards.hsa })).order_number;
  await shop.api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 }); // the sweep renders the receipt (kept: no SMTP_URL)
  browser = await launchBrowser();
}, 60_000);
afterEach(() => expect(problems.splice(0)).toEqual([]));
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const signedInOwner = () => consolePage(t, browser, shop.keys.id, 'owner', problems);

const settings = async () =>
  (
    await shop.api.graphql<{
      emailSettings: {
        brandName: string;
        supportEmail: string | null;
        businessAddress: string | null;
        phone: string | null;
        shopperEmails: { kind: string; enabled: boolean }[];
      };
    }>('{ emailSettings { brandName supportEmail businessAddress phone shopperEmails { kind enabled } } }')
  ).body.data.emailSettings;

test('Settings → Branding saves the name and support email messages carry', async () => {
  const page = await signedInOwner();
  await page.getByRole('link', { name: 'Branding' }).click();
  await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Console Pharmacy');
  await page.getByLabel('Name', { exact: true }).fill('Console Pharmacy & Co');
  await page.getByLabel('Support email').fill('help@pharmacy.example');
  await page.getByLabel('Business address').fill('12 Health Way, Austin, TX 78701');
  await page.getByLabel('Phone').fill('+1 512 555 0199');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await page.getByText('Branding saved').waitFor();
  expect(await settings()).toMatchObject({
    brandName: 'Console Pharmacy & Co',
    supportEmail: 'help@pharmacy.example',
    businessAddress: '12 Health Way, Austin, TX 78701',
    phone: '+1 512 555 0199',
  });
  expect(await axeViolations(page)).toEqual([]);
});

test('Settings → Emails lists the outbox with each message, and turns a shopper message off', async () => {
  const page = await signedInOwner();
  await page.getByRole('link', { name: 'Emails' }).click();
  await page.getByText('SMTP_URL is not set').waitFor();
  const subject = `Your receipt from Console Pharmacy (order ${orderNumber})`;
  await page.getByRole('button', { name: subject }).click();
  await expect(page.locator('#email-text').textContent()).resolves.toContain(
    '- 1 x Digital thermometer (HSA/FSA eligible): 24.99 USD',
  );
  await page.getByLabel('Refund confirmation').uncheck();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Saved: 1 shopper message(s) turned off.').waitFor();
  expect((await settings()).shopperEmails).toContainEqual({ kind: 'REFUND', enabled: false });
  expect(await axeViolations(page)).toEqual([]);
});
