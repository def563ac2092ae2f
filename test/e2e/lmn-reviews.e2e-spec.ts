import { PDFParse } from 'pdf-parse';
import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import { subscribeWith } from '../helpers/card-links.js';
import { cards, createProducts, openCheckout, paidOrder, payCheckout } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import { createContext } from '../../src/platform/context.js';
import { createApiKey } from '../../src/modules/merchants/api-key.service.js';
import { ROLE_PERMISSIONS } from '../../src/modules/merchants/permissions.js';
import { inviteMember } from '../../src/modules/team/team.service.js';
import { consoleClient, PASSWORD, signedInConsole } from '../helpers/console.js';
import { client } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Letters of medical necessity: an HSA/FSA card paying for an item that needs a letter the shopper
 * does not hold opens a clinician's review; the HSA/FSA part is authorised and held, the regular
 * part captured, until a decision (or the timeout) settles it. Driven on the test clock.
 */
let t: TestApp;
let api: Client;
let merchantId: string;
const HOUR = 3600;
const DAY = 24 * HOUR;
const answers = {
  condition: 'Vitamin D deficiency',
  recommended_by_provider: true,
  provider_name: 'Dr. Rivera',
  attestation: true,
};
const split = { hsa_fsa_card: cards.hsa, card: cards.visa, lmn: answers };

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
beforeEach(async () => {
  let keys;
  ({ api, keys } = await newMerchant(t, 'Wellness Shop'));
  merchantId = keys.id;
  await createProducts(api, [
    ['VIT', 'Daily multivitamin', 1299],
    ['CANDY', 'Chocolate candy bar', 500],
  ]);
});
afterAll(() => t.close());

/** A split checkout of one multivitamin (needs a letter) and one candy bar (not eligible), paid with both cards. */
async function splitPurchase(body: Record<string, unknown> = split): Promise<OrderResource> {
  const session = await openCheckout(api, [
    ['VIT', 'Daily multivitamin', 1299, 1],
    ['CANDY', 'Chocolate candy bar', 500, 1],
  ]);
  return paidOrder(api, session.checkout_id, body);
}

const ledger = (where: string, params: unknown[]) =>
  t.orm.em
    .fork()
    .getConnection()
    .execute<{ operation: string; target: string | null; key: string; amount: number; reference: string | null }[]>(
      `select operation, target, key, amount::int as amount, reference from processor_ledger where ${where}`,
      params,
    );
/** The HSA/FSA authorisation of `orderId`'s payment, as its journal recorded it. */
const holdOf = async (orderId: string) =>
  (
    await t.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>(
        `select s->>'authorization_id' as id from payment_attempts, jsonb_array_elements(steps) s where order_id = ? and s->>'slot' = 'hsa_fsa_card'`,
        [orderId],
      )
  )[0].id;
const eventTypes = async (objectId: string) =>
  (
    await t.orm.em
      .fork()
      .getConnection()
      .execute<{ type: string }[]>(
        `select type from events where data->>'id' = ? or data->>'order_id' = ? order by created_at, id`,
        [objectId, objectId],
      )
  ).map((e) => e.type);
const advance = (seconds: number) => api.post('/api/v2/test-helpers/advance-clock', { seconds });

test('a split purchase of an item that needs a letter leaves the review pending: HSA/FSA part authorised, not captured; regular part captured', async () => {
  const order = await splitPurchase();
  expect(order).toMatchObject({
    status: 'processing',
    payment_status: 'authorized',
    lmn_review: { status: 'pending' },
    completed_at: null,
  });
  expect(order.lmn_review!.id).toMatch(/^lmnr_/);
  const review = (await api.get(`/api/v2/lmn-reviews/${order.lmn_review!.id}`)).body;
  expect(review).toMatchObject({
    status: 'pending',
    order_id: order.id,
    amount_held: 1299,
    hold_status: 'held',
    answers: { condition: 'Vitamin D deficiency' },
    items: [{ product_id: 'VIT' }],
  });
  expect(review.customer.email).toBe('Jane.Doe@example.com');
  const hold = await holdOf(order.id);
  expect(await ledger(`operation = 'authorize' and reference = ?`, [hold])).toMatchObject([{ amount: 1299 }]);
  expect(await ledger(`operation in ('capture', 'void') and target = ?`, [hold])).toEqual([]);
  const captured = (await api.get(`/api/v2/orders/${order.id}`)).body;
  expect(captured.amounts).toMatchObject({ hsa_amount: 1299, regular_amount: 500 });
  expect(await eventTypes(order.id)).toEqual(expect.arrayContaining(['order.created', 'lmn_review.created']));
  expect(await eventTypes(order.id)).not.toContain('order.completed');
});

test('the test helper approves: the hold is captured, the letter issued, the order completed', async () => {
  const order = await splitPurchase();
  const approved = await api.post(`/api/v2/test-helpers/lmn-reviews/${order.lmn_review!.id}/approve`, {
    condition: 'Vitamin D deficiency (E55.9)',
  });
  expect(approved.status).toBe(200);
  expect(approved.body).toMatchObject({
    status: 'approved',
    hold_status: 'captured',
    condition: 'Vitamin D deficiency (E55.9)',
  });
  const after = (await api.get(`/api/v2/orders/${order.id}`)).body;
  expect(after).toMatchObject({
    status: 'completed',
    payment_status: 'captured',
    lmn_review: { status: 'approved' },
    lmn: { letter_id: approved.body.letter_id },
  });
  expect(after.payments ?? after.payment).toBeDefined();
  const customer = (
    await api.post('/api/v2/customers', { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' })
  ).body;
  const letters = (await api.get(`/api/v2/customers/${customer.id}/letters`)).body;
  expect(letters.data).toHaveLength(1);
  const letter = letters.data[0];
  expect(letter).toMatchObject({
    id: approved.body.letter_id,
    condition: 'Vitamin D deficiency (E55.9)',
    items: [{ product_id: 'VIT', name: 'Daily multivitamin' }],
  });
  expect(new Date(letter.expires_at).getUTCFullYear()).toBe(new Date(letter.issued_at).getUTCFullYear() + 1);
  const pdf = await fetch(letter.pdf_url);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  const { text } = await new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) }).getText();
  for (const part of ['Jane Doe', 'Vitamin D deficiency (E55.9)', 'Daily multivitamin', 'NPI', 'Issued'])
    expect(text).toContain(part);
  expect(await eventTypes(order.id)).toEqual(expect.arrayContaining(['lmn_review.approved', 'order.completed']));
});

test('a decline voids the hold, refunds the regular part and fails the order', async () => {
  const order = await splitPurchase();
  const declined = await api.post(`/api/v2/test-helpers/lmn-reviews/${order.lmn_review!.id}/decline`, {
    reason: 'Not indicated for this condition',
  });
  expect(declined.body).toMatchObject({
    status: 'declined',
    hold_status: 'released',
    reason: 'Not indicated for this condition',
  });
  expect((await ledger(`target = ?`, [await holdOf(order.id)])).map((l) => l.operation)).toEqual(['void']);
  expect(await ledger(`operation = 'refund' and key like ?`, [`${order.lmn_review!.id}.refund.%`])).toMatchObject([
    { amount: 500 },
  ]);
  const after = (await api.get(`/api/v2/orders/${order.id}`)).body;
  expect(after).toMatchObject({ status: 'failed', payment_status: 'refunded', lmn_review: { status: 'declined' } });
  expect(await eventTypes(order.id)).toEqual(expect.arrayContaining(['lmn_review.declined', 'order.failed']));
  const again = await api.post(`/api/v2/test-helpers/lmn-reviews/${order.lmn_review!.id}/approve`, {});
  expect(again.status).toBe(400);
  expect(again.body.error.code).toBe('invalid_state');
});

test('no decision within LMN_REVIEW_TIMEOUT_HOURS expires the review like a decline', async () => {
  const order = await splitPurchase();
  await advance(143 * HOUR);
  expect((await api.get(`/api/v2/lmn-reviews/${order.lmn_review!.id}`)).body.status).toBe('pending');
  await advance(2 * HOUR);
  const review = (await api.get(`/api/v2/lmn-reviews/${order.lmn_review!.id}`)).body;
  expect(review).toMatchObject({
    status: 'expired',
    reason: 'expired',
    hold_status: 'released',
    decided_by: { kind: 'system' },
  });
  expect((await api.get(`/api/v2/orders/${order.id}`)).body).toMatchObject({
    status: 'failed',
    payment_status: 'refunded',
  });
  const declinedEvent = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ data: { reason: string } }[]>(
      `select data from events where type = 'lmn_review.declined' and data->>'id' = ?`,
      [review.id],
    );
  expect(declinedEvent[0].data.reason).toBe('expired');
});

test('a second purchase within 12 months reuses the letter: no questionnaire, no review, captured at once', async () => {
  const first = await splitPurchase();
  const { letter_id } = (await api.post(`/api/v2/test-helpers/lmn-reviews/${first.lmn_review!.id}/approve`, {})).body;
  await advance(300 * DAY);
  const second = await splitPurchase({ hsa_fsa_card: cards.hsa, card: cards.visa });
  expect(second).toMatchObject({
    status: 'completed',
    payment_status: 'captured',
    lmn_review: null,
    lmn: { letter_id, review: null },
  });
});

test('a purchase after the letter expired (12 months) waits for a new review', async () => {
  const first = await splitPurchase();
  await api.post(`/api/v2/test-helpers/lmn-reviews/${first.lmn_review!.id}/approve`, {});
  await advance(366 * DAY);
  const without = await payCheckout(
    api,
    (await openCheckout(api, [['VIT', 'Daily multivitamin', 1299, 1]])).checkout_id,
    { hsa_fsa_card: cards.hsa },
  );
  expect(without.status).toBe(422);
  expect(without.body.error.param).toBe('lmn');
  const later = await splitPurchase();
  expect(later).toMatchObject({
    status: 'processing',
    payment_status: 'authorized',
    lmn_review: { status: 'pending' },
  });
  expect(later.lmn_review!.id).not.toBe(first.lmn_review!.id);
});

test('a payment link paid the same way opens the same review; approval completes its order', async () => {
  const link = await api.post<{ id: string }>('/api/v2/payment-links', {
    products: [
      { merchant_product_id: 'VIT', quantity: 1 },
      { merchant_product_id: 'CANDY', quantity: 1 },
    ],
    currency: 'USD',
    customer: { email: 'pat.lee@example.com', first_name: 'Pat', last_name: 'Lee' },
    collect_shipping_address: false,
  });
  expect(link.status).toBe(201);
  const paid = await api.post<OrderResource>(`/api/v2/test-helpers/payment-links/${link.body.id}/pay`, split);
  expect(paid.status).toBe(200);
  expect(paid.body).toMatchObject({
    status: 'processing',
    payment_status: 'authorized',
    payment_link_id: link.body.id,
    lmn_review: { status: 'pending' },
  });
  const hold = await holdOf(paid.body.id);
  expect((await ledger(`target = ?`, [hold])).map((l) => l.operation)).toEqual([]);
  expect((await api.post(`/api/v2/test-helpers/lmn-reviews/${paid.body.lmn_review!.id}/approve`, {})).status).toBe(200);
  expect((await ledger(`target = ?`, [hold])).map((l) => l.operation)).toEqual(['capture']);
  expect((await api.get(`/api/v2/orders/${paid.body.id}`)).body).toMatchObject({
    status: 'completed',
    payment_status: 'captured',
  });
});

test('a live key cannot use the review test helpers (403 test_mode_only)', async () => {
  const { keys } = await newMerchant(t, 'Live Shop');
  const live = await fetch(`${t.url}/api/v2/test-helpers/lmn-reviews/lmnr_x/approve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys.live_api_key}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(live.status).toBe(403);
  expect(((await live.json()) as { error: { code: string } }).error.code).toBe('test_mode_only');
});

const clinicianDetails = { name: 'Dr. Ana Rivera', credential: 'MD', npi: '1234567893', licensed_states: ['TX', 'CA'] };

/** A clinician of the merchant, signed in to the console. */
async function clinicianConsole() {
  const email = `clinician-${Math.random().toString(36).slice(2, 8)}@team.test`;
  const { setup_url } = await inviteMember(t.orm.em.fork(), merchantId, {
    email,
    role: 'clinician',
    ...clinicianDetails,
  });
  expect(
    (
      await client(t.url).post('/console/password-setup', {
        token: new URL(setup_url).searchParams.get('token'),
        password: PASSWORD,
      })
    ).status,
  ).toBe(200);
  const console = consoleClient(t.url);
  expect((await console.signIn(email)).status).toBe(200);
  return console;
}

const APPROVE =
  'mutation($id: ID!, $condition: String) { approveLmnReview(id: $id, condition: $condition) { review { status letterId decidedBy } letter { id clinician { name credential npi } pdfUrl } } }';
const DECLINE = 'mutation($id: ID!) { declineLmnReview(id: $id, reason: "no") { review { status } } }';

test('a clinician approves in a console session (GraphQL): captured, letter issued in their name, the decision audited', async () => {
  const order = await splitPurchase();
  const clinician = await clinicianConsole();
  const queue = await clinician.graphql(
    '{ lmnReviews(first: 10, status: PENDING) { nodes { id status answers items { productId name } customer amountHeld } } }',
  );
  expect(queue.body.data.lmnReviews.nodes).toEqual([
    expect.objectContaining({
      id: order.lmn_review!.id,
      amountHeld: 1299,
      items: [{ productId: 'VIT', name: 'Daily multivitamin' }],
    }),
  ]);
  const res = await clinician.graphql(APPROVE, { id: order.lmn_review!.id, condition: 'Vitamin D deficiency' });
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data.approveLmnReview.review).toMatchObject({
    status: 'APPROVED',
    decidedBy: { kind: 'clinician', name: 'Dr. Ana Rivera', credential: 'MD', npi: '1234567893' },
  });
  expect(res.body.data.approveLmnReview.letter.clinician).toEqual({
    name: 'Dr. Ana Rivera',
    credential: 'MD',
    npi: '1234567893',
  });
  expect((await api.get(`/api/v2/orders/${order.id}`)).body).toMatchObject({
    status: 'completed',
    payment_status: 'captured',
  });
  const gql = await api.graphql('{ orders(first: 1) { nodes { orderId lmnReview { status letterId } } } }');
  expect(gql.body.data.orders.nodes).toEqual([
    { orderId: order.id, lmnReview: { status: 'APPROVED', letterId: res.body.data.approveLmnReview.letter.id } },
  ]);
  const audit = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ action: string; actor_kind: string }[]>(
      `select action, actor_kind from audit_log_entries where object_id = ?`,
      [order.lmn_review!.id],
    );
  expect(audit).toEqual([{ action: 'lmn_review.approved', actor_kind: 'user' }]);
});

test('a clinician declines in a console session: the hold is voided, the decision audited', async () => {
  const order = await splitPurchase();
  const clinician = await clinicianConsole();
  const res = await clinician.graphql(DECLINE, { id: order.lmn_review!.id });
  expect(res.body.data.declineLmnReview.review.status).toBe('DECLINED');
  const audit = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ action: string }[]>(`select action from audit_log_entries where object_id = ?`, [order.lmn_review!.id]);
  expect(audit.map((a) => a.action)).toEqual(['lmn_review.declined']);
});

test('no API key can approve or decline, restricted or not (403 insufficient_permissions); nor an owner in the console', async () => {
  const order = await splitPurchase();
  const id = order.lmn_review!.id;
  const developer = createContext(
    t.orm.em.fork(),
    {
      merchantId,
      livemode: false,
      clockOffsetMs: 0,
      keyId: 'usr_dev',
      actor: { kind: 'user', id: 'usr_dev' },
      permissions: ROLE_PERMISSIONS.developer,
    },
    'req_test',
    { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never,
  );
  const restricted = client(
    t.url,
    (await createApiKey(developer, { name: 'Orders', permissions: ['orders:write', 'customers:write'] })).secret,
  );
  const owner = await signedInConsole(t, merchantId, 'owner');
  for (const [who, call] of [
    ['secret key', (q: string) => api.graphql(q, { id })],
    ['restricted key', (q: string) => restricted.graphql(q, { id })],
    ['owner console', (q: string) => owner.graphql(q, { id })],
  ] as const) {
    for (const q of [APPROVE, DECLINE]) {
      const res = await call(q);
      expect([who, res.body.errors?.[0]?.extensions?.code]).toEqual([who, 'insufficient_permissions']);
    }
  }
  expect((await api.get(`/api/v2/lmn-reviews/${id}`)).body.status).toBe('pending');
});

describe('subscription renewals of an item that needs a letter (HSA/FSA card)', () => {
  const db = () => t.orm.em.fork().getConnection();
  const invoicesOf = (subId: string) =>
    db().execute<{ id: string; status: string; order_id: string | null; last_refusal_code: string | null }[]>(
      `select id, status, order_id, last_refusal_code from subscription_invoices where subscription_id = ? order by period_index`,
      [subId],
    );
  const reviewOfInvoice = async (invoiceId: string) =>
    (
      await db().execute<{ id: string; status: string }[]>(`select id, status from lmn_reviews where invoice_id = ?`, [
        invoiceId,
      ])
    )[0];
  const subscriptionEvents = async (subId: string) =>
    (
      await db().execute<{ type: string; data: Record<string, unknown> }[]>(
        `select type, data from events where data->>'subscription_id' = ? order by created_at, id`,
        [subId],
      )
    ).filter((e) => e.type.startsWith('subscription.'));

  /**
   * A monthly subscription to the multivitamin on a stored HSA/FSA card: its first cycle waits for
   * a review (the shopper holds no letter), approved here; then the clock runs 12 months of 31
   * days: cycles 2 to 12 are charged under the letter, the 13th (after it expired) is held.
   */
  async function heldAfterLetterExpired() {
    const { sub } = await subscribeWith(api, cards.hsa, { merchant_product_id: 'VIT', amount_cents: 1299 });
    const [first] = await invoicesOf(sub.id);
    expect(first).toMatchObject({ status: 'open', order_id: expect.stringMatching(/^ord_/) });
    const firstOrder = (await api.get(`/api/v2/orders/${first.order_id}`)).body;
    expect(firstOrder).toMatchObject({
      status: 'processing',
      payment_status: 'authorized',
      lmn_review: { status: 'pending' },
    });
    const approved = await api.post(`/api/v2/test-helpers/lmn-reviews/${firstOrder.lmn_review.id}/approve`, {});
    expect(approved.body).toMatchObject({ status: 'approved', invoice_id: first.id });
    expect((await invoicesOf(sub.id))[0].status).toBe('paid');
    expect((await api.get(`/api/v2/orders/${first.order_id}`)).body).toMatchObject({
      status: 'completed',
      payment_status: 'captured',
    });
    for (let month = 1; month <= 12; month++) await advance(31 * DAY);
    const invoices = await invoicesOf(sub.id);
    expect(invoices).toHaveLength(13);
    // Cycles 2 to 12 under the letter: charged at once, no review.
    for (const paid of invoices.slice(1, 12)) {
      expect(paid.status).toBe('paid');
      expect(await reviewOfInvoice(paid.id)).toBeUndefined();
    }
    const held = invoices[12];
    expect(held).toMatchObject({ status: 'open', order_id: expect.stringMatching(/^ord_/) });
    const review = await reviewOfInvoice(held.id);
    expect(review.status).toBe('pending');
    return { sub, held, review };
  }

  test('after the letter expires the renewal waits for a new review: card held, invoice open, subscription active; approval captures and renews', async () => {
    const { sub, held, review } = await heldAfterLetterExpired();
    const order = (await api.get(`/api/v2/orders/${held.order_id}`)).body;
    expect(order).toMatchObject({
      status: 'processing',
      payment_status: 'authorized',
      lmn_review: { id: review.id, status: 'pending' },
      amount: 1299,
    });
    expect(await ledger(`key = ?`, [`${review.id}.capture`])).toEqual([]);
    const waiting = (await api.get(`/api/v2/subscriptions/${sub.id}`)).body;
    expect(waiting.status).toBe('active');
    // Billing leaves it alone while the review is open: a month later nothing more is charged or held.
    await advance(2 * DAY);
    expect(await invoicesOf(sub.id)).toHaveLength(13);
    const renewedBefore = (await subscriptionEvents(sub.id)).filter((e) => e.type === 'subscription.renewed').length;

    const approved = await api.post(`/api/v2/test-helpers/lmn-reviews/${review.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect((await invoicesOf(sub.id))[12].status).toBe('paid');
    expect((await api.get(`/api/v2/orders/${held.order_id}`)).body).toMatchObject({
      status: 'completed',
      payment_status: 'captured',
    });
    expect(await ledger(`key = ?`, [`${review.id}.capture`])).toMatchObject([{ operation: 'capture' }]);
    const events = await subscriptionEvents(sub.id);
    expect(events.filter((e) => e.type === 'subscription.renewed')).toHaveLength(renewedBefore + 1);
    expect(events.at(-1)).toMatchObject({
      type: 'subscription.renewed',
      data: { invoice: { invoice_id: held.id, order_id: held.order_id } },
    });
    // The new letter covers the next cycle: charged at once.
    await advance(31 * DAY);
    const next = (await invoicesOf(sub.id))[13];
    expect(next.status).toBe('paid');
    expect(await reviewOfInvoice(next.id)).toBeUndefined();
  });

  test('a declined renewal review releases the hold: invoice uncollectible, subscription unpaid, payment_failed (terminal)', async () => {
    const { sub, held, review } = await heldAfterLetterExpired();
    const hold = (
      await db().execute<{ auth: string }[]>(`select hold->>'authorization_id' as auth from lmn_reviews where id = ?`, [
        review.id,
      ])
    )[0].auth;
    expect(
      (await api.post(`/api/v2/test-helpers/lmn-reviews/${review.id}/decline`, { reason: 'No longer indicated' }))
        .status,
    ).toBe(200);
    expect((await ledger(`target = ?`, [hold])).map((l) => l.operation)).toEqual(['void']);
    expect((await invoicesOf(sub.id))[12]).toMatchObject({
      status: 'uncollectible',
      last_refusal_code: 'lmn_review_declined',
    });
    expect((await api.get(`/api/v2/orders/${held.order_id}`)).body).toMatchObject({
      status: 'failed',
      payment_status: 'failed',
    });
    expect((await api.get(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('unpaid');
    expect((await subscriptionEvents(sub.id)).at(-1)).toMatchObject({
      type: 'subscription.payment_failed',
      data: { failure: { disposition: 'terminal', status: 'unpaid', refusal_code: 'lmn_review_declined' } },
    });
    // Unpaid: billing makes no further attempt.
    await advance(31 * DAY);
    expect(await invoicesOf(sub.id)).toHaveLength(13);
  });
});
