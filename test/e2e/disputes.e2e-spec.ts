import adyen from '@adyen/api-library';
import type { DisputeResource, OrderResource } from '../../src/modules/orders/order.resource.js';
import { AdyenCallLog } from '../../src/modules/payments/adyen/adyen-call-log.js';
import { AdyenHttpClient } from '../../src/modules/payments/adyen/adyen-http-client.js';
import { AdyenProcessor } from '../../src/modules/payments/adyen/adyen-processor.js';
import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import { cards, createProducts, openCheckout, paidOrder } from '../helpers/fixtures.js';
import { startAdyen, type AdyenHarness } from '../helpers/adyen/index.js';
import { client, type Client, type FieldError } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Disputes (chargebacks) of any order, in test mode: the test helper stores a processor
 * notification and applies it through the notification job's own path, so what these tests see
 * is what a real NOTIFICATION_OF_CHARGEBACK / CHARGEBACK / CHARGEBACK_REVERSED / SECOND_CHARGEBACK does.
 */
let t: TestApp;
let api: Client;
let liveApi: Client;
let merchantId: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
// A merchant per test: refunds and renewals move its test clock, which must not carry into the next test.
beforeEach(async () => {
  const merchant = await newMerchant(t, 'Disputes');
  api = merchant.api;
  liveApi = client(t.url, merchant.keys.live_api_key);
  merchantId = merchant.keys.id;
  await createProducts(api, [
    ['THERM', 'Digital thermometer', 2000],
    ['CANDY', 'Chocolate candy', 1500],
  ]);
});
afterAll(() => t.close());

const db = () => t.orm.em.fork().getConnection();
const DAY = 86_400;

/** A 15.00 order paid with the regular card (captured, completed). */
async function paidCardOrder(): Promise<OrderResource> {
  const session = await openCheckout(api, [['CANDY', 'Candy', 1500, 1]]);
  return paidOrder(api, session.checkout_id, { card: cards.visa });
}

const dispute = (orderId: string, body: object) =>
  api.post<OrderResource>(`/api/v2/test-helpers/orders/${orderId}/dispute`, body);
const getOrder = async (id: string) => (await api.get<OrderResource>(`/api/v2/orders/${id}`)).body;
const orderGid = (id: string) => Buffer.from(`Order:${id}`, 'utf8').toString('base64url');
const at = (day: number) => new Date(Date.UTC(2030, 0, day)).toISOString();

const DISPUTE_FIELDS =
  'disputeId stage amount currency reason eventCode defenseDueAt defendable acceptedAt defendedAt defenseReasonCode';

/** The order through GraphQL: its statuses and its dispute. */
async function graphOrder(id: string) {
  const res = await api.graphql<{
    order: { status: string; paymentStatus: string; dispute: Record<string, unknown> | null };
  }>(`query($id: ID!) { order(id: $id) { status paymentStatus dispute { ${DISPUTE_FIELDS} } } }`, { id: orderGid(id) });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.order;
}

/** What must be equal after any ordering of the same notifications. */
const finalState = (o: OrderResource) => ({
  status: o.status,
  payment_status: o.payment_status,
  dispute: o.dispute && {
    stage: o.dispute.stage,
    event_code: o.dispute.event_code,
    amount: o.dispute.amount,
    reason: o.dispute.reason,
  },
});

describe('a dispute opens, is confirmed and is reversed', () => {
  test('notification: the order is disputed and its dispute visible on the order, its own route, the list and GraphQL', async () => {
    const order = await paidCardOrder();
    expect(order).toMatchObject({ status: 'completed', payment_status: 'captured', dispute: null });

    const res = await dispute(order.id, {
      stage: 'notification',
      reason: 'Fraud',
      defense_period_ends_at: '2030-02-01T00:00:00+01:00',
      defendable: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: order.id, status: 'disputed', payment_status: 'disputed' });
    const expected = {
      id: expect.stringMatching(/^dp_/),
      object: 'dispute',
      order_id: order.id,
      stage: 'notification',
      amount: 1500,
      currency: 'usd',
      reason: 'Fraud',
      event_code: 'NOTIFICATION_OF_CHARGEBACK',
      defense_due_at: '2030-01-31T23:00:00.000Z',
      defendable: true,
      accepted_at: null,
      defended_at: null,
      defense_reason_code: null,
    };
    expect(res.body.dispute).toMatchObject(expected);

    expect((await getOrder(order.id)).dispute).toMatchObject(expected);
    const own = await api.get<DisputeResource>(`/api/v2/orders/${order.id}/dispute`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual(res.body.dispute);
    const listed = (await api.get<{ data: OrderResource[] }>('/api/v2/orders?payment_status=disputed')).body.data;
    expect(listed.map((o) => [o.id, o.dispute?.id])).toEqual([[order.id, own.body.id]]);

    expect(await graphOrder(order.id)).toEqual({
      status: 'DISPUTED',
      paymentStatus: 'DISPUTED',
      dispute: {
        disputeId: own.body.id,
        stage: 'NOTIFICATION',
        amount: 1500,
        currency: 'usd',
        reason: 'Fraud',
        eventCode: 'NOTIFICATION_OF_CHARGEBACK',
        defenseDueAt: '2030-01-31T23:00:00.000Z',
        defendable: true,
        acceptedAt: null,
        defendedAt: null,
        defenseReasonCode: null,
      },
    });
  });

  test('confirmed keeps it disputed, with the chargeback figures; reversed restores captured and completed', async () => {
    const order = await paidCardOrder();
    await dispute(order.id, { stage: 'notification' });
    const confirmed = (await dispute(order.id, { stage: 'confirmed', amount: 1200, reason: 'Goods not received' }))
      .body;
    expect(confirmed).toMatchObject({ status: 'disputed', payment_status: 'disputed' });
    expect(confirmed.dispute).toMatchObject({
      stage: 'confirmed',
      event_code: 'CHARGEBACK',
      amount: 1200,
      reason: 'Goods not received',
    });
    expect((await graphOrder(order.id)).dispute).toMatchObject({
      stage: 'CONFIRMED',
      eventCode: 'CHARGEBACK',
      amount: 1200,
    });

    const reversed = (await dispute(order.id, { stage: 'reversed' })).body;
    expect(reversed).toMatchObject({ status: 'completed', payment_status: 'captured' });
    expect(reversed.dispute).toMatchObject({
      id: confirmed.dispute!.id,
      stage: 'reversed',
      event_code: 'CHARGEBACK_REVERSED',
    });
    expect(reversed.status_history.map((h) => h.status).slice(-2)).toEqual(['disputed', 'completed']);
    expect(await graphOrder(order.id)).toMatchObject({
      status: 'COMPLETED',
      paymentStatus: 'CAPTURED',
      dispute: { stage: 'REVERSED' },
    });
  });

  test('a reversal restores the payment status the order had: partially refunded stays partially refunded', async () => {
    const order = await paidCardOrder();
    expect(
      (await api.post('/api/v2/refunds', { order_id: order.id, amount: 500, reason: 'customer_request' })).status,
    ).toBe(201);
    expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 })).status).toBe(200);
    expect((await getOrder(order.id)).payment_status).toBe('partially_refunded');

    expect((await dispute(order.id, { stage: 'confirmed' })).body.payment_status).toBe('disputed');
    expect((await dispute(order.id, { stage: 'reversed' })).body).toMatchObject({
      status: 'completed',
      payment_status: 'partially_refunded',
    });
  });

  test('a second chargeback after a reversal disputes the order again', async () => {
    const order = await paidCardOrder();
    await dispute(order.id, { stage: 'confirmed' });
    await dispute(order.id, { stage: 'reversed' });
    const again = (await dispute(order.id, { stage: 'confirmed', event_code: 'SECOND_CHARGEBACK' })).body;
    expect(again).toMatchObject({
      status: 'disputed',
      payment_status: 'disputed',
      dispute: { stage: 'confirmed', event_code: 'SECOND_CHARGEBACK' },
    });
  });
});

describe('repeated and out-of-order notifications', () => {
  test('the same notifications in any order, some twice, end in the same state', async () => {
    const inOrder = await paidCardOrder();
    const shuffled = await paidCardOrder();
    const noc = { stage: 'notification', event_date: at(1), reason: 'Fraud' };
    const chargeback = { stage: 'confirmed', event_date: at(2), reason: 'Fraud', amount: 1400 };
    const reversal = { stage: 'reversed', event_date: at(3), reason: 'Fraud', amount: 1400 };

    for (const body of [noc, chargeback, reversal]) expect((await dispute(inOrder.id, body)).status).toBe(200);
    for (const body of [reversal, chargeback, chargeback, noc, reversal, noc])
      expect((await dispute(shuffled.id, body)).status).toBe(200);

    const a = await getOrder(inOrder.id);
    const b = await getOrder(shuffled.id);
    expect(finalState(a)).toEqual({
      status: 'completed',
      payment_status: 'captured',
      dispute: { stage: 'reversed', event_code: 'CHARGEBACK_REVERSED', amount: 1400, reason: 'Fraud' },
    });
    expect(finalState(b)).toEqual(finalState(a));
    // Each notification was stored once, however often it came.
    const stored = await db().execute<{ n: number }[]>(
      `select count(*)::int as n from processor_notifications where original_reference in (select capture_id from payments where order_id = ?)`,
      [shuffled.id],
    );
    expect(stored[0].n).toBe(3);
  });

  test('a late, older notification never reopens or closes a dispute: the latest by event date decides', async () => {
    const order = await paidCardOrder();
    await dispute(order.id, { stage: 'confirmed', event_code: 'SECOND_CHARGEBACK', event_date: at(4) });
    const late = (await dispute(order.id, { stage: 'reversed', event_date: at(3) })).body;
    expect(late).toMatchObject({
      payment_status: 'disputed',
      dispute: { stage: 'confirmed', event_code: 'SECOND_CHARGEBACK' },
    });
    const older = (await dispute(order.id, { stage: 'notification', event_date: at(1) })).body;
    expect(finalState(older)).toEqual(finalState(late));
  });
});

describe('accept and defend', () => {
  test('REST: an open dispute is accepted once, at the processor; then neither accepted nor defended again', async () => {
    const order = await paidCardOrder();
    await dispute(order.id, { stage: 'notification' });
    const accepted = await api.post<DisputeResource>(`/api/v2/orders/${order.id}/dispute/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ stage: 'notification', accepted_at: expect.any(String), defended_at: null });
    const ledger = await db().execute<{ operation: string; ok: boolean }[]>(
      `select operation, ok from processor_ledger where key = ?`,
      [`${accepted.body.id}.accept`],
    );
    expect(ledger).toEqual([{ operation: 'accept_dispute', ok: true }]);

    const again = await api.post(`/api/v2/orders/${order.id}/dispute/accept`);
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'invalid_state', param: 'id' });
    const defend = await api.post(`/api/v2/orders/${order.id}/dispute/defend`, {
      defense_reason_code: 'GoodsOrServicesProvided',
    });
    expect(defend.body.error.code).toBe('invalid_state');
    expect((await getOrder(order.id)).dispute).toMatchObject({
      accepted_at: accepted.body.accepted_at,
      defended_at: null,
    });
  });

  test('REST: defend records the reason code; a defend without one is a validation error', async () => {
    const order = await paidCardOrder();
    await dispute(order.id, { stage: 'confirmed' });
    const missing = await api.post(`/api/v2/orders/${order.id}/dispute/defend`, {});
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect((missing.body.error.details as FieldError[]).map((d) => d.field)).toEqual(['defense_reason_code']);
    const defended = await api.post<DisputeResource>(`/api/v2/orders/${order.id}/dispute/defend`, {
      defense_reason_code: 'GoodsOrServicesProvided',
    });
    expect(defended.status).toBe(200);
    expect(defended.body).toMatchObject({
      stage: 'confirmed',
      defended_at: expect.any(String),
      defense_reason_code: 'GoodsOrServicesProvided',
      accepted_at: null,
    });
    expect(
      (await api.post(`/api/v2/orders/${order.id}/dispute/defend`, { defense_reason_code: 'Other' })).body.error.code,
    ).toBe('invalid_state');
  });

  test('a dispute the processor says cannot be defended is not defended, but can be accepted', async () => {
    const order = await paidCardOrder();
    expect((await dispute(order.id, { stage: 'confirmed', defendable: false })).body.dispute).toMatchObject({
      defendable: false,
    });
    const defend = await api.post(`/api/v2/orders/${order.id}/dispute/defend`, {
      defense_reason_code: 'GoodsOrServicesProvided',
    });
    expect(defend.status).toBe(400);
    expect(defend.body.error).toMatchObject({ code: 'invalid_state', param: 'id' });
    expect((await api.post(`/api/v2/orders/${order.id}/dispute/accept`)).status).toBe(200);
  });

  test('GraphQL: defendDispute and acceptDispute answer the dispute and its order; a reversed dispute is invalid_state', async () => {
    const order = await paidCardOrder();
    await dispute(order.id, { stage: 'notification' });
    const defend = `mutation($id: ID!, $code: String!) { defendDispute(orderId: $id, defenseReasonCode: $code) { dispute { ${DISPUTE_FIELDS} } order { orderId paymentStatus } } }`;
    const defended = await api.graphql(defend, { id: orderGid(order.id), code: 'SupplyDefenseMaterial' });
    expect(defended.body.errors).toBeUndefined();
    expect(defended.body.data.defendDispute).toMatchObject({
      dispute: {
        stage: 'NOTIFICATION',
        defenseReasonCode: 'SupplyDefenseMaterial',
        defendedAt: expect.any(String),
        acceptedAt: null,
      },
      order: { orderId: order.id, paymentStatus: 'DISPUTED' },
    });
    // Defended, it can still be accepted (the merchant gives up).
    const accept = `mutation($id: ID!) { acceptDispute(orderId: $id) { dispute { acceptedAt } } }`;
    const accepted = await api.graphql(accept, { id: orderGid(order.id) });
    expect(accepted.body.data.acceptDispute.dispute.acceptedAt).toEqual(expect.any(String));

    const won = await paidCardOrder();
    await dispute(won.id, { stage: 'confirmed' });
    await dispute(won.id, { stage: 'reversed' });
    const refused = await api.graphql(
      `mutation($id: ID!) { acceptDispute(orderId: $id) { dispute { acceptedAt } order { id } userErrors { field code } } }`,
      { id: orderGid(won.id) },
    );
    expect(refused.body.data.acceptDispute).toEqual({
      dispute: null,
      order: null,
      userErrors: [{ field: ['orderId'], code: 'INVALID_STATE' }],
    });
    expect((await api.post(`/api/v2/orders/${won.id}/dispute/accept`)).body.error.code).toBe('invalid_state');
  });
});

describe('an order without a dispute', () => {
  test('has dispute null; its dispute route, accept and defend are 404 in the error shape, on both surfaces', async () => {
    const order = await paidCardOrder();
    expect((await getOrder(order.id)).dispute).toBeNull();
    expect((await graphOrder(order.id)).dispute).toBeNull();
    for (const res of [
      await api.get(`/api/v2/orders/${order.id}/dispute`),
      await api.post(`/api/v2/orders/${order.id}/dispute/accept`),
      await api.post(`/api/v2/orders/${order.id}/dispute/defend`, { defense_reason_code: 'Other' }),
      await api.get('/api/v2/orders/ord_nope/dispute'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', message: expect.any(String) });
    }
    const gql = await api.graphql(
      `mutation($id: ID!) { acceptDispute(orderId: $id) { dispute { stage } userErrors { field code } } }`,
      { id: orderGid(order.id) },
    );
    expect(gql.body.data.acceptDispute).toEqual({
      dispute: null,
      userErrors: [{ field: ['orderId'], code: 'NOT_FOUND' }],
    });
  });
});

describe('the test helper', () => {
  test('is test mode only, and checks its body', async () => {
    const order = await paidCardOrder();
    expect((await liveApi.post(`/api/v2/test-helpers/orders/${order.id}/dispute`, { stage: 'confirmed' })).status).toBe(
      403,
    );
    const mismatch = await api.post(`/api/v2/test-helpers/orders/${order.id}/dispute`, {
      stage: 'reversed',
      event_code: 'CHARGEBACK',
    });
    expect(mismatch.body.error).toMatchObject({ code: 'validation_error' });
    expect((mismatch.body.error.details as FieldError[]).map((d) => d.field)).toEqual(['event_code']);
    expect((await dispute('ord_nope', { stage: 'confirmed' })).status).toBe(404);
    expect((await getOrder(order.id)).dispute).toBeNull();
  });
});

describe("a subscription cycle's order", () => {
  test('a confirmed chargeback holds billing (subscription.disputed); its reversal restores the subscription and the order', async () => {
    const customer = (
      await api.post('/api/v2/customers', { email: 'sub.payer@example.com', first_name: 'Sub', last_name: 'Payer' })
    ).body;
    const pm = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.visa })).body;
    const created = await api.post<SubscriptionResource>('/api/v2/subscriptions', {
      customer_id: customer.id,
      payment_method_id: pm.id,
      amount_cents: 1500,
      currency: 'USD',
      interval: 'monthly',
      merchant_product_id: 'THERM',
    });
    expect(created.status).toBe(201);
    const sub = created.body;
    const [{ order_id: orderId }] = await db().execute<{ order_id: string }[]>(
      `select order_id from subscription_invoices where subscription_id = ? and status = 'paid'`,
      [sub.id],
    );
    const subscription = async () => (await api.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body;
    const disputedEvents = async () =>
      (
        await db().execute<{ data: { status: string; dispute: Record<string, unknown> } }[]>(
          `select data from events where type = 'subscription.disputed' and data->>'subscription_id' = ? order by created_at, id`,
          [sub.id],
        )
      ).map((e) => e.data);

    expect((await dispute(orderId, { stage: 'notification' })).body.payment_status).toBe('disputed');
    expect(await subscription()).toMatchObject({ status: 'active', next_billing_date: sub.next_billing_date });

    const held = (await dispute(orderId, { stage: 'confirmed', reason: 'fraudulent' })).body;
    expect(held).toMatchObject({ payment_status: 'disputed', dispute: { stage: 'confirmed' } });
    expect(await subscription()).toMatchObject({ status: 'disputed', next_billing_date: null });
    // While held, the renewal that falls due is not charged, nor back-charged once billing restarts.
    expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds: 32 * DAY })).status).toBe(200);
    expect(await subscription()).toMatchObject({ status: 'disputed', next_billing_date: null });
    const paidCycles = async () =>
      (
        await db().execute<{ n: number }[]>(
          `select count(*)::int as n from subscription_invoices where subscription_id = ? and status = 'paid'`,
          [sub.id],
        )
      )[0].n;
    expect(await paidCycles()).toBe(1);

    expect((await dispute(orderId, { stage: 'reversed' })).body).toMatchObject({
      status: 'completed',
      payment_status: 'captured',
    });
    const restored = await subscription();
    expect(restored.status).toBe('active');
    expect(new Date(restored.next_billing_date!).getTime()).toBeGreaterThan(new Date(sub.next_billing_date!).getTime());
    expect(await paidCycles()).toBe(1);
    const events = await disputedEvents();
    expect(events.map((e) => [e.status, e.dispute.stage, e.dispute.billing_held, e.dispute.event_code])).toEqual([
      ['active', 'notification', false, 'NOTIFICATION_OF_CHARGEBACK'],
      ['disputed', 'confirmed', true, 'CHARGEBACK'],
      ['active', 'reversed', false, 'CHARGEBACK_REVERSED'],
    ]);
    expect(events[1].dispute).toMatchObject({
      amount: 1500,
      reason: 'fraudulent',
      invoice_id: expect.stringMatching(/^in_/),
    });
  });
});

describe('live: the Adyen adapter accepts and defends through DisputeService v30 (stand-in behind Prism)', () => {
  const API_KEY = 'AQE_test_key';
  const MERCHANT = 'HealthCommerceECOM';
  let harness: AdyenHarness;
  beforeAll(async () => {
    harness = await startAdyen({ apiKey: API_KEY, merchantAccount: MERCHANT });
  }, 60_000);
  afterAll(() => harness?.close());

  test('accept and defend send what Adyen documents; a refusal comes back as one, with its message', async () => {
    const routes = { checkoutUrl: harness.checkoutUrl, disputesUrl: harness.disputesUrl };
    const sql = (text: string, params: unknown[]) => db().execute<Record<string, unknown>[]>(text, params);
    const processor = new AdyenProcessor(
      { merchantAccount: MERCHANT, apiKey: API_KEY, liveUrlPrefix: null },
      { environment: 'test', ...routes },
      new AdyenCallLog(sql, merchantId),
    );
    // Captured payments at the stand-in, made with the library itself.
    const checkout = new adyen.CheckoutAPI(
      new adyen.Client({ apiKey: API_KEY, environment: adyen.EnvironmentEnum.TEST }, new AdyenHttpClient(routes)),
    );
    const capturedPayment = async (reference: string) => {
      const paymentMethod = {
        type: 'scheme',
        encryptedCardNumber: 'test_4111111111111111',
        encryptedExpiryMonth: 'test_03',
        encryptedExpiryYear: 'test_2030',
        encryptedSecurityCode: 'test_737',
      };
      const amount = { currency: 'USD', value: 5000 };
      const auth = await checkout.PaymentsApi.payments({
        amount,
        merchantAccount: MERCHANT,
        reference,
        returnUrl: 'https://shop.example/return',
        paymentMethod,
      } as never);
      await checkout.ModificationsApi.captureAuthorisedPayment(auth.pspReference!, {
        merchantAccount: MERCHANT,
        amount,
      });
      return auth.pspReference!;
    };

    const first = harness.standIn.dispute(await capturedPayment('ord_a'), 'NOTIFICATION_OF_CHARGEBACK');
    expect(await processor.acceptDispute(first.pspReference, 'dp_a.accept')).toEqual({ ok: true });
    expect(harness.standIn.disputes.get(first.pspReference)?.status).toBe('Accepted');

    const second = harness.standIn.dispute(await capturedPayment('ord_b'), 'CHARGEBACK');
    const refused = await processor.defendDispute(second.pspReference, 'GoodsOrServicesProvided', 'dp_b.defend');
    expect(refused).toEqual({ ok: false, code: 'dispute_refused', message: 'Required defense documents are missing' });
    expect(await processor.defendDispute(second.pspReference, 'AdditionalInformation', 'dp_b.defend2')).toEqual({
      ok: true,
    });
    expect(harness.standIn.disputes.get(second.pspReference)).toMatchObject({
      status: 'Responded',
      defenseReasonCode: 'AdditionalInformation',
    });

    const calls = await db().execute<{ key: string; operation: string; ok: boolean }[]>(
      `select key, operation, ok from processor_calls where merchant_id = ? order by created_at, key`,
      [merchantId],
    );
    expect(calls).toEqual([
      { key: 'dp_a.accept', operation: 'accept_dispute', ok: true },
      { key: 'dp_b.defend', operation: 'defend_dispute', ok: false },
      { key: 'dp_b.defend2', operation: 'defend_dispute', ok: true },
    ]);
    expect(harness.violations()).toEqual([]);
  });
});
