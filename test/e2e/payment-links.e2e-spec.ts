import type { CheckoutResource } from '../../src/modules/checkout/checkout.resource.js';
import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import type { PaymentLinkResource } from '../../src/modules/payment-links/payment-link.resource.js';
import type { RefundResource } from '../../src/modules/refunds/refund.resource.js';
import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import { address, cards, createProducts } from '../helpers/fixtures.js';
import { client, type Client, type Envelope, type ErrorBody, type FieldError, type Page } from '../helpers/http.js';
import { statementsOf } from '../helpers/sql.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';

let t: TestApp;
let keys: CreatedMerchant;
let api: Client;
const db = () => t.orm.em.fork().getConnection();
const events = (type: string, id: string) =>
  db().execute<{ type: string; data: Record<string, unknown> }[]>(
    `select type, data from events where type = ? and data->>'id' = ? order by created_at`,
    [type, id],
  );

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
// A merchant (its catalog, its links, its test clock) per test: no test reads what another one made.
beforeEach(async () => {
  ({ keys, api } = await newMerchant(t, 'Links'));
  await createProducts(api, [
    ['THERM', 'Digital thermometer', 2000],
    ['CANDY', 'Chocolate candy bar', 1000],
    ['VIT', 'Daily multivitamin', 1299],
  ]);
  const old = {
    name: 'Digital thermometer v1',
    price: 1500,
    currency: 'USD',
    merchant_product_id: 'OLD',
    status: 'inactive',
  };
  expect((await api.post('/api/v2/products', old)).status).toBe(201);
});
afterAll(() => t.close());

type Link = PaymentLinkResource;
const customer = { email: 'Pat.Lee@example.com', first_name: 'Pat', last_name: 'Lee' };
const split = {
  products: [
    { merchant_product_id: 'THERM', quantity: 1 },
    { merchant_product_id: 'CANDY', quantity: 1 },
  ],
  currency: 'USD',
  customer,
};
const create = async (body: object, via = api) => {
  const res = await via.post<Link>('/api/v2/payment-links', body);
  expect(res.status).toBe(201);
  return res.body;
};
const getLink = async (id: string, via = api) => (await via.get<Link>(`/api/v2/payment-links/${id}`)).body;
const getCheckout = async (id: string) =>
  (await api.get<Envelope<CheckoutResource>>(`/api/v2/checkout/${id}`)).body.data;
/** Pays a link through the test helper, as its hosted page does: the order, or `{ error }` when refused. */
const payLink = (id: string, body: object, via = api) => via.post(`/api/v2/test-helpers/payment-links/${id}/pay`, body);
/** The ids of the links a list query answers. */
const listed = async (query: string, via = api) =>
  (await via.get<Page<Link>>(`/api/v2/payment-links?${query}`)).body.data.map((l) => l.id);
const cancelLink = (id: string, body?: object) =>
  api.post<Link & ErrorBody>(`/api/v2/payment-links/${id}/cancel`, body);
/** One hour from now, as an ISO timestamp. */
const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

describe('creating payment links', () => {
  test('products are priced from the catalog; the link lives 7 days and reads back the same', async () => {
    const before = Date.now();
    const link = await create({
      ...split,
      success_url: 'https://shop.example.com/thanks',
      metadata: { campaign: 'email' },
    });
    expect(link).toEqual({
      id: expect.stringMatching(/^plink_[0-9A-Za-z]{24}$/),
      object: 'payment_link',
      livemode: false,
      url: `${t.url}/pay/${link.id}`,
      amount: 3000,
      currency: 'usd',
      description: null,
      payment_type: 'one_time',
      status: 'active',
      customer,
      customer_id: null,
      collect_shipping_address: true,
      products: [
        {
          merchant_product_id: 'THERM',
          name: 'Digital thermometer',
          quantity: 1,
          price: 2000,
          hsa_fsa_eligible: true,
          requires_lmn: false,
        },
        {
          merchant_product_id: 'CANDY',
          name: 'Chocolate candy bar',
          quantity: 1,
          price: 1000,
          hsa_fsa_eligible: false,
          requires_lmn: false,
        },
      ],
      checkout_id: expect.stringMatching(/^cs_/),
      order: null,
      success_url: 'https://shop.example.com/thanks',
      cancel_url: null,
      metadata: { campaign: 'email' },
      subscription: null,
      expires_at: expect.any(String),
      created_at: expect.any(String),
      paid_at: null,
      cancelled_at: null,
      cancellation_reason: null,
    });
    const lifetime = new Date(link.expires_at).getTime() - before;
    expect(lifetime).toBeGreaterThanOrEqual(7 * 86400_000 - 1000);
    expect(lifetime).toBeLessThan(7 * 86400_000 + 60_000);
    expect(await getLink(link.id)).toEqual(link);
  });

  test('the link owns an open checkout with the HSA/FSA split', async () => {
    const link = await create(split);
    const checkout = await api.get<Envelope<CheckoutResource>>(`/api/v2/checkout/${link.checkout_id}`);
    expect(checkout.status).toBe(200);
    expect(checkout.body.data).toMatchObject({
      checkout_id: link.checkout_id,
      status: 'open',
      type: 'split',
      payment_link_id: link.id,
      checkout_url: link.url,
      expires_at: link.expires_at,
      amounts: { subtotal: 3000, hsa_amount: 2000, regular_amount: 1000, total: 3000 },
      order: null,
    });
  });

  test('an amount and a description make a single regular line', async () => {
    const link = await create({
      amount: 4500,
      description: 'Consultation follow-up',
      currency: 'usd',
      expires_at: inAnHour(),
    });
    expect(link).toMatchObject({ amount: 4500, description: 'Consultation follow-up', products: [], customer: null });
    expect(await getCheckout(link.checkout_id)).toMatchObject({
      type: 'regular',
      amounts: { hsa_amount: 0, regular_amount: 4500, total: 4500 },
      line_items: [{ name: 'Consultation follow-up', price: 4500, quantity: 1, hsa_fsa_eligible: false }],
    });
  });

  describe('bad inputs: each bad field in details', () => {
    /** Posts a link that must be refused with `status`; its error. */
    const bad = async (body: object, status = 422) => {
      const res = await api.post<ErrorBody>('/api/v2/payment-links', body);
      expect(res.status).toBe(status);
      return res.body.error;
    };
    const details = async (body: object) => (await bad(body)).details as FieldError[];
    const fields = async (body: object) => (await details(body)).map((d) => d.field).sort();

    test('unknown and inactive products are each named', async () => {
      const unknown = await bad({
        products: [
          { merchant_product_id: 'THERM', quantity: 1 },
          { merchant_product_id: 'NOPE', quantity: 1 },
          { merchant_product_id: 'OLD', quantity: 2 },
        ],
        currency: 'USD',
      });
      expect(unknown).toMatchObject({ code: 'validation_error', param: 'products.1.merchant_product_id' });
      expect(unknown.details).toEqual([
        { field: 'products.1.merchant_product_id', message: "no product 'NOPE' in your catalog" },
        { field: 'products.2.merchant_product_id', message: "product 'OLD' is inactive and cannot be sold" },
      ]);
    });

    const badThree = ['currency', 'extra', 'success_url'];
    test.each([
      ['products and an amount', { ...split, amount: 100, description: 'x' }, ['amount']],
      ['neither products nor an amount', { currency: 'USD' }, ['products']],
      ['an amount without a description', { amount: 100, currency: 'USD' }, ['description']],
      [
        'an unknown currency, a non-http success_url and an unknown field',
        { ...split, currency: 'XYZ', success_url: 'ftp://x', extra: true },
        badThree,
      ],
      ['a subscription without its terms', { ...split, payment_type: 'subscription' }, ['subscription']],
      ['a malformed customer_id', { ...split, customer_id: 'cus_x' }, ['customer_id']],
      [
        'a quantity of 0',
        { ...split, products: [{ merchant_product_id: 'THERM', quantity: 0 }] },
        ['products.0.quantity'],
      ],
    ])('%s', async (_case, body, expected) => {
      expect(await fields(body)).toEqual(expected);
    });

    test.each([0, -5, 1.5])('an amount of %p is not a positive whole number of cents', async (amount) => {
      expect(await details({ amount, description: 'x', currency: 'USD' })).toEqual([
        { field: 'amount', message: expect.any(String) },
      ]);
    });

    test('expires_at must be in the future and at most 90 days from now', async () => {
      const past = await bad({ ...split, expires_at: new Date(Date.now() - 1000).toISOString() });
      expect(past).toMatchObject({
        param: 'expires_at',
        details: [{ field: 'expires_at', message: 'must be in the future' }],
      });
      const far = new Date(Date.now() + 91 * 86400_000).toISOString();
      expect(await details({ ...split, expires_at: far })).toEqual([
        { field: 'expires_at', message: 'must be at most 90 days from now' },
      ]);
    });

    test("the currency must be the products' currency", async () => {
      expect((await details({ ...split, currency: 'EUR' }))[0]).toEqual({
        field: 'currency',
        message: "must be the currency of product 'THERM' (USD)",
      });
    });
  });

  describe('customer_id', () => {
    const withCustomer = (customer_id: string) => ({ amount: 100, description: 'x', currency: 'usd', customer_id });
    const storeCustomer = async (via: Client, body: object) =>
      (await via.post<{ id: string }>('/api/v2/customers', body)).body.id;

    test('names a stored customer of this account, whose details the link takes', async () => {
      const stored = await storeCustomer(api, { email: 'stored@example.com', first_name: 'Sto', last_name: 'Red' });
      const link = await create(withCustomer(stored));
      expect(link).toMatchObject({
        customer_id: stored,
        customer: { email: 'stored@example.com', first_name: 'Sto', last_name: 'Red' },
      });
    });

    test("another merchant's customer or an unknown id is 404 customer_not_found", async () => {
      const other = client(t.url, (await t.merchant('Foreign')).test_api_key);
      const foreign = await storeCustomer(other, customer);
      for (const id of [foreign, 'cus_nope']) {
        const res = await api.post<ErrorBody>('/api/v2/payment-links', withCustomer(id));
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'customer_not_found', param: 'customer_id' });
      }
    });

    test('a live link cannot name a test-mode customer (customer_not_found)', async () => {
      const stored = await storeCustomer(api, { email: 'stored@example.com', first_name: 'Sto', last_name: 'Red' });
      const live = client(t.url, keys.live_api_key);
      expect((await live.post<ErrorBody>('/api/v2/payment-links', withCustomer(stored))).body.error.code).toBe(
        'customer_not_found',
      );
    });
  });

  test('an Idempotency-Key replays the same link', async () => {
    const key = crypto.randomUUID();
    const a = await api.post<Link>('/api/v2/payment-links', split, { 'idempotency-key': key });
    const b = await api.post<Link>('/api/v2/payment-links', split, { 'idempotency-key': key });
    expect(b.body.id).toBe(a.body.id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('paying a link', () => {
  /** A split link paid on both cards with client_reference_id crm-42: the link and its order. */
  async function paidSplitLink() {
    const link = await create(split);
    const paid = await payLink(link.id, {
      shipping_address: address,
      hsa_fsa_card: cards.hsa,
      card: cards.visa,
      client_reference_id: 'crm-42',
    });
    expect(paid.status).toBe(200);
    return { link, order: paid.body as OrderResource };
  }

  test('a split pay makes one order with payment_link_id and client_reference_id, paid on both cards', async () => {
    const { link, order } = await paidSplitLink();
    expect(order).toMatchObject({
      checkout_id: link.checkout_id,
      payment_link_id: link.id,
      client_reference_id: 'crm-42',
      reference_id: null,
      amount: 3000,
      status: 'completed',
      payment_status: 'captured',
    });
    expect(order.customer).toMatchObject({ email: customer.email, first_name: 'Pat' });
    expect(order.payments.map((p) => [p.payment_method, p.amount])).toEqual([
      ['hsa_fsa_card', 2000],
      ['card', 1000],
    ]);
  });

  test('the paid link shows its order; its checkout is paid', async () => {
    const { link, order } = await paidSplitLink();
    const after = await getLink(link.id);
    expect(after).toMatchObject({
      status: 'paid',
      paid_at: expect.any(String),
      order: { id: order.id, status: 'completed', paid_at: after.paid_at },
    });
    expect(await getCheckout(link.checkout_id)).toMatchObject({
      status: 'paid',
      order: { id: order.id, payment_link_id: link.id },
    });
  });

  test('the order events and payment_link.paid carry the link and the client reference', async () => {
    const { link, order } = await paidSplitLink();
    for (const type of ['order.created', 'order.completed']) {
      const [e] = await events(type, order.id);
      expect(e.data).toMatchObject({ payment_link_id: link.id, client_reference_id: 'crm-42', reference_id: null });
    }
    const [paidEvent] = await events('payment_link.paid', link.id);
    expect(paidEvent.data).toMatchObject({
      id: link.id,
      status: 'paid',
      order_id: order.id,
      client_reference_id: 'crm-42',
      amount: 3000,
      currency: 'usd',
      order: { id: order.id, status: 'completed' },
    });
  });

  test("the refund events of a link's order carry the link and the client reference", async () => {
    const { link, order } = await paidSplitLink();
    const refund = await api.post<Envelope<RefundResource>>('/api/v2/refunds', {
      order_id: order.id,
      amount: 1500,
      reason: 'customer_request',
    });
    expect(refund.status).toBe(201);
    await api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 });
    for (const type of ['refund.created', 'refund.succeeded']) {
      const [e] = await events(type, refund.body.data.id);
      expect(e.data).toMatchObject({
        order_id: order.id,
        payment_link_id: link.id,
        client_reference_id: 'crm-42',
        reference_id: null,
      });
    }
  });

  test('a paid link is not paid again (through the link or its checkout) nor cancelled: one order', async () => {
    const { link, order } = await paidSplitLink();
    const again = await payLink(link.id, { shipping_address: address, card: cards.visa });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'paid', order_id: order.id } });
    const viaCheckout = await api.post<ErrorBody>(`/api/v2/test-helpers/checkout/${link.checkout_id}/pay`, {
      card: cards.visa,
    });
    expect(viaCheckout.body.error.code).toBe('invalid_state');
    const cancel = await cancelLink(link.id, {});
    expect(cancel.status).toBe(400);
    expect(cancel.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'paid' } });
    const [{ n }] = await db().execute<{ n: number }[]>(
      `select count(*)::int as n from orders where payment_link_id = ?`,
      [link.id],
    );
    expect(n).toBe(1);
  });

  describe('a link without a customer', () => {
    const deposit = () => create({ amount: 2500, description: 'Deposit', currency: 'usd' });

    test("needs the payer's details (422 on customer)", async () => {
      const link = await deposit();
      const missing = await payLink(link.id, { shipping_address: address, card: cards.visa });
      expect(missing.status).toBe(422);
      expect(missing.body.error).toMatchObject({ code: 'validation_error', param: 'customer' });
    });

    test('a declined card fails its order and leaves the link active', async () => {
      const link = await deposit();
      const declined = await payLink(link.id, { shipping_address: address, card: cards.declined, customer });
      expect(declined.status).toBe(402);
      expect(declined.body.error).toMatchObject({ code: 'card_declined', details: { decline_code: 'card_declined' } });
      const failed = (await api.get<OrderResource>(`/api/v2/orders/${declined.body.error.details.order_id}`)).body;
      expect(failed).toMatchObject({ status: 'failed', payment_link_id: link.id, reference_id: null });
      expect((await getLink(link.id)).status).toBe('active');
    });

    test("takes the payer's, and is found by the payer's email", async () => {
      const link = await deposit();
      const paid = await payLink(link.id, {
        shipping_address: address,
        card: cards.visa,
        customer: { ...customer, email: 'payer@example.com' },
      });
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ client_reference_id: null, customer: { email: 'payer@example.com' } });
      expect(await listed('customer_email=PAYER@example.com')).toEqual([link.id]);
    });
  });

  test('20 concurrent pays of one link make one order', async () => {
    const link = await create(split);
    const pay = (i: number) =>
      payLink(link.id, { shipping_address: address, card: cards.visa, client_reference_id: `try-${i}` });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => pay(i)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The others find the link paid, or its one payment attempt still open: never a second charge.
    for (const r of results.filter((r) => r.status !== 200))
      expect([`400 invalid_state`, `409 payment_in_progress`]).toContain(`${r.status} ${r.body.error.code}`);
    const winner = results.find((r) => r.status === 200)!.body as OrderResource;
    const rows = await db().execute<{ id: string; client_reference_id: string }[]>(
      `select id, client_reference_id from orders where payment_link_id = ?`,
      [link.id],
    );
    expect(rows).toEqual([{ id: winner.id, client_reference_id: winner.client_reference_id }]);
    expect((await getLink(link.id)).order!.id).toBe(winner.id);
    expect(await events('payment_link.paid', link.id)).toHaveLength(1);
  });

  describe('a subscription link', () => {
    const monthly = {
      products: [{ merchant_product_id: 'VIT', quantity: 1 }],
      currency: 'USD',
      customer,
      payment_type: 'subscription',
      subscription: { interval: 'monthly' },
    };
    /** The monthly link, paid by card with client_reference_id sub-ref-1. */
    async function paidSubscriptionLink() {
      const link = await create(monthly);
      const res = await payLink(link.id, {
        shipping_address: address,
        card: cards.visa,
        client_reference_id: 'sub-ref-1',
      });
      expect(res.status).toBe(200);
      return link;
    }

    test('takes the subscription terms, with their defaults', async () => {
      const link = await create(monthly);
      expect(link).toMatchObject({
        payment_type: 'subscription',
        subscription: { interval: 'monthly', interval_count: 1, trial_period_days: 0 },
        amount: 1299,
      });
    });

    test('once paid, creates the customer, the stored card and the subscription; its first invoice is the link order', async () => {
      const link = await paidSubscriptionLink();
      const paid = await getLink(link.id);
      expect(paid).toMatchObject({ status: 'paid', order: { id: expect.stringMatching(/^ord_/) } });
      const order = (await api.get<OrderResource>(`/api/v2/orders/${paid.order!.id}`)).body;
      expect(order).toMatchObject({
        is_recurring: true,
        payment_link_id: link.id,
        client_reference_id: 'sub-ref-1',
        amount: 1299,
      });
      const stored = (
        await api.get<Page<{ id: string }>>(`/api/v2/customers?email=${encodeURIComponent(customer.email)}`)
      ).body.data;
      expect(stored).toHaveLength(1);
      const subs = (await api.get<Page<SubscriptionResource>>(`/api/v2/subscriptions?customer_id=${stored[0].id}`)).body
        .data;
      expect(subs).toHaveLength(1);
      expect(subs[0]).toMatchObject({
        status: 'active',
        amount_cents: 1299,
        interval: 'monthly',
        payment_method: { type: 'card', last4: '4242' },
      });
      const invoice = (await api.get(`/api/v2/subscriptions/${subs[0].id}/invoices/${subs[0].latest_invoice_id}`)).body;
      expect(invoice).toMatchObject({ status: 'paid', order_id: order.id, attempts: [] });
    });

    test('is listed by payment_type=subscription and is not paid twice', async () => {
      const link = await paidSubscriptionLink();
      expect(await listed('payment_type=subscription')).toEqual([link.id]);
      expect((await payLink(link.id, { shipping_address: address, card: cards.visa })).body.error.code).toBe(
        'invalid_state',
      );
    });
  });

  describe('live keys', () => {
    test('get 403 from the pay helper and 404 for a test link (read or cancel)', async () => {
      const link = await create(split);
      const live = client(t.url, keys.live_api_key);
      expect((await payLink(link.id, { card: cards.visa }, live)).status).toBe(403);
      expect((await live.get(`/api/v2/payment-links/${link.id}`)).status).toBe(404);
      expect((await live.post(`/api/v2/payment-links/${link.id}/cancel`, {})).status).toBe(404);
    });

    test('make live links, which only live keys see', async () => {
      await create(split);
      const live = client(t.url, keys.live_api_key);
      const liveLink = await create({ amount: 100, description: 'Live', currency: 'usd' }, live);
      expect(liveLink.livemode).toBe(true);
      expect(await listed('limit=100', live)).toEqual([liveLink.id]);
      expect((await api.get(`/api/v2/payment-links/${liveLink.id}`)).status).toBe(404);
    });
  });
});

describe('cancel', () => {
  test('an over-long reason is refused', async () => {
    const link = await create(split);
    const long = await cancelLink(link.id, { reason: 'x'.repeat(501) });
    expect(long.status).toBe(422);
    expect(long.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'reason', message: 'must be at most 500 characters' }],
    });
  });

  test('keeps the reason and emits payment_link.cancelled', async () => {
    const link = await create(split);
    const cancelled = await cancelLink(link.id, { reason: 'Customer ordered by phone' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      id: link.id,
      amount: 3000,
      currency: 'usd',
      status: 'cancelled',
      cancelled_at: expect.any(String),
      cancellation_reason: 'Customer ordered by phone',
    });
    const [e] = await events('payment_link.cancelled', link.id);
    expect(e.data).toMatchObject({
      id: link.id,
      status: 'cancelled',
      cancellation_reason: 'Customer ordered by phone',
      cancelled_at: cancelled.body.cancelled_at,
    });
  });

  test('a cancelled link is never reactivated: not cancelled again, not paid; its checkout is expired', async () => {
    const link = await create(split);
    expect((await cancelLink(link.id, { reason: 'Customer ordered by phone' })).status).toBe(200);
    const again = await cancelLink(link.id);
    expect(again.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'cancelled' } });
    const pay = await payLink(link.id, { shipping_address: address, card: cards.visa });
    expect(pay.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'cancelled' } });
    expect((await getCheckout(link.checkout_id)).status).toBe('expired');
  });

  test('an unknown link is not_found', async () => {
    expect((await cancelLink('plink_nope')).body.error.code).toBe('not_found');
  });
});

describe('expiry on the test clock (advance-clock runs the sweep)', () => {
  /** A link expiring in an hour and one with the default week, then the clock moved 2 hours. */
  async function afterTwoHours() {
    const link = await create({ amount: 700, description: 'Soon', currency: 'usd', expires_at: inAnHour() });
    const later = await create({ amount: 700, description: 'Later', currency: 'usd' });
    expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds: 2 * 3600 })).status).toBe(200);
    return { link, later };
  }

  test('a link past its expires_at is expired, with its event; a later one stays active', async () => {
    const { link, later } = await afterTwoHours();
    const [row] = await db().execute<{ status: string }[]>(`select status from payment_links where id = ?`, [link.id]);
    expect(row.status).toBe('expired');
    expect((await getLink(link.id)).status).toBe('expired');
    expect((await getLink(later.id)).status).toBe('active');
    expect(await events('payment_link.expired', link.id)).toHaveLength(1);
  });

  test('an expired link is neither paid nor cancelled', async () => {
    const { link } = await afterTwoHours();
    expect((await payLink(link.id, { card: cards.visa, customer })).body.error).toMatchObject({
      code: 'invalid_state',
      details: { status: 'expired' },
    });
    expect((await cancelLink(link.id)).body.error).toMatchObject({
      code: 'invalid_state',
      details: { status: 'expired' },
    });
  });

  test('status=expired and status=active list them apart', async () => {
    const { link, later } = await afterTwoHours();
    expect(await listed('status=expired')).toEqual([link.id]);
    expect(await listed('status=active')).toEqual([later.id]);
  });
});

describe('listing', () => {
  /** Five links L0..L4 (odd ones for odd@example.com), L1 cancelled; their ids oldest first. */
  async function fiveLinks() {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const email = i % 2 ? 'odd@example.com' : 'even@example.com';
      ids.push(
        (await create({ amount: 100 + i, description: `L${i}`, currency: 'usd', customer: { ...customer, email } })).id,
      );
    }
    await cancelLink(ids[1]);
    return ids;
  }
  const aMinuteFromNow = () => encodeURIComponent(new Date(Date.now() + 60_000).toISOString());

  test('newest first, in keyset pages', async () => {
    const ids = await fiveLinks();
    const first = await api.get<Page<Link>>('/api/v2/payment-links?limit=2');
    expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: ids[3] });
    expect(first.body.data.map((l) => l.id)).toEqual([ids[4], ids[3]]);
    expect(await listed(`limit=10&starting_after=${ids[3]}`)).toEqual([ids[2], ids[1], ids[0]]);
  });

  test('every filter of the spec: status, customer_email (any case), payment_type, created_after/before', async () => {
    const ids = await fiveLinks();
    expect(await listed('status=cancelled')).toEqual([ids[1]]);
    expect(await listed('customer_email=ODD@EXAMPLE.COM')).toEqual([ids[3], ids[1]]);
    expect(await listed('payment_type=one_time&limit=100')).toHaveLength(5);
    expect(await listed(`created_after=${aMinuteFromNow()}`)).toEqual([]);
    expect(await listed(`created_before=${aMinuteFromNow()}&status=active&customer_email=even@example.com`)).toEqual([
      ids[4],
      ids[2],
      ids[0],
    ]);
  });

  test.each(['status=open', 'payment_type=weekly', 'limit=0', 'created_after=yesterday'])(
    '%s is 400 invalid_request',
    async (q) => {
      const res = await api.get<ErrorBody>(`/api/v2/payment-links?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    },
  );
});

describe('GraphQL', () => {
  const LINK =
    'id paymentLinkId url amount status paymentType customer { email } products { merchantProductId hsaFsaEligible } expiresAt';
  /** A link as the createPaymentLink mutation selects it (LINK). */
  interface GraphQLLink {
    id: string;
    paymentLinkId: string;
    amount: number;
    status: string;
  }
  const createMutation = `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { paymentLink { ${LINK} } userErrors { field message code } } }`;
  type UserErrors = { field: string[] | null; message: string; code: string }[];
  const createLink = (input: object) =>
    api.graphql<{ createPaymentLink: { paymentLink: GraphQLLink; userErrors: UserErrors } }>(createMutation, { input });
  /** A customer stored through the createCustomer mutation: its global id and its customerId. */
  async function storedCustomer() {
    const mutation = `mutation { createCustomer(input: { email: "g@example.com", firstName: "G", lastName: "Q" }) { customer { id customerId } } }`;
    return (await api.graphql<{ createCustomer: { customer: { id: string; customerId: string } } }>(mutation)).body.data
      .createCustomer.customer;
  }
  /** Two thermometers for the stored customer, expiring tomorrow. */
  async function thermometerLink(customerId: string) {
    const expiresAt = new Date(Date.now() + 86400_000).toISOString();
    const made = await createLink({
      products: [{ merchantProductId: 'THERM', quantity: 2 }],
      currency: 'USD',
      customerId,
      expiresAt,
    });
    expect(made.body.errors).toBeUndefined();
    return made.body.data.createPaymentLink.paymentLink;
  }
  const cancel = (input: object) =>
    api.graphql<{ cancelPaymentLink: { paymentLink: { status: string } | null; userErrors: UserErrors } }>(
      `mutation($input: CancelPaymentLinkInput!) { cancelPaymentLink(input: $input) { paymentLink { status cancellationReason cancelledAt } userErrors { field message code } } }`,
      { input },
    );

  test('createPaymentLink prices the products and takes the stored customer', async () => {
    const stored = await storedCustomer();
    const link = await thermometerLink(stored.id);
    expect(link).toMatchObject({
      paymentLinkId: expect.stringMatching(/^plink_/),
      amount: 4000,
      status: 'ACTIVE',
      paymentType: 'ONE_TIME',
      customer: { email: 'g@example.com' },
      products: [{ merchantProductId: 'THERM', hsaFsaEligible: true }],
    });
  });

  test('createPaymentLink lists each bad field', async () => {
    const invalid = await createLink({ amount: 0, currency: 'USD' });
    expect(invalid.body.data.createPaymentLink.paymentLink).toBeNull();
    const { userErrors } = invalid.body.data.createPaymentLink;
    expect(userErrors.map((e) => e.code)).toEqual(['VALIDATION_ERROR', 'VALIDATION_ERROR']);
    expect(userErrors.map((e) => e.field!.join('.')).sort()).toEqual(['input.amount', 'input.description']);
  });

  test('a customerId of nobody is customer_not_found', async () => {
    const foreign = await createLink({
      amount: 100,
      description: 'x',
      currency: 'usd',
      customerId: Buffer.from('Customer:cus_nope').toString('base64url'),
    });
    expect(foreign.body.data.createPaymentLink.userErrors).toEqual([
      { field: ['input', 'customerId'], message: expect.stringContaining('cus_nope'), code: 'CUSTOMER_NOT_FOUND' },
    ]);
  });

  test('paymentLinks with orders, customers and checkouts: 50 links cost what 1 costs; filters', async () => {
    const stored = await storedCustomer();
    const link = await thermometerLink(stored.id);
    for (let i = 0; i < 3; i++) {
      const l = (
        await createLink({ amount: 500 + i, description: `Item ${i}`, currency: 'usd', customerId: stored.id })
      ).body.data.createPaymentLink.paymentLink;
      expect(
        (await payLink(l.paymentLinkId, { shipping_address: address, card: cards.visa, client_reference_id: `c${i}` }))
          .status,
      ).toBe(200);
    }
    const node = `paymentLinkId status amount order { orderId clientReferenceId paymentLink { paymentLinkId } }
      storedCustomer { customerId email } checkoutSession { checkoutId status }`;
    const query = `{ paymentLinks(first: 50) { edges { node { ${node} } } pageInfo { hasNextPage } } }`;
    const res = await api.graphql<{ paymentLinks: { edges: { node: { paymentLinkId: string } }[] } }>(query);
    const statements = await statementsOf(() => api.graphql(query));
    expect(await statementsOf(() => api.graphql(query.replace('first: 50', 'first: 1')))).toBe(statements);
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.paymentLinks.edges.map((e) => e.node);
    expect(nodes).toHaveLength(4);
    expect(nodes[0]).toMatchObject({
      status: 'PAID',
      amount: 502,
      order: { clientReferenceId: 'c2', paymentLink: { paymentLinkId: nodes[0].paymentLinkId } },
      storedCustomer: { customerId: stored.customerId },
      checkoutSession: { status: 'PAID' },
    });
    // links + orders + customers + checkout sessions + the orders' links: no N+1 (the rate limit spends leased tokens).
    expect(statements).toBe(5);

    const filters = 'status: ACTIVE, customerEmail: "G@EXAMPLE.COM", paymentType: ONE_TIME';
    const filtered = await api.graphql<{ paymentLinks: { nodes: unknown[] } }>(
      `{ paymentLinks(first: 10, ${filters}) { nodes { paymentLinkId } } }`,
    );
    expect(filtered.body.data.paymentLinks.nodes).toEqual([{ paymentLinkId: link.paymentLinkId }]);
  });

  test('cancelPaymentLink: a reason too long is refused; cancelled once, then invalid_state; node(id:) shows it', async () => {
    const link = await thermometerLink((await storedCustomer()).id);
    expect((await cancel({ id: link.id, reason: 'x'.repeat(501) })).body.data.cancelPaymentLink).toEqual({
      paymentLink: null,
      userErrors: [
        { field: ['input', 'reason'], message: expect.stringMatching(/^reason /), code: 'VALIDATION_ERROR' },
      ],
    });
    expect((await cancel({ id: link.id, reason: 'Typo' })).body.data.cancelPaymentLink.paymentLink).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'Typo',
    });
    expect((await cancel({ id: link.id })).body.data.cancelPaymentLink.userErrors).toMatchObject([
      { code: 'INVALID_STATE' },
    ]);
    const node = await api.graphql<{ node: unknown }>(
      `query($id: ID!) { node(id: $id) { __typename ... on PaymentLink { status } } }`,
      { id: link.id },
    );
    expect(node.body.data.node).toEqual({ __typename: 'PaymentLink', status: 'CANCELLED' });
  });
});

describe('hosted link page (HTTP)', () => {
  const pageLink = () =>
    create({ ...split, success_url: 'https://shop.example.com/thanks', cancel_url: 'https://shop.example.com/cart' });
  /** Pays through the page's own pay call, as its form does. */
  const payOnPage = (id: string) =>
    fetch(`${t.url}/pay/${id}/pay?client_reference_id=cart-77`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hsa_fsa_card: cards.hsa, card: cards.visa, shipping_address: address }),
    });

  test('the page shows the link, carries ?client_reference_id= into its pay call and asks no customer of a link with one', async () => {
    const link = await pageLink();
    const page = await fetch(`${link.url}?client_reference_id=cart-77`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('Digital thermometer');
    expect(html).toContain(`action="/pay/${link.id}/pay?client_reference_id=cart-77"`);
    expect(html).toContain('https://shop.example.com/cart?payment_link_id=');
    expect(html).not.toContain('id="customer"');
  });

  test('its pay call makes the order and redirects to success_url; the page then says paid', async () => {
    const link = await pageLink();
    const pay = await payOnPage(link.id);
    expect(pay.status).toBe(200);
    const paid = (await pay.json()) as { order_id: string; redirect_url: string };
    expect(paid.redirect_url).toBe(
      `https://shop.example.com/thanks?payment_link_id=${link.id}&order_id=${paid.order_id}`,
    );
    expect((await api.get(`/api/v2/orders/${paid.order_id}`)).body).toMatchObject({
      payment_link_id: link.id,
      client_reference_id: 'cart-77',
      reference_id: null,
    });
    expect(await (await fetch(link.url)).text()).toContain('This payment link has been paid');
  });

  test('a link without a customer asks for one; a cancelled link says so', async () => {
    const open = await create({ amount: 900, description: 'Open', currency: 'usd' });
    expect(await (await fetch(open.url)).text()).toContain('id="customer"');
    await cancelLink(open.id);
    expect(await (await fetch(open.url)).text()).toContain('This payment link was cancelled');
  });

  test('an unknown or malformed link id is 404', async () => {
    const unknown = await fetch(`${t.url}/pay/plink_000000000000000000000000`);
    expect(unknown.status).toBe(404);
    expect((await fetch(`${t.url}/pay/nope`)).status).toBe(404);
  });
});
