/// <reference lib="dom" />
/**
 * The merchant console in a real headless Chromium: set-password link, sign-in with its
 * errors (wrong password, lockout), TOTP enrolment and two-step sign-in, API keys made, rolled and
 * revoked in the page and used against the API, role limits, webhook endpoints with a test event and
 * recovery, a refund with its HSA/FSA split and its audit entry; axe-core and a 390 px phone on every page.
 */
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inviteMember } from '../../src/modules/team/team.service.js';
import { axeViolations } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { PASSWORD, teamMember } from '../helpers/console.js';
import { subscribeWith } from '../helpers/card-links.js';
import { cards, checkoutBody, createProducts } from '../helpers/fixtures.js';
import { verifyWebhook } from '../../src/modules/webhooks/webhook-signature.js';
import { client } from '../helpers/http.js';
import { newMerchant, startTestApp, type MerchantClient, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let browser: Browser;
let shop: MerchantClient;
let orderId: string; // ord_… of a paid split order: $24.99 on the HSA/FSA card, $7.98 on the regular card
let orderNumber: string;
const contexts: BrowserContext[] = [];
const problems: string[] = []; // CSP reports and page errors of the running test's pages

const PAGES = [
  '#/',
  '#/settings/api-keys',
  '#/settings/security',
  '#/settings/team',
  '#/settings/webhooks',
  '#/settings/audit',
];

beforeAll(async () => {
  t = await startTestApp({ CONSOLE_SIGN_IN_LIMIT: '1000' });
  await t.reset();
  shop = await newMerchant(t, 'Console Pharmacy');
  await createProducts(shop.api, [
    ['THERM', 'Digital thermometer', 2499],
    ['CANDY', 'Chocolate candy bar', 399],
  ]);
  const created = await shop.api.post<{ data: { checkout_id: string } }>(
    '/api/v2/checkout',
    checkoutBody([
      ['THERM', 'Digital thermometer', 2499, 1],
      ['CANDY', 'Chocolate candy bar', 399, 2],
    ]),
  );
  const paid = await shop.api.post<{ id: string; order_number: string }>(
    `/api/v2/test-helpers/checkout/${created.body.data.checkout_id}/pay`,
    { hsa_fsa_card: cards.hsa, card: cards.visa },
  );
  expect(paid.status).toBe(200);
  orderId = paid.body.id;
  orderNumber = paid.body.order_number;
  browser = await launchBrowser();
}, 60_000);
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  expect(problems.splice(0)).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function newTab(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('dialog', (d) => void d.accept()); // confirmations (revoke, refund, delete) are accepted
  return page;
}

const email = (role: string) => `${role}-${Math.random().toString(36).slice(2, 8)}@console.test`;

/** Fills the sign-in form and submits it. */
async function submitSignIn(page: Page, address: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(address);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.keyboard.press('Enter');
}

/** A tab signed in as a new `role` member of the shop (test mode), its live connection up. */
async function signedIn(
  role: string,
  viewport?: { width: number; height: number },
): Promise<{ page: Page; address: string }> {
  const address = email(role);
  await teamMember(t, shop.keys.id, address, role);
  const page = await newTab(viewport);
  await page.goto(`${t.url}/dashboard`);
  await submitSignIn(page, address);
  await ready(page);
  return { page, address };
}

/** Waits for the signed-in page: live, or without live activity for a role that has no events. */
const ready = (page: Page) =>
  page.waitForFunction(() => ['live', 'off'].includes(document.body.dataset.connection ?? ''));

/** Goes to a console page by its navigation link. */
async function go(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();
  await page.locator('#settings-title', { hasText: name }).waitFor();
}

const status = (page: Page) => page.locator('#settings-status');

/** What sticks out on the right of a 390 px wide page (a wide table scrolls inside its wrapper): empty when nothing scrolls sideways. */
async function overflowing(page: Page): Promise<string[]> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width <= 390) return [];
  const culprits = await page.evaluate(() =>
    Array.from(document.querySelectorAll('body *'))
      .filter(
        (el) =>
          el.getBoundingClientRect().right > 390 &&
          (!el.parentElement?.closest('.table-wrap') || getComputedStyle(el).position !== 'static'),
      )
      .map(
        (el) =>
          `${el.tagName}#${el.id}.${el.className} ${el.getBoundingClientRect().right} ${el.textContent?.slice(0, 30)}`,
      )
      .slice(0, 8),
  );
  return [`scrollWidth ${width}`, ...culprits];
}

test('an invitation link sets the password (the rules shown), then sign-in: a wrong password, then the lockout message', async () => {
  const address = email('support');
  const { setup_url } = await inviteMember(t.orm.em.fork(), shop.keys.id, { email: address, role: 'support' });
  const page = await newTab();
  const res = await page.goto(setup_url);
  expect(res!.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+'; style-src 'self'/);
  await page.getByLabel('New password').fill('short');
  await page.keyboard.press('Enter');
  await page.locator('#setup-error', { hasText: 'at least 12' }).waitFor();
  expect(await page.getByLabel('New password').getAttribute('aria-invalid')).toBe('true');
  expect(await axeViolations(page)).toEqual([]);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.keyboard.press('Enter');
  // Said as information, not in the error style.
  await page.locator('#sign-in-status', { hasText: `Password set for ${address}` }).waitFor();
  expect(await page.locator('#sign-in-status').getAttribute('class')).toBe('help');
  expect(await page.locator('#sign-in-error').textContent()).toBe('');
  expect(new URL(page.url()).pathname).toBe('/dashboard'); // the token leaves the address bar
  expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(address);

  // The link is spent: opened again, it says so at once, with no form.
  const again = await newTab();
  await again.goto(setup_url);
  await again.locator('#setup-link-state', { hasText: 'was used already' }).waitFor();
  expect(await again.locator('#setup-form').isHidden()).toBe(true);

  await submitSignIn(page, address, 'not the password at all');
  await page.locator('#sign-in-error', { hasText: 'Wrong email, password or code.' }).waitFor();
  expect(await page.locator('#sign-in-error').getAttribute('role')).toBe('alert');
  expect(await axeViolations(page)).toEqual([]);
  for (let i = 0; i < 4; i++) {
    await page.locator('#sign-in-error').evaluate((el) => (el.textContent = ''));
    await submitSignIn(page, address, `wrong password ${i}`);
    await page.waitForFunction(() => document.getElementById('sign-in-error')!.textContent !== '');
  }
  await submitSignIn(page, address); // the right password, but the account is locked now
  await page
    .locator('#sign-in-error', { hasText: /Too many failed sign-ins: this account is locked for 15 more minute/ })
    .waitFor();
  expect(await page.locator('#app').isHidden()).toBe(true);
}, 60_000);

test('TOTP: enrolment on the Security page (secret, otpauth URI, recovery codes once), then a sign-in in two steps', async () => {
  const { page, address } = await signedIn('admin');
  await go(page, 'Security');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = await page.locator('#totp-secret').inputValue();
  expect(await page.locator('#totp-uri').inputValue()).toMatch(/^otpauth:\/\/totp\/.*secret=/);
  expect(await axeViolations(page)).toEqual([]);
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  await page.getByLabel('Code from the app').fill(totp.generate());
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  await page.locator('#recovery-codes li').first().waitFor();
  expect(await page.locator('#recovery-codes li').count()).toBe(10);
  expect(await page.locator('#two-factor-state').textContent()).toBe('Two-factor authentication is on.');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.locator('#sign-in-status', { hasText: 'Signed out.' }).waitFor();
  await submitSignIn(page, address);
  await page.locator('#two-factor-form:not([hidden])').waitFor();
  expect(await axeViolations(page)).toEqual([]);
  await page.getByLabel('Authentication code').fill('000000' === totp.generate() ? '111111' : '000000');
  await page.keyboard.press('Enter');
  await page.locator('#two-factor-error', { hasText: 'Wrong email, password or code.' }).waitFor();
  await page.getByLabel('Authentication code').fill(totp.generate({ timestamp: Date.now() + 30_000 })); // the enrolment's code is never accepted twice
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.connection === 'live');
  expect(await page.locator('#who').textContent()).toContain(`${address} (admin)`);
}, 60_000);

test('API keys: made in the page and used against the API; a restricted key refused a write; rolled and revoked keys refused', async () => {
  const { page } = await signedIn('developer');
  await go(page, 'API keys');
  await page.getByLabel('Name', { exact: true }).fill('Warehouse sync');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = await page.locator('#new-secret').inputValue();
  expect(secret).toMatch(/^glm_test_/);
  await page.locator('#api-keys tr', { hasText: 'Warehouse sync' }).waitFor();
  expect(await page.locator('#api-keys tr', { hasText: 'Warehouse sync' }).locator('td').first().textContent()).toBe(
    'secret',
  );
  expect((await client(t.url, secret).get('/api/v2/products')).status).toBe(200);
  expect(await axeViolations(page)).toEqual([]);

  // A restricted key: products read only.
  await page.getByLabel('Name', { exact: true }).fill('Catalog reader');
  await page.getByLabel('Restricted key').check();
  await page.getByLabel('products', { exact: true }).selectOption('read');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.locator('#settings-status', { hasText: 'Key Catalog reader created.' }).waitFor();
  const restricted = await page.locator('#new-secret').inputValue();
  expect(await page.locator('#api-keys tr', { hasText: 'Catalog reader' }).textContent()).toContain('products:read');
  const reader = client(t.url, restricted);
  expect((await reader.get('/api/v2/products')).status).toBe(200);
  const write = await reader.post('/api/v2/products', { name: 'Ice pack', price: 500, currency: 'USD' });
  expect(write.status).toBe(403);

  // Rolled with no overlap: the old secret stops at once, the new one works.
  const row = page.locator('#api-keys tr', { hasText: 'Warehouse sync' }).first();
  await row.getByLabel('Old key of Warehouse sync keeps working').selectOption('0');
  await row.getByRole('button', { name: 'Roll Warehouse sync' }).click();
  await status(page).filter({ hasText: 'the old key stopped working' }).waitFor();
  const rolled = await page.locator('#new-secret').inputValue();
  expect(rolled).not.toBe(secret);
  expect((await client(t.url, secret).get('/api/v2/products')).status).toBe(401);
  expect((await client(t.url, rolled).get('/api/v2/products')).status).toBe(200);

  // Revoked (after the confirmation): refused.
  await page
    .locator('#api-keys tr[data-status="active"]', { hasText: 'Warehouse sync' })
    .getByRole('button', { name: 'Revoke Warehouse sync' })
    .click();
  await status(page).filter({ hasText: 'Warehouse sync revoked.' }).waitFor();
  await new Promise((r) => setTimeout(r, 1100)); // every API process refuses it within a second
  expect((await client(t.url, rolled).get('/api/v2/products')).status).toBe(401);
}, 60_000);

test('role limits: a viewer sees no refund, no keys, no team, and the API refuses the refund anyway', async () => {
  const { page } = await signedIn('viewer');
  const nav = page.getByRole('navigation', { name: 'Console' });
  for (const hidden of ['API keys', 'Team', 'Audit log'])
    expect(await nav.getByRole('link', { name: hidden }).isVisible()).toBe(false);
  await page.locator(`tr[data-order-id="${orderId}"] button`).click();
  await page.locator('#order-detail:not([hidden])').waitFor();
  expect(await page.locator('#refund-form').count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
  // The same browser session asks anyway: the server refuses it.
  const answer = await page.evaluate(async (id) => {
    const { csrf_token } = (await (await fetch('/console/session')).json()) as { csrf_token: string };
    const res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf_token },
      body: JSON.stringify({
        query: 'mutation($id: ID!) { createRefund(input: { orderId: $id, reason: OTHER }) { refund { refundId } } }',
        variables: { id },
      }),
    });
    return (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
  }, orderId);
  expect(answer.errors?.[0].extensions?.code).toBe('insufficient_permissions');
}, 60_000);

test('webhooks: an endpoint made in the page gets a test event; a failed delivery is recovered since a time; the log shows its request', async () => {
  const receiver: Receiver = await startReceiver(() => 500);
  try {
    const { page } = await signedIn('developer');
    await go(page, 'Webhooks');
    // An input mistake (the mutation's userErrors) is said on the page, as an alert.
    await page.getByLabel('URL', { exact: true }).fill('ftp://example.com/hooks');
    await page.getByLabel('Events', { exact: true }).fill('order.completed');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#settings-status[role="alert"]').waitFor();
    expect(await status(page).textContent()).toMatch(/url/i);
    expect(await page.locator('#endpoint-secret').count()).toBe(0);
    await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}/hooks`);
    await page.getByLabel('Events', { exact: true }).fill('order.completed');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await status(page).filter({ hasText: 'added.' }).waitFor();
    expect(await page.locator('#endpoint-secret').inputValue()).toMatch(/^whsec_/);
    const endpoint = page.locator('.endpoint', { hasText: `${receiver.url}/hooks` });
    receiver.respondWith(() => 200);
    await endpoint.getByRole('button', { name: /^Send test event/ }).click();
    await status(page).filter({ hasText: 'Test event sent: HTTP 200' }).waitFor();
    expect(receiver.received.map((r) => r.body.type)).toEqual(['webhook_endpoint.test']);
    expect(await axeViolations(page)).toEqual([]);

    // An order the endpoint fails to take, through the whole retry schedule.
    receiver.respondWith(() => 500);
    const created = await shop.api.post<{ data: { checkout_id: string } }>(
      '/api/v2/checkout',
      checkoutBody([['THERM', 'Digital thermometer', 2499, 1]]),
    );
    expect(
      (
        await shop.api.post(`/api/v2/test-helpers/checkout/${created.body.data.checkout_id}/pay`, {
          hsa_fsa_card: cards.hsa,
        })
      ).status,
    ).toBe(200);
    for (const seconds of [1, 60, 300, 1800, 7200, 21600])
      expect((await shop.api.post('/api/v2/test-helpers/advance-clock', { seconds })).status).toBe(200);
    await go(page, 'Security');
    await go(page, 'Webhooks'); // drawn again
    await endpoint.locator('tr[data-delivery-id][data-status="failed"]').first().waitFor();
    const failed = endpoint.locator('tr[data-delivery-id][data-status="failed"]').first();
    const log = page.locator(`#log-${await failed.getAttribute('data-delivery-id')}`);
    expect(await log.isVisible()).toBe(false); // its log opens from the event's name
    await failed.getByRole('button', { name: /^Request and attempts of order.completed delivery/ }).click();
    expect(await log.getByLabel('Request body').textContent()).toContain(`"order_number"`);
    expect(await log.locator('li').count()).toBe(6); // every attempt, with its answer
    expect(await log.locator('li').first().textContent()).toContain('HTTP 500');

    receiver.respondWith(() => 200);
    const received = receiver.received.length;
    const failedCount = await endpoint.locator('tr[data-delivery-id][data-status="failed"]').count();
    expect(failedCount).toBeGreaterThanOrEqual(1);
    const since = await page.evaluate(() => {
      const d = new Date(Date.now() - 3_600_000);
      d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
      return d.toISOString().slice(0, 16);
    });
    await endpoint.getByLabel('Recover failed deliveries since').fill(since);
    await endpoint.getByRole('button', { name: /^Recover failed deliveries/ }).click();
    await page.waitForFunction(() =>
      /queued again|Error|refused|must/.test(document.getElementById('settings-status')!.textContent ?? ''),
    );
    expect(await status(page).textContent()).toBe(`${failedCount} deliveries queued again.`);
    expect((await shop.api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 })).status).toBe(200); // the delivery worker runs
    for (let waited = 0; receiver.received.length < received + failedCount && waited < 10_000; waited += 100)
      await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received.length).toBe(received + failedCount);
    expect(receiver.received.at(-1)!.body.type).toBe('order.completed');
  } finally {
    await receiver.close();
  }
}, 90_000);

test('webhooks: an endpoint edited (URL, events), disabled, enabled, its secret rotated (shown once, then signing), deleted; the log shows the answer’s body', async () => {
  const receiver: Receiver = await startReceiver(() => ({ status: 200, body: '{"received":true}' }));
  try {
    const { page } = await signedIn('developer');
    await go(page, 'Webhooks');
    const first = `${receiver.url}/first`;
    await page.getByLabel('URL', { exact: true }).fill(first);
    await page.getByLabel('Events', { exact: true }).fill('order.completed');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await status(page)
      .filter({ hasText: `${first} added.` })
      .waitFor();
    const created = await page.locator('#endpoint-secret').inputValue();
    const endpointId = (await page
      .locator('#settings .endpoint', { hasText: first })
      .getAttribute('data-endpoint-id'))!;
    const card = page.locator(`#settings .endpoint[data-endpoint-id="${endpointId}"]`);
    const read = async () =>
      (await shop.api.get<{ url: string; events: string[]; status: string }>(`/api/v2/webhook-endpoints/${endpointId}`))
        .body;

    // Edit: the URL and the events.
    const second = `${receiver.url}/second`;
    await card.getByRole('button', { name: `Edit ${first}` }).click();
    await page.locator('#edit-url').fill(second);
    await page.locator('#edit-events').fill('order.completed, refund.succeeded');
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('#edit-endpoint-form').getByRole('button', { name: 'Save' }).click();
    await status(page)
      .filter({ hasText: `${second} saved.` })
      .waitFor();
    await card.locator('h3', { hasText: second }).waitFor();
    expect(await card.locator('p.help').first().textContent()).toBe('Events: order.completed, refund.succeeded');
    expect(await read()).toMatchObject({
      url: second,
      events: ['order.completed', 'refund.succeeded'],
      status: 'enabled',
    });

    // Disable, then enable.
    for (const [action, state] of [
      ['Disable', 'disabled'],
      ['Enable', 'enabled'],
    ] as const) {
      await card.getByRole('button', { name: `${action} ${second}` }).click();
      await status(page)
        .filter({ hasText: `${second} ${state}.` })
        .waitFor();
      expect(await card.locator('h3 .badge').textContent()).toBe(state);
      expect((await read()).status).toBe(state);
    }

    // Rotate: the new secret shown once, and it signs from now on.
    await card.getByRole('button', { name: `Rotate secret of ${second}` }).click();
    await status(page).filter({ hasText: 'Secret rotated.' }).waitFor();
    const rotated = await page.locator('#endpoint-secret').inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(created);
    expect(await page.locator('#endpoint-secret-once').textContent()).toBe('Shown this once: store it now.');
    await card.getByRole('button', { name: `Send test event to ${second}` }).click();
    await status(page).filter({ hasText: 'Test event sent: HTTP 200' }).waitFor();
    const test = receiver.received.at(-1)!;
    expect(test.path).toBe('/second');
    expect(verifyWebhook(test.rawBody, String(test.headers['x-service-signature']), rotated)).toBe(true);
    await go(page, 'Security');
    await go(page, 'Webhooks');
    await card.waitFor();
    expect(await page.locator('#endpoint-secret').count()).toBe(0); // drawn again: the secret is gone

    // A real delivery: the log shows what the receiver answered.
    const sent = receiver.received.length;
    const checkout = await shop.api.post<{ data: { checkout_id: string } }>(
      '/api/v2/checkout',
      checkoutBody([['THERM', 'Digital thermometer', 2499, 1]]),
    );
    expect(
      (
        await shop.api.post(`/api/v2/test-helpers/checkout/${checkout.body.data.checkout_id}/pay`, {
          hsa_fsa_card: cards.hsa,
        })
      ).status,
    ).toBe(200);
    expect((await shop.api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 })).status).toBe(200); // the delivery worker runs
    await receiver.waitFor(sent + 1);
    const delivered = card.locator('tr[data-delivery-id][data-status="succeeded"]');
    for (let i = 0; i < 20 && !(await delivered.count()); i++) {
      await page.waitForTimeout(200);
      await go(page, 'Security');
      await go(page, 'Webhooks');
      await card.waitFor();
    }
    await delivered
      .first()
      .getByRole('button', { name: /^Request and attempts of order.completed delivery/ })
      .click();
    const log = page.locator(`#log-${await delivered.first().getAttribute('data-delivery-id')}`);
    expect(await log.getByLabel('Response body of attempt 1').textContent()).toBe('{"received":true}');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    expect(await overflowing(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Delete (after the confirmation).
    await card.getByRole('button', { name: `Delete ${second}` }).click();
    await status(page)
      .filter({ hasText: `${second} deleted.` })
      .waitFor();
    expect(await card.count()).toBe(0);
    expect((await shop.api.get(`/api/v2/webhook-endpoints/${endpointId}`)).status).toBe(404);
  } finally {
    await receiver.close();
  }
}, 90_000);

test('dashboard actions: a payment link cancelled, a subscription cancelled at its period end and resumed, an open checkout’s URL copied; axe and 390 px', async () => {
  const link = await shop.api.post<{ id: string; checkout_id: string }>('/api/v2/payment-links', {
    products: [{ merchant_product_id: 'THERM', quantity: 1 }],
    currency: 'USD',
    customer: { email: 'link@console.test', first_name: 'Lee', last_name: 'Link' },
    description: 'Console refill',
    success_url: 'https://shop.example.com/thanks',
    cancel_url: 'https://shop.example.com/cart',
  });
  expect(link.status).toBe(201);
  const customer = await shop.api.post<{ id: string }>('/api/v2/customers', {
    email: email('subscriber'),
    first_name: 'Sam',
    last_name: 'Renew',
  });
  const pm = await shop.api.post<{ id: string }>(`/api/v2/customers/${customer.body.id}/payment-methods`, {
    card: cards.visa,
  });
  const sub = await shop.api.post<{ id: string }>('/api/v2/subscriptions', {
    customer_id: customer.body.id,
    payment_method_id: pm.body.id,
    amount_cents: 1500,
    currency: 'USD',
    interval: 'monthly',
    merchant_product_id: 'THERM',
  });
  expect(sub.status).toBe(201);
  const subscription = async () =>
    (await shop.api.get<{ status: string; cancel_at_period_end: boolean }>(`/api/v2/subscriptions/${sub.body.id}`))
      .body;
  const open = await shop.api.post<{ data: { checkout_id: string; checkout_url: string } }>(
    '/api/v2/checkout',
    checkoutBody([['CANDY', 'Chocolate candy bar', 399, 1]]),
  );
  const { checkout_id: checkoutId, checkout_url: checkoutUrl } = open.body.data;

  const { page } = await signedIn('support');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });

  // A payment link cancelled (after the confirmation): its checkout session, open until then, leaves the open checkouts.
  await page.locator(`#checkouts li[data-checkout-id="${link.body.checkout_id}"]`).waitFor();
  await page
    .locator('#payment-links li', { hasText: 'Console refill' })
    .getByRole('button', { name: 'Cancel Console refill' })
    .click();
  await page.locator('#payment-links li', { hasText: /^cancelled Console refill/ }).waitFor();
  expect(await page.locator(`#checkouts li[data-checkout-id="${link.body.checkout_id}"]`).count()).toBe(0);
  expect((await shop.api.get<{ status: string }>(`/api/v2/payment-links/${link.body.id}`)).body.status).toBe(
    'cancelled',
  );

  // A subscription cancelled at its period end, then resumed.
  const row = page.locator(`#subscriptions li[data-subscription-id="${sub.body.id}"]`);
  await row.getByRole('button', { name: `Cancel at period end ${sub.body.id}` }).click();
  await page.locator(`#subscriptions li[data-subscription-id="${sub.body.id}"][data-ending="true"]`).waitFor();
  expect(await row.textContent()).toContain(' · ends ');
  expect(await subscription()).toMatchObject({ status: 'active', cancel_at_period_end: true });
  expect(await axeViolations(page)).toEqual([]);
  await row.getByRole('button', { name: `Resume subscription ${sub.body.id}` }).click();
  await page.locator(`#subscriptions li[data-subscription-id="${sub.body.id}"]:not([data-ending])`).waitFor();
  expect(await row.getByRole('button', { name: `Cancel now ${sub.body.id}` }).isVisible()).toBe(true);
  expect(await subscription()).toMatchObject({ status: 'active', cancel_at_period_end: false });

  // The open checkout's hosted page URL, copied.
  await page
    .locator(`#checkouts li[data-checkout-id="${checkoutId}"]`)
    .getByRole('button', { name: `Copy URL of checkout ${checkoutId}` })
    .click();
  await page.locator('#connection', { hasText: 'Copied.' }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(checkoutUrl);
  const listed = await page
    .locator('#checkouts li[data-checkout-id]')
    .evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.checkoutId!));
  const statuses = await Promise.all(
    listed.map(
      async (id) => (await shop.api.get<{ data: { status: string } }>(`/api/v2/checkout/${id}`)).body.data.status,
    ),
  );
  expect(statuses.length).toBeGreaterThanOrEqual(1);
  expect(statuses.filter((s) => s !== 'open')).toEqual([]); // paid or closed ones are not listed

  // Support now has the live activity (it reads the webhooks resource), without the delivery replays it may not make.
  expect(await page.locator('#activity-panel').isVisible()).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  expect(await overflowing(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Support reads the webhook endpoints and their deliveries (one a writer could replay is made first), and changes none of them.
  const refusing = await startReceiver(() => 500);
  try {
    const hooks = await shop.api.post<{ id: string }>('/api/v2/webhook-endpoints', {
      url: `${refusing.url}/support-reads`,
      events: ['order.completed'],
    });
    expect(hooks.status).toBe(201);
    const paid = await shop.api.post<{ data: { checkout_id: string } }>(
      '/api/v2/checkout',
      checkoutBody([['CANDY', 'Chocolate candy bar', 399, 1]]),
    );
    expect(
      (await shop.api.post(`/api/v2/test-helpers/checkout/${paid.body.data.checkout_id}/pay`, { card: cards.visa }))
        .status,
    ).toBe(200);
    expect((await shop.api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 })).status).toBe(200); // the delivery worker runs
    await refusing.waitFor(1);
  } finally {
    await refusing.close();
  }
  await go(page, 'Webhooks');
  const unsent = page.locator('#settings tr[data-delivery-id]:not([data-status="succeeded"])');
  await unsent.first().waitFor();
  expect(await page.locator('#webhook-endpoints button:not(.link)').allTextContents()).toEqual([]); // no Replay, Disable, Edit, Recover…
  expect(await page.locator('#new-endpoint-form').count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);
}, 90_000);

test('a refund from the console: the HSA/FSA split shown before it is confirmed, then its audit entry', async () => {
  const { page } = await signedIn('support');
  await page.locator(`tr[data-order-id="${orderId}"] button`).click();
  await page.locator('#refund-form').waitFor();
  await page.getByLabel(/^Amount/).fill('10.00');
  expect(await page.locator('#refund-split').textContent()).toBe(
    'Refund $10.00: $7.57 to the HSA/FSA card, $2.43 to the regular card.',
  );
  let asked = '';
  page.removeAllListeners('dialog');
  page.on('dialog', (d) => {
    asked = d.message();
    void d.accept();
  });
  await page.getByLabel('Reason').selectOption('DAMAGED_PRODUCT');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.locator('#order-detail-body li', { hasText: /Refund re_\w+: \$10\.00/ }).waitFor();
  expect(asked).toBe('Refund $10.00: $7.57 to the HSA/FSA card, $2.43 to the regular card. Refund now?');
  const refundId = (await page.locator('#order-detail-body li', { hasText: /Refund re_/ }).textContent())!.match(
    /re_\w+/,
  )![0];

  // The audit log (an admin's page): the refund, by this member.
  await page.context().close();
  const admin = await signedIn('admin');
  await go(admin.page, 'Audit log');
  await admin.page.getByLabel('Action').selectOption('REFUND_CREATED');
  await admin.page.getByRole('button', { name: 'Filter' }).click();
  await admin.page.locator('#audit-table tr[data-action="refund_created"]', { hasText: refundId }).waitFor();
  await admin.page.waitForFunction(() => document.querySelectorAll('#audit-table tbody tr').length === 1); // the unfiltered first page (which has it too) is replaced
  expect(await admin.page.locator('#audit-table tbody tr').textContent()).toMatch(
    /refund created.*support-\w+@console\.test/,
  );
  expect(orderNumber).toBeTruthy();
}, 60_000);

test('team: an invitation link shown once, a role changed, a member removed', async () => {
  const { page } = await signedIn('owner');
  await go(page, 'Team');
  const invited = email('newcomer');
  await page.locator('#invite-email').fill(invited);
  await page.locator('#invite-role').selectOption('developer');
  await page.getByRole('button', { name: 'Invite' }).click();
  expect(await page.locator('#setup-url').inputValue()).toMatch(/\/console\/setup\?token=/);
  const row = page.locator('#team tr', { hasText: invited });
  await row.waitFor();
  await row.getByLabel(`Role of ${invited}`, { exact: true }).selectOption('support');
  await row.getByRole('button', { name: `Change role of ${invited}` }).click();
  await status(page)
    .filter({ hasText: `${invited} is now support.` })
    .waitFor();
  await page
    .locator('#team tr', { hasText: invited })
    .getByRole('button', { name: `Remove ${invited}` })
    .click();
  await status(page)
    .filter({ hasText: `${invited} removed.` })
    .waitFor();
  await page.locator('#team tr', { hasText: invited }).waitFor({ state: 'detached' }); // the list is drawn again after the message
}, 60_000);

test('axe-core finds nothing on any console page; at 390 px nothing scrolls sideways; mode switch to live and back', async () => {
  const { page } = await signedIn('owner');
  for (const hash of PAGES) {
    await page.goto(`${t.url}/dashboard${hash}`);
    await page.waitForFunction(() => document.body.dataset.connection === 'live');
    await page.waitForTimeout(300);
    expect([hash, await axeViolations(page)]).toEqual([hash, []]);
  }
  if (process.env.UPDATE_SCREENSHOT) {
    await page.goto(`${t.url}/dashboard#/settings/api-keys`);
    await page.locator('#api-keys table').waitFor();
    await page.screenshot({ path: 'docs/console.png', fullPage: true });
  }

  const phone = (await signedIn('owner', { width: 390, height: 844 })).page;
  const wide: [string, string[]][] = [];
  for (const hash of PAGES) {
    await phone.goto(`${t.url}/dashboard${hash}`);
    await ready(phone);
    await phone.waitForTimeout(300);
    const sideways = await overflowing(phone);
    if (sideways.length) wide.push([hash, sideways]);
  }
  expect(wide).toEqual([]);

  await page.getByRole('link', { name: 'Dashboard' }).click();
  // The switch is pressed once the dashboard is shown and connected: pressed while the route still changes, the
  // click can land during the re-render and the box's state is checked before the switch has taken.
  await page.waitForURL(/#\/$/);
  await page.locator('#dashboard-view').waitFor();
  await ready(page);
  await page.getByLabel('Live mode').check();
  await page.locator('#mode-banner.live').waitFor();
  await page.waitForFunction(() => document.body.dataset.connection === 'live');
  expect(await page.locator(`tr[data-order-id="${orderId}"]`).count()).toBe(0); // the test order is not in live mode
  await page.getByLabel('Live mode').uncheck();
  await page.locator('#mode-banner.test').waitFor();
  await page.locator(`tr[data-order-id="${orderId}"]`).waitFor();
}, 90_000);

describe('details a merchant meets', () => {
  test("a revoked key's secret leaves the screen", async () => {
    const { page } = await signedIn('owner');
    await go(page, 'API keys');
    await page.getByLabel('Name', { exact: true }).fill('Short-lived');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#new-secret').waitFor();
    await page.getByRole('button', { name: 'Revoke Short-lived' }).click();
    await status(page).filter({ hasText: 'Short-lived revoked.' }).waitFor();
    expect(await page.locator('#new-secret').count()).toBe(0);
  });

  test('Security: a QR code to scan; once two-factor is on, it says so once and offers no second setup', async () => {
    const { page } = await signedIn('developer');
    await go(page, 'Security');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const qr = page.getByRole('img', { name: /QR code of the otpauth URI/ });
    await qr.waitFor();
    // Drawn: dark modules on a light ground.
    const dark = await qr.evaluate((c) => {
      const canvas = c as HTMLCanvasElement;
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i] < 64) n++;
      return n / (pixels.length / 4);
    });
    expect(dark).toBeGreaterThan(0.2);
    expect(dark).toBeLessThan(0.8);
    const secret = await page.locator('#totp-secret').inputValue();
    await page
      .getByLabel('Code from the app')
      .fill(new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate());
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.locator('#recovery-codes li').first().waitFor();
    expect(await page.locator('#two-factor-state').textContent()).toBe('Two-factor authentication is on.');
    expect(await status(page).textContent()).not.toContain('is on');
    expect(await page.getByRole('button', { name: 'Set up an authenticator app' }).isVisible()).toBe(false);
    await page.reload();
    await ready(page);
    await page.locator('#two-factor-state', { hasText: 'is on' }).waitFor();
    expect(await page.getByRole('button', { name: 'Set up an authenticator app' }).isVisible()).toBe(false);
  });

  test('subscriptions and links by what they sell, an open checkout without an email, the connection not named like the mode', async () => {
    const { sub } = await subscribeWith(shop.api, cards.visa, { merchant_product_id: 'CANDY', amount_cents: 399 });
    // A link that takes the payer's details: its open checkout has no email yet.
    const link = await shop.api.post<{ id: string; checkout_id: string }>('/api/v2/payment-links', {
      products: [{ merchant_product_id: 'THERM', quantity: 2 }],
      currency: 'USD',
      collect_shipping_address: false,
    });
    expect(link.status).toBe(201);
    const { page } = await signedIn('owner');
    await page
      .locator(`#subscriptions li[data-subscription-id="${sub.id}"]`, { hasText: 'Chocolate candy bar' })
      .waitFor();
    expect(await page.locator(`#subscriptions li[data-subscription-id="${sub.id}"]`).textContent()).not.toContain(
      `${sub.id} ·`,
    );
    await page.locator('#payment-links li', { hasText: '2 × Digital thermometer' }).waitFor();
    expect(await page.locator('#payment-links').textContent()).not.toContain(link.body.id);
    const row = page.locator(`#checkouts li[data-checkout-id="${link.body.checkout_id}"]`);
    await row.waitFor();
    expect(await row.textContent()).not.toMatch(/·\s*·/);
    expect(await page.locator('#connection').textContent()).toBe('Connected: updates arrive as they happen');
  });

  test('at 390 px the table actions are on screen without swiping; axe finds nothing on the dashboard', async () => {
    const { page } = await signedIn('owner', { width: 390, height: 844 });
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${t.url}/dashboard#/settings/api-keys`);
    await page.locator('#api-keys-table tbody tr').first().waitFor();
    const revoke = page.getByRole('button', { name: /^Revoke / }).first();
    const box = (await revoke.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
  });
});
