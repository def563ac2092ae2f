/// <reference lib="dom" />
/**
 * The clinicians' review queue (Settings → LMN reviews) in a real headless Chromium: a clinician
 * reads the shopper's answers and approves (the HSA/FSA hold captured, the letter issued, emailed
 * with its PDF and listed) or declines (the hold released, the shopper told); an owner sees the
 * queue and cannot decide. axe-core on the page.
 */
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { consolePage } from '../helpers/console-browser.js';
import { cards, createProducts, openCheckout, paidOrder } from '../helpers/fixtures.js';
import { pdfText, recipients, startMailSink, type MailSink } from '../helpers/mail-sink.js';
import { newMerchant, startTestApp, type MerchantClient, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let sink: MailSink;
let browser: Browser;
let shop: MerchantClient;
const problems: string[] = [];
const answers = {
  condition: 'Vitamin D deficiency',
  recommended_by_provider: true,
  provider_name: 'Dr. Smith',
  attestation: true,
};

beforeAll(async () => {
  sink = await startMailSink();
  t = await startTestApp({ CONSOLE_SIGN_IN_LIMIT: '1000', SMTP_URL: sink.url, MAIL_FROM: 'shop@shop.example' });
  await t.reset();
  shop = await newMerchant(t, 'Wellness Pharmacy');
  await createProducts(shop.api, [
    ['VIT', 'Daily multivitamin', 1299],
    ['CANDY', 'Chocolate candy bar', 500],
  ]);
  browser = await launchBrowser();
}, 60_000);
afterEach(() => expect(problems.splice(0)).toEqual([]));
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await sink?.close();
});

let shopper = '';
/** A split purchase of the multivitamin (needs a letter) and candy by a new shopper: its review waits for a clinician. */
async function pendingOrder() {
  shopper = `jane.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const customer = { email: shopper, first_name: 'Jane', last_name: 'Doe' };
  const s = await openCheckout(
    shop.api,
    [
      ['VIT', 'Daily multivitamin', 1299, 1],
      ['CANDY', 'Chocolate candy bar', 500, 1],
    ],
    { customer },
  );
  const order = await paidOrder(shop.api, s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.visa, lmn: answers });
  expect(order).toMatchObject({
    status: 'processing',
    payment_status: 'authorized',
    lmn_review: { status: 'pending' },
  });
  return order as typeof order & { lmn_review: { id: string } };
}

const signedIn = (role: string, details: Record<string, unknown> = {}) =>
  consolePage(t, browser, shop.keys.id, role, problems, details);

const clinician = () =>
  signedIn('clinician', { name: 'Dr. Ana Rivera', credential: 'MD', npi: '1234567893', licensed_states: ['TX'] });
const review = (page: Page, id: string) => page.locator(`article[data-review-id="${id}"]`);
const mailTo = async (subject: string) => {
  await shop.api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 }); // the email sweep runs
  return sink.messages.find((m) => recipients(m).includes(shopper) && m.subject === subject);
};

test('a clinician approves in the console: captured, the letter issued, emailed with its PDF and listed', async () => {
  const order = await pendingOrder();
  const page = await clinician();
  // A clinician's console opens on the queue.
  await page.getByRole('heading', { name: 'LMN reviews' }).waitFor();
  const card = review(page, order.lmn_review.id);
  for (const shown of ['Jane Doe', 'Vitamin D deficiency', 'yes (Dr. Smith)', 'Daily multivitamin (VIT)', '$12.99'])
    await card.getByText(shown, { exact: false }).first().waitFor();
  await card.getByLabel('Condition on the letter').fill('Vitamin D deficiency (E55.9)');
  await card.getByRole('button', { name: 'Approve' }).click();
  await page.getByText(/^Approved: letter lmn_\w+ issued to Jane Doe/).waitFor();
  expect(await review(page, order.lmn_review.id).count()).toBe(0); // out of the queue
  await page.locator(`#lmn-decided tr[data-review-id="${order.lmn_review.id}"][data-status="approved"]`).waitFor();
  expect(await axeViolations(page)).toEqual([]);

  const after = (
    await shop.api.get<{ status: string; payment_status: string; lmn: { letter_id: string } }>(
      `/api/v2/orders/${order.id}`,
    )
  ).body;
  expect(after).toMatchObject({ status: 'completed', payment_status: 'captured' });
  const letterId = after.lmn.letter_id;
  const letter = (
    await shop.api.get<{ clinician: Record<string, string>; condition: string }>(`/api/v2/letters/${letterId}`)
  ).body;
  expect(letter).toMatchObject({
    condition: 'Vitamin D deficiency (E55.9)',
    clinician: { name: 'Dr. Ana Rivera', credential: 'MD', npi: '1234567893' },
  });
  const customer = (
    await shop.api.post<{ id: string }>('/api/v2/customers', { email: shopper, first_name: 'Jane', last_name: 'Doe' })
  ).body;
  expect(
    (await shop.api.get<{ data: { id: string }[] }>(`/api/v2/customers/${customer.id}/letters`)).body.data.map(
      (l) => l.id,
    ),
  ).toContain(letterId);

  const mail = await mailTo('Your letter of medical necessity from Wellness Pharmacy is approved');
  expect(mail?.attachments.map((a) => a.filename)).toEqual([`letter-of-medical-necessity-${letterId}.pdf`]);
  const text = await pdfText(mail!.attachments[0].content);
  for (const part of [
    'Jane Doe',
    'Vitamin D deficiency (E55.9)',
    'Daily multivitamin',
    'Dr. Ana Rivera, MD',
    'NPI: 1234567893',
  ])
    expect(text).toContain(part);
});

test('a clinician declines with a reason: the hold released, the order failed, the shopper told', async () => {
  const order = await pendingOrder();
  const page = await clinician();
  const card = review(page, order.lmn_review.id);
  await card.getByLabel('Reason (told to the shopper)').fill('Not indicated for this condition');
  await card.getByRole('button', { name: 'Decline' }).click();
  await page.getByText(/^Declined: the hold on Jane Doe's HSA\/FSA card is released/).waitFor();
  expect((await shop.api.get(`/api/v2/orders/${order.id}`)).body).toMatchObject({
    status: 'failed',
    lmn_review: { status: 'declined' },
  });
  const mail = await mailTo('Your request for a letter of medical necessity from Wellness Pharmacy was declined');
  expect(mail?.text).toContain('declined: Not indicated for this condition');
});

test('an owner sees the queue but cannot decide; a developer does not see it', async () => {
  const order = await pendingOrder();
  const owner = await signedIn('owner');
  await owner.getByRole('link', { name: 'LMN reviews' }).click();
  const card = review(owner, order.lmn_review.id);
  await card.getByText('Only a clinician decides a review').waitFor();
  expect(await card.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  const developer = await signedIn('developer');
  expect(await developer.getByRole('link', { name: 'LMN reviews' }).isVisible()).toBe(false);
});
