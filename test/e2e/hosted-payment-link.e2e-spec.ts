/** A payment link's hosted page in a real headless browser (Debian Chromium via playwright-core). */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startStore, type StoreServer } from '../helpers/browser.js';
import { cards } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;
let browser: Browser;
let store: StoreServer;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  ({ t, api } = await startWithMerchant('Link page'));
  for (const [merchant_product_id, name, price] of [
    ['THERM', 'Digital thermometer', 2000],
    ['CANDY', 'Chocolate candy bar', 1000],
  ] as const) {
    expect((await api.post('/api/v2/products', { name, price, currency: 'USD', merchant_product_id })).status).toBe(
      201,
    );
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
const customer = { email: 'pat@example.com', first_name: 'Pat', last_name: 'Lee' };

async function createLink(body: object, via = api) {
  const res = await via.post('/api/v2/payment-links', {
    success_url: `${store.url}/thanks`,
    cancel_url: `${store.url}/cart`,
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** Opens `url` in a fresh context; collects CSP violations, script errors and dialogs. */
async function open(url: string) {
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
  const response = await page.goto(url);
  return { page, problems, status: response?.status() };
}

async function fillCard(page: Page, slot: 'card' | 'hsa_fsa_card', card: Card) {
  await page.fill(`#${slot}-number`, card.number.replace(/(\d{4})(?=\d)/g, '$1 '));
  await page.fill(`#${slot}-exp_month`, String(card.exp_month));
  await page.fill(`#${slot}-exp_year`, String(card.exp_year));
  await page.fill(`#${slot}-cvc`, card.cvc);
}

const text = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();

async function fillShipping(page: Page) {
  await page.getByLabel('Address', { exact: true }).fill('12 Elm St');
  await page.getByLabel('City').fill('Austin');
  await page.getByLabel('State').fill('TX');
  await page.getByLabel('ZIP code').fill('78701');
}

test('a split link paid with an HSA/FSA card and a card lands on success_url; client_reference_id reaches the order', async () => {
  const link = await createLink({
    products: [
      { merchant_product_id: 'THERM', quantity: 1 },
      { merchant_product_id: 'CANDY', quantity: 1 },
    ],
    currency: 'USD',
    customer,
  });
  const { page, problems, status } = await open(`${link.url}?client_reference_id=crm-7`);
  expect(status).toBe(200);
  expect(await text(page, '#split')).toContain('$20.00');
  expect(await page.locator('#customer').count()).toBe(0); // the link names its customer
  expect(await text(page, '.customer')).toContain('pat@example.com');
  await fillCard(page, 'hsa_fsa_card', cards.hsa);
  await fillCard(page, 'card', cards.visa);
  await fillShipping(page);
  await page.click('#pay-button');
  await page.waitForURL(`${store.url}/thanks?*`);
  const landed = new URL(page.url());
  expect(landed.searchParams.get('payment_link_id')).toBe(link.id);
  const orderId = landed.searchParams.get('order_id')!;
  const order = (await api.get(`/api/v2/orders/${orderId}`)).body;
  expect(order).toMatchObject({
    status: 'completed',
    payment_link_id: link.id,
    client_reference_id: 'crm-7',
    reference_id: null,
    amount: 3000,
  });
  expect(order.payments.map((p: { payment_method: string; amount: number }) => [p.payment_method, p.amount])).toEqual([
    ['hsa_fsa_card', 2000],
    ['card', 1000],
  ]);
  expect((await api.get(`/api/v2/payment-links/${link.id}`)).body).toMatchObject({
    status: 'paid',
    order: { id: orderId, status: 'completed' },
  });

  const again = await open(link.url);
  expect(await text(again.page, 'h1')).toBe('This payment link has been paid');
  expect(await again.page.locator('#pay-form').count()).toBe(0);
  expect([...problems, ...again.problems]).toEqual([]);
});

test('a link without a customer asks for the payer’s details, shows errors next to them, then pays', async () => {
  const link = await createLink({ amount: 4200, description: 'Deposit for custom insoles', currency: 'usd' });
  const { page, problems } = await open(link.url);
  expect(await page.locator('#customer').isVisible()).toBe(true);
  expect(await page.locator('#hsa_fsa_card').count()).toBe(0); // nothing is eligible: one regular card
  await fillCard(page, 'card', cards.visa);
  await page.fill('#customer-email', 'not-an-email');
  await page.fill('#customer-first_name', 'Sam');
  await page.click('#pay-button');
  await page.locator('#customer-email-error', { hasText: 'email' }).waitFor();
  expect(await page.getAttribute('#customer-email', 'aria-invalid')).toBe('true');
  expect(await text(page, '#customer-last_name-error')).toContain('required');
  await page.fill('#customer-email', 'sam@example.com');
  await page.fill('#customer-last_name', 'Roe');
  await page.click('#pay-button');
  await page.waitForURL(`${store.url}/thanks?*`);
  const orderId = new URL(page.url()).searchParams.get('order_id')!;
  expect((await api.get(`/api/v2/orders/${orderId}`)).body).toMatchObject({
    amount: 4200,
    customer: { email: 'sam@example.com', first_name: 'Sam', last_name: 'Roe' },
    client_reference_id: null,
  });
  expect(problems).toEqual([]);
});

test('cancel goes to cancel_url with the link id; nothing is paid', async () => {
  const link = await createLink({
    products: [{ merchant_product_id: 'THERM', quantity: 2 }],
    currency: 'USD',
    customer,
  });
  const { page, problems } = await open(link.url);
  expect(await page.locator('a.cancel').getAttribute('href')).toBe(`${store.url}/cart?payment_link_id=${link.id}`);
  await page.click('a.cancel');
  await page.waitForURL(`${store.url}/cart?*`);
  expect(store.visits).toContain(`/cart?payment_link_id=${link.id}`);
  expect((await api.get(`/api/v2/payment-links/${link.id}`)).body).toMatchObject({ status: 'active', order: null });
  expect(problems).toEqual([]);
});

test('expired and cancelled links show a clear page with a way back and no form', async () => {
  const clocked = client(t.url, (await t.merchant('Clocked')).test_api_key);
  await clocked.post('/api/v2/products', {
    name: 'Digital thermometer',
    price: 2000,
    currency: 'USD',
    merchant_product_id: 'THERM',
  });
  const soon = await createLink(
    {
      products: [{ merchant_product_id: 'THERM', quantity: 1 }],
      currency: 'USD',
      customer,
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
    },
    clocked,
  );
  expect((await clocked.post('/api/v2/test-helpers/advance-clock', { seconds: 7200 })).status).toBe(200);
  const expired = await open(soon.url);
  expect(expired.status).toBe(200);
  expect(await text(expired.page, 'h1')).toBe('This payment link has expired');
  expect(await text(expired.page, '.notice')).toContain('Nothing was charged');
  expect(await expired.page.locator('#pay-form').count()).toBe(0);
  expect(await expired.page.locator('.notice a').getAttribute('href')).toBe(
    `${store.url}/cart?payment_link_id=${soon.id}`,
  );

  const cancelled = await createLink({ amount: 500, description: 'Gift card', currency: 'usd' });
  await api.post(`/api/v2/payment-links/${cancelled.id}/cancel`, { reason: 'Sold out' });
  const page = await open(cancelled.url);
  expect(await text(page.page, 'h1')).toBe('This payment link was cancelled');
  expect(await page.page.locator('#pay-form').count()).toBe(0);

  const unknown = await open(`${t.url}/pay/plink_000000000000000000000000`);
  expect(unknown.status).toBe(404);
  expect([...expired.problems, ...page.problems, ...unknown.problems]).toEqual([]);
});

test('a link without a customer asks for the email in a styled field at least 44 px tall', async () => {
  const link = await createLink({ amount: 2500, currency: 'USD', description: 'Consultation' });
  const { page, problems } = await open(link.url);
  const email = (await page.locator('#customer-email').boundingBox())!;
  const name = (await page.locator('#customer-first_name').boundingBox())!;
  expect(email.height).toBeGreaterThanOrEqual(44);
  expect(email.height).toBe(name.height);
  const style = (id: string) =>
    page.evaluate(
      `(() => { const s = getComputedStyle(document.getElementById('${id}')); return [s.borderTopWidth, s.borderTopColor, s.borderRadius, s.paddingLeft]; })()`,
    );
  expect(await style('customer-email')).toEqual(await style('customer-first_name'));
  expect(problems).toEqual([]);
});

test('the payment-link page names the merchant being paid', async () => {
  const link = await createLink({ amount: 2500, currency: 'USD', description: 'Consultation' });
  const { page, problems } = await open(link.url);
  expect(await text(page, '#merchant-name')).toBe('Link page');
  expect(await page.title()).toContain('Link page');
  expect(problems).toEqual([]);
});

test('a link whose products ship asks for a shipping address on the page (required); the order carries it; an amount link asks none and its order has null addresses', async () => {
  const link = await createLink({
    products: [{ merchant_product_id: 'THERM', quantity: 1 }],
    currency: 'USD',
    customer,
  });
  expect(link.collect_shipping_address).toBe(true);
  const { page, problems } = await open(link.url);
  expect(await page.locator('#shipping_address').isVisible()).toBe(true);
  expect(await page.getAttribute('#shipping_address-address_line_1', 'autocomplete')).toBe('shipping address-line1');
  await fillCard(page, 'hsa_fsa_card', cards.hsa);
  await page.click('#pay-button');
  await page.locator('#shipping_address-address_line_1-error', { hasText: 'required' }).waitFor(); // asked for, not skipped
  expect(await text(page, '#shipping_address-city-error')).toBe('City is required');
  await fillShipping(page);
  await page.click('#pay-button');
  await page.waitForURL(`${store.url}/thanks?*`);
  const order = (await api.get(`/api/v2/orders/${new URL(page.url()).searchParams.get('order_id')}`)).body;
  const shipped = { address_line_1: '12 Elm St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
  expect(order.customer.shipping_address).toMatchObject(shipped);
  expect(order.customer.billing_address).toMatchObject(shipped);

  const amountLink = await createLink({ amount: 2500, currency: 'USD', description: 'Consultation', customer });
  expect(amountLink.collect_shipping_address).toBe(false);
  const second = await open(amountLink.url);
  expect(await second.page.locator('#shipping_address').count()).toBe(0);
  await fillCard(second.page, 'card', cards.visa);
  await second.page.click('#pay-button');
  await second.page.waitForURL(`${store.url}/thanks?*`);
  const orderId = new URL(second.page.url()).searchParams.get('order_id')!;
  const plain = (await api.get(`/api/v2/orders/${orderId}`)).body;
  expect(plain.customer).toMatchObject({ shipping_address: null, billing_address: null }); // not {"city": ""…}
  expect((await api.get(`/api/v2/checkout/${amountLink.checkout_id}`)).body.data).toMatchObject({
    shipping_info: null,
    billing_info: null,
  });
  const gid = Buffer.from(`Order:${orderId}`).toString('base64url');
  const graph = await api.graphql(
    `{ order(id: "${gid}") { customer { shippingAddress { city } billingAddress { city } } } }`,
  );
  expect(graph.body.errors).toBeUndefined();
  expect(graph.body.data.order.customer).toEqual({ shippingAddress: null, billingAddress: null });
  // A merchant may turn the question off for products that do not ship.
  const digital = await createLink({
    products: [{ merchant_product_id: 'THERM', quantity: 1 }],
    currency: 'USD',
    customer,
    collect_shipping_address: false,
  });
  expect(digital.collect_shipping_address).toBe(false);
  expect(
    (await api.post(`/api/v2/test-helpers/payment-links/${digital.id}/pay`, { hsa_fsa_card: cards.hsa })).status,
  ).toBe(200);
  // Asked for and missing over the API: a 422 naming the field.
  const other = await createLink({
    products: [{ merchant_product_id: 'THERM', quantity: 1 }],
    currency: 'USD',
    customer,
  });
  const missing = await api.post(`/api/v2/test-helpers/payment-links/${other.id}/pay`, { hsa_fsa_card: cards.hsa });
  expect(missing.status).toBe(422);
  expect(missing.body.error).toMatchObject({ code: 'validation_error', param: 'shipping_address' });
  expect([...problems, ...second.problems]).toEqual([]);
});
