import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import { cards, createProducts } from '../helpers/fixtures.js';
import { client, type Client, type FieldError, type Page } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Every test bills on a merchant of its own (made in beforeEach): its test clock starts at zero and
 * no row or clock offset of another scenario is in its way.
 */
let t: TestApp;
let api: Client;
let merchantId: string;
const DAY = 86_400;

const testCards = {
  ...cards,
  renewalRetry: { number: '4000000000000341', exp_month: 12, exp_year: 2035, cvc: '123' },
  renewalActionRequired: { number: '4000000000000069', exp_month: 12, exp_year: 2035, cvc: '123' },
  renewalTerminal: { number: '4111110000000039', exp_month: 12, exp_year: 2035, cvc: '123' },
};

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
beforeEach(async () => {
  const merchant = await newMerchant(t, 'Subscriptions');
  api = merchant.api;
  merchantId = merchant.keys.id;
  await createProducts(api, [
    ['THERM', 'Digital thermometer', 1500],
    ['CANDY', 'Chocolate candy', 900],
  ]);
});
afterAll(() => t.close());

const db = () => t.orm.em.fork().getConnection();

/** A subscription event's payload, with what these tests read: a renewal's invoice, a refused charge's failure, a dispute. */
interface SubscriptionEventData {
  subscription_id: string;
  status: string;
  customer_email: string | null;
  card_brand: string | null;
  card_last4: string | null;
  invoice?: {
    invoice_id: string;
    order_id: string;
    period_start: string;
    period_end: string;
    amount_paid: number;
    psp_reference: string;
  };
  failure?: {
    disposition: string;
    status: string;
    refusal_code: string;
    attempt: number;
    max_attempts: number;
    next_retry_at: string | null;
  };
  dispute?: Record<string, unknown>;
}
interface CustomerBody {
  id: string;
  email: string;
}
interface PaymentMethodBody {
  id: string;
}

/** Moves this test's merchant clock and runs what fell due (answered 200). */
const advance = async (seconds: number) => {
  const res = await api.post('/api/v2/test-helpers/advance-clock', { seconds });
  expect(res.status).toBe(200);
};
const getSubscription = async (id: string) => (await api.get<SubscriptionResource>(`/api/v2/subscriptions/${id}`)).body;
const addCard = async (customerId: string, card: object) =>
  (await api.post<PaymentMethodBody>(`/api/v2/customers/${customerId}/payment-methods`, { card })).body;
const changeCard = (subId: string, paymentMethodId: string) => {
  return api.post<SubscriptionResource>(`/api/v2/subscriptions/${subId}/payment-method`, {
    payment_method_id: paymentMethodId,
  });
};

async function customerWithCard(
  card: object = testCards.visa,
): Promise<{ customer: CustomerBody; pm: PaymentMethodBody }> {
  const email = `jane.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const customer = (await api.post<CustomerBody>('/api/v2/customers', { email, first_name: 'Jane', last_name: 'Doe' }))
    .body;
  const pm = await api.post<PaymentMethodBody>(`/api/v2/customers/${customer.id}/payment-methods`, { card });
  expect(pm.status).toBe(201);
  return { customer, pm: pm.body };
}

/** A monthly 15.00 THERM subscription (answered 201) for a new customer paying with `card`. */
async function subscribe(card: object = testCards.visa, extra: Record<string, unknown> = {}) {
  const { customer, pm } = await customerWithCard(card);
  const res = await api.post<SubscriptionResource>('/api/v2/subscriptions', {
    customer_id: customer.id,
    payment_method_id: pm.id,
    amount_cents: 1500,
    currency: 'USD',
    interval: 'monthly',
    merchant_product_id: 'THERM',
    ...extra,
  });
  expect(res.status).toBe(201);
  return { sub: res.body, customer, pm };
}

async function eventsOf(subId: string) {
  const sql = `select type, data from events where data->>'subscription_id' = ? order by created_at, id`;
  return db().execute<{ type: string; data: SubscriptionEventData }[]>(sql, [subId]);
}
const eventsOfType = async (subId: string, type: string) => (await eventsOf(subId)).filter((e) => e.type === type);
/** The invoice of the renewal recorded first (the first cycle's). */
const firstInvoice = async (subId: string) => (await eventsOfType(subId, 'subscription.renewed'))[0].data.invoice!;

describe('a subscription without a trial', () => {
  test('is charged for its first cycle at creation and answered active', async () => {
    const { sub, customer } = await subscribe();
    expect(sub).toMatchObject({
      id: expect.stringMatching(/^sub_/),
      customer_id: customer.id,
      status: 'active',
      product_id: expect.any(Number),
      merchant_product_id: 'THERM',
      amount_cents: 1500,
      currency: 'USD',
      interval: 'monthly',
      interval_count: 1,
      trial_period_days: null,
      trial_end: null,
      cancel_at_period_end: false,
      cancelled_at: null,
      payment_method: { type: 'card', last4: '4242', brand: 'visa' },
      metadata: {},
    });
    expect(sub.next_billing_date).toBe(sub.current_period_end);
  });

  test('records subscription.created then subscription.renewed carrying the first invoice', async () => {
    const { sub, customer } = await subscribe();
    const events = await eventsOf(sub.id);
    expect(events.map((e) => e.type)).toEqual(['subscription.created', 'subscription.renewed']);
    expect(events[1].data).toEqual({
      subscription_id: sub.id,
      plan_id: null,
      status: 'active',
      cancel_at_period_end: false,
      customer_email: customer.email,
      amount: 1500,
      currency: 'USD',
      interval: 'month',
      interval_count: 1,
      next_charge_at: sub.current_period_end,
      current_period_end: sub.current_period_end,
      canceled_at: null,
      card_brand: 'visa',
      card_last4: '4242',
      payment_method_type: 'card',
      invoice: {
        invoice_id: expect.stringMatching(/^in_/),
        order_id: expect.stringMatching(/^ord_/),
        period_start: sub.current_period_start,
        period_end: sub.current_period_end,
        amount_paid: 1500,
        psp_reference: expect.stringMatching(/^ch_/),
      },
    });
  });

  test('makes the first charge a completed recurring order of the product', async () => {
    const { sub } = await subscribe();
    const orderId = (await firstInvoice(sub.id)).order_id;
    const order = (await api.get<OrderResource>(`/api/v2/orders/${orderId}`)).body;
    expect(order.id).toBe(orderId);
    const line = {
      name: 'Digital thermometer',
      merchant_product_id: 'THERM',
      quantity: 1,
      price: 1500,
      is_recurring: true,
      hsa_fsa_eligible: true,
    };
    expect(order).toMatchObject({
      is_recurring: true,
      status: 'completed',
      payment_status: 'captured',
      amount: 1500,
      currency: 'usd',
      line_items: [line],
    });
  });

  test('serves the paid first invoice with its attempt, under /v2 and /api/v2', async () => {
    const { sub, pm } = await subscribe();
    const renewal = await firstInvoice(sub.id);
    const invoice = await api.get(`/v2/subscriptions/${sub.id}/invoices/${renewal.invoice_id}`);
    expect(invoice.status).toBe(200);
    expect(invoice.body).toMatchObject({
      id: renewal.invoice_id,
      subscription_id: sub.id,
      amount: 1500,
      amount_paid: 1500,
      status: 'paid',
      order_id: renewal.order_id,
      psp_reference: renewal.psp_reference,
      attempts: [{ attempt: 1, status: 'succeeded', payment_method_id: pm.id }],
    });
    expect((await api.get(`/api/v2/subscriptions/${sub.id}/invoices/${renewal.invoice_id}`)).body.id).toBe(
      renewal.invoice_id,
    );
  });

  test('makes an order that is refundable like any other', async () => {
    const { sub } = await subscribe();
    const refund = await api.post('/api/v2/refunds', {
      order_id: (await firstInvoice(sub.id)).order_id,
      amount: 500,
      reason: 'customer_request',
    });
    expect(refund.status).toBe(201);
  });
});

test('a trial is not charged until trial_end, then the first paid period starts at trial_end', async () => {
  const { sub } = await subscribe(testCards.visa, { trial_period_days: 7 });
  expect(sub).toMatchObject({
    status: 'trialing',
    trial_period_days: 7,
    next_billing_date: sub.trial_end,
    current_period_end: sub.trial_end,
  });
  expect((await eventsOf(sub.id)).map((e) => e.type)).toEqual(['subscription.created']);
  await advance(6 * DAY);
  expect((await getSubscription(sub.id)).status).toBe('trialing');
  await advance(DAY + 60);
  expect(await getSubscription(sub.id)).toMatchObject({ status: 'active', current_period_start: sub.trial_end });
  const renewed = await eventsOfType(sub.id, 'subscription.renewed');
  expect(renewed).toHaveLength(1);
  expect(renewed[0].data.invoice!.period_start).toBe(sub.trial_end);
});

test('renewals follow the calendar from the anchor, each period charged once however often the sweep runs', async () => {
  const { sub } = await subscribe(testCards.visa, { interval: 'weekly', interval_count: 2 });
  const start = new Date(sub.current_period_start!).getTime();
  for (let i = 0; i < 3; i++) await advance(14 * DAY);
  await t.app.http.jobs.runDue(new Date());
  await t.app.http.jobs.runDue(new Date());
  const invoices = await db().execute<{ period_start: string; period_end: string; status: string }[]>(
    `select period_start, period_end, status from subscription_invoices where subscription_id = ? order by period_start`,
    [sub.id],
  );
  expect(invoices.map((i) => (new Date(i.period_start).getTime() - start) / (DAY * 1000))).toEqual([0, 14, 28, 42]);
  expect(invoices.every((i) => i.status === 'paid')).toBe(true);
  const orders = await db().execute<{ n: number }[]>(
    `select count(*)::int as n from orders where metadata->>'subscription_id' = ?`,
    [sub.id],
  );
  expect(orders[0].n).toBe(4);
});

describe('dispositions', () => {
  describe('retry (insufficient funds)', () => {
    test('makes the subscription past_due with attempt, max_attempts and next_retry_at, first retried a day later', async () => {
      const { sub } = await subscribe(testCards.renewalRetry);
      expect(sub.status).toBe('past_due');
      const failed = await eventsOfType(sub.id, 'subscription.payment_failed');
      expect(failed).toHaveLength(1);
      const failure = {
        disposition: 'retry',
        status: 'past_due',
        refusal_code: 'insufficient_funds',
        attempt: 1,
        max_attempts: 4,
        next_retry_at: sub.next_billing_date,
      };
      expect(failed[0].data.failure).toEqual(failure);
      const firstRetry = new Date(sub.next_billing_date!).getTime() - new Date(sub.current_period_start!).getTime();
      expect(Math.round(firstRetry / 3_600_000)).toBe(24);
    });

    test('retries on the widening schedule, then makes it unpaid with a final payment_failed', async () => {
      const { sub } = await subscribe(testCards.renewalRetry);
      await advance(DAY + 5);
      await advance(3 * DAY + 5);
      await advance(5 * DAY + 5);
      const failed = await eventsOfType(sub.id, 'subscription.payment_failed');
      expect(failed.map((e) => [e.data.failure!.attempt, e.data.failure!.status, e.data.status])).toEqual([
        [1, 'past_due', 'past_due'],
        [2, 'past_due', 'past_due'],
        [3, 'past_due', 'past_due'],
        [4, 'unpaid', 'unpaid'],
      ]);
      expect(failed[3].data.failure!.next_retry_at).toBeNull();
      expect(await getSubscription(sub.id)).toMatchObject({ status: 'unpaid', next_billing_date: null });
    });

    test('never charges an unpaid subscription again', async () => {
      const { sub } = await subscribe(testCards.renewalRetry);
      for (const seconds of [DAY + 5, 3 * DAY + 5, 5 * DAY + 5]) await advance(seconds);
      expect((await getSubscription(sub.id)).status).toBe('unpaid');
      await advance(40 * DAY);
      expect(await eventsOfType(sub.id, 'subscription.payment_failed')).toHaveLength(4);
    });
  });

  describe('action_required (expired card)', () => {
    test('stops billing: no next_billing_date and no retry', async () => {
      const { sub } = await subscribe(testCards.renewalActionRequired);
      expect(sub).toMatchObject({ status: 'action_required', next_billing_date: null });
      const [failed] = await eventsOfType(sub.id, 'subscription.payment_failed');
      expect(failed.data.failure).toMatchObject({
        disposition: 'action_required',
        status: 'action_required',
        refusal_code: 'expired_card',
        attempt: 1,
        next_retry_at: null,
      });
      await advance(10 * DAY);
      expect(await eventsOfType(sub.id, 'subscription.payment_failed')).toHaveLength(1);
    });

    test('is rescued at once by a new card: active, resumed then renewed', async () => {
      const { sub, customer } = await subscribe(testCards.renewalActionRequired);
      const newCard = await addCard(customer.id, testCards.mastercard);
      const rescued = await changeCard(sub.id, newCard.id);
      expect(rescued.status).toBe(200);
      expect(rescued.body).toMatchObject({ status: 'active', payment_method: { brand: 'mastercard', last4: '4444' } });
      const types = (await eventsOf(sub.id)).map((e) => e.type);
      expect(types.slice(-2)).toEqual(['subscription.resumed', 'subscription.renewed']);
    });
  });

  test('terminal (stolen card) makes the subscription unpaid at once, never retried', async () => {
    const { sub } = await subscribe(testCards.renewalTerminal);
    expect(sub).toMatchObject({ status: 'unpaid', next_billing_date: null });
    const [failed] = await eventsOfType(sub.id, 'subscription.payment_failed');
    expect(failed.data.failure).toMatchObject({
      disposition: 'terminal',
      status: 'unpaid',
      refusal_code: 'stolen_card',
      attempt: 1,
      next_retry_at: null,
    });
    await advance(60 * DAY);
    const attemptsSql = `select count(*)::int as n from subscription_invoice_attempts a join subscription_invoices i on i.id = a.invoice_id where i.subscription_id = ?`;
    expect(await db().execute(attemptsSql, [sub.id])).toEqual([{ n: 1 }]);
  });

  test('a past_due subscription rescued by a new card is active, resumed then renewed', async () => {
    const { sub, customer } = await subscribe(testCards.renewalRetry);
    const newCard = await addCard(customer.id, testCards.visa);
    const rescued = await changeCard(sub.id, newCard.id);
    expect(rescued.body.status).toBe('active');
    const events = await eventsOf(sub.id);
    expect(events.map((e) => e.type)).toEqual([
      'subscription.created',
      'subscription.payment_failed',
      'subscription.resumed',
      'subscription.renewed',
    ]);
    expect(events[3].data.invoice!.amount_paid).toBe(1500);
  });
});

describe('cancellation', () => {
  const cancel = (id: string, body: object) => api.post(`/api/v2/subscriptions/${id}/cancel`, body);

  test('cancelling now answers cancelled with cancelled_at and records subscription.canceled', async () => {
    const { sub } = await subscribe();
    const res = await cancel(sub.id, { reason: 'moving away' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: sub.id,
      status: 'cancelled',
      cancel_at_period_end: false,
      current_period_end: sub.current_period_end,
      cancelled_at: expect.any(String),
    });
    const events = await eventsOf(sub.id);
    expect(events.at(-1)).toMatchObject({
      type: 'subscription.canceled',
      data: { status: 'cancelled', canceled_at: res.body.cancelled_at },
    });
  });

  test('a subscription cancelled now is never charged again', async () => {
    const { sub } = await subscribe();
    expect((await cancel(sub.id, {})).status).toBe(200);
    await advance(40 * DAY);
    expect(await eventsOfType(sub.id, 'subscription.renewed')).toHaveLength(1);
  });

  test('cancelling a cancelled subscription is refused (400 invalid_state)', async () => {
    const { sub } = await subscribe();
    expect((await cancel(sub.id, { reason: 'moving away' })).status).toBe(200);
    const again = await cancel(sub.id, {});
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_state');
  });

  test('cancel at period end: billable until current_period_end, canceled fires only when it ends; no further charge', async () => {
    const { sub } = await subscribe();
    const res = await cancel(sub.id, { cancel_at_period_end: true });
    expect(res.body).toMatchObject({
      status: 'cancelled',
      cancel_at_period_end: true,
      current_period_end: sub.current_period_end,
    });
    expect(await getSubscription(sub.id)).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect((await eventsOf(sub.id)).map((e) => e.type)).not.toContain('subscription.canceled');
    await advance(32 * DAY);
    expect(await getSubscription(sub.id)).toMatchObject({ status: 'cancelled', ended_at: sub.current_period_end });
    const events = await eventsOf(sub.id);
    expect(events.map((e) => e.type)).toEqual([
      'subscription.created',
      'subscription.renewed',
      'subscription.canceled',
    ]);
    const renewed = events[1].data;
    expect(events[2].data).toMatchObject({
      status: 'cancelled',
      cancel_at_period_end: true,
      next_charge_at: null,
      canceled_at: res.body.cancelled_at,
      customer_email: renewed.customer_email,
      card_last4: renewed.card_last4,
      card_brand: renewed.card_brand,
    });
    expect(renewed.customer_email).toEqual(expect.any(String));
  });

  test('reversing a scheduled cancellation records subscription.resumed, and billing goes on', async () => {
    const { sub } = await subscribe();
    await cancel(sub.id, { cancel_at_period_end: true });
    const resumed = await api.put(`/api/v2/subscriptions/${sub.id}`, { cancel_at_period_end: false });
    expect(resumed.body).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
      cancelled_at: null,
      next_billing_date: sub.current_period_end,
    });
    await advance(32 * DAY);
    const types = (await eventsOf(sub.id)).map((e) => e.type);
    expect(types).toEqual([
      'subscription.created',
      'subscription.renewed',
      'subscription.resumed',
      'subscription.renewed',
    ]);
  });
});

describe('disputes', () => {
  const dispute = (id: string, body: object) => api.post(`/api/v2/test-helpers/subscriptions/${id}/dispute`, body);
  const lastDispute = async (id: string) => (await eventsOfType(id, 'subscription.disputed')).at(-1)!.data;

  test('a chargeback notification changes nothing (billing_held false)', async () => {
    const { sub } = await subscribe();
    expect(
      (await dispute(sub.id, { stage: 'notification', event_code: 'NOTIFICATION_OF_CHARGEBACK' })).body.status,
    ).toBe('active');
    expect((await lastDispute(sub.id)).dispute).toMatchObject({
      stage: 'notification',
      billing_held: false,
      event_code: 'NOTIFICATION_OF_CHARGEBACK',
      amount: 1500,
      currency: 'USD',
      invoice_id: expect.stringMatching(/^in_/),
    });
  });

  test('a confirmed dispute holds billing (disputed, no next_billing_date)', async () => {
    const { sub } = await subscribe();
    await dispute(sub.id, { stage: 'notification', event_code: 'NOTIFICATION_OF_CHARGEBACK' });
    const held = await dispute(sub.id, { stage: 'confirmed', reason: 'fraudulent' });
    expect(held.body).toMatchObject({ status: 'disputed', next_billing_date: null });
    expect((await lastDispute(sub.id)).dispute).toMatchObject({
      stage: 'confirmed',
      billing_held: true,
      event_code: 'CHARGEBACK',
      reason: 'fraudulent',
    });
  });

  test('a reversed dispute (MANUAL_RELEASE) restores active billing', async () => {
    const { sub } = await subscribe();
    await dispute(sub.id, { stage: 'notification', event_code: 'NOTIFICATION_OF_CHARGEBACK' });
    await dispute(sub.id, { stage: 'confirmed', reason: 'fraudulent' });
    const released = await dispute(sub.id, { stage: 'reversed', event_code: 'MANUAL_RELEASE' });
    expect(released.body).toMatchObject({ status: 'active', next_billing_date: sub.current_period_end });
    expect((await lastDispute(sub.id)).dispute).toMatchObject({
      stage: 'reversed',
      billing_held: false,
      event_code: 'MANUAL_RELEASE',
    });
  });

  test('a hold mid-retry, once reversed, restores past_due with its next_retry_at', async () => {
    const { sub, customer } = await subscribe();
    // Make the next renewal fail with `retry`: switch to the insufficient-funds renewal card.
    const card = await addCard(customer.id, testCards.renewalRetry);
    await changeCard(sub.id, card.id);
    await advance(32 * DAY);
    const pastDue = await getSubscription(sub.id);
    expect(pastDue.status).toBe('past_due');
    await dispute(sub.id, { stage: 'confirmed' });
    await advance(2 * 60 * 60);
    const restored = (await dispute(sub.id, { stage: 'reversed', event_code: 'SOME_FUTURE_CODE' })).body;
    expect(restored).toMatchObject({ status: 'past_due', next_billing_date: pastDue.next_billing_date });
  });

  test('held periods are not back-charged: billing restarts at the next boundary of the original schedule', async () => {
    const { sub } = await subscribe(testCards.visa, { interval: 'weekly' });
    await dispute(sub.id, { stage: 'confirmed' });
    await advance(17 * DAY);
    expect(await eventsOfType(sub.id, 'subscription.renewed')).toHaveLength(1);
    const restored = (await dispute(sub.id, { stage: 'reversed' })).body;
    const start = new Date(sub.current_period_start!).getTime();
    const daysFromStart = (iso: string) => (new Date(iso).getTime() - start) / (DAY * 1000);
    expect(daysFromStart(restored.next_billing_date)).toBe(21);
    expect(restored.status).toBe('active');
    await advance(4 * DAY + 60);
    const renewed = await eventsOfType(sub.id, 'subscription.renewed');
    expect(renewed).toHaveLength(2);
    expect(daysFromStart(renewed[1].data.invoice!.period_start)).toBe(21);
  });

  test('a bad stage is a validation error on stage', async () => {
    const { sub } = await subscribe();
    expect((await dispute(sub.id, { stage: 'maybe' })).body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'stage' }],
    });
  });

  test('a subscription without a paid cycle cannot be disputed (invalid_state)', async () => {
    const { sub } = await subscribe(testCards.visa, { trial_period_days: 3 });
    expect((await dispute(sub.id, { stage: 'confirmed' })).body.error.code).toBe('invalid_state');
  });
});

describe('bad input', () => {
  const fieldsOf = (details: FieldError[]) => details.map((d) => d.field).sort();

  test('unknown interval, zero amount and trial days < 0 are 422 with a details entry per field', async () => {
    const { customer, pm } = await customerWithCard();
    const body = {
      customer_id: customer.id,
      payment_method_id: pm.id,
      amount_cents: 0,
      currency: 'USD',
      interval: 'fortnightly',
      trial_period_days: -1,
    };
    const res = await api.post('/api/v2/subscriptions', body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(fieldsOf(res.body.error.details)).toEqual(['amount_cents', 'interval', 'trial_period_days']);
  });

  test('a negative amount is a validation error on amount_cents', async () => {
    const { customer, pm } = await customerWithCard();
    const negative = await api.post('/api/v2/subscriptions', {
      customer_id: customer.id,
      payment_method_id: pm.id,
      amount_cents: -100,
      currency: 'USD',
      interval: 'monthly',
    });
    expect(negative.body.error).toMatchObject({ code: 'validation_error', param: 'amount_cents' });
  });

  test('missing fields are 400 invalid_request, each listed', async () => {
    const { customer } = await customerWithCard();
    const missing = await api.post('/api/v2/subscriptions', { customer_id: customer.id, currency: 'USD' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('invalid_request');
    expect(fieldsOf(missing.body.error.details)).toEqual(['amount_cents', 'interval', 'payment_method_id']);
  });

  const base = { amount_cents: 1000, currency: 'USD', interval: 'monthly' };

  test('an unknown customer is 404 customer_not_found on customer_id', async () => {
    const { pm } = await customerWithCard();
    const unknown = await api.post('/api/v2/subscriptions', {
      ...base,
      customer_id: 'cus_nope',
      payment_method_id: pm.id,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'customer_not_found', param: 'customer_id' });
  });

  test("another merchant's customer is 404 customer_not_found", async () => {
    const { customer, pm } = await customerWithCard();
    const otherMerchant = client(t.url, (await t.merchant('Other')).test_api_key);
    const foreign = await otherMerchant.post('/api/v2/subscriptions', {
      ...base,
      customer_id: customer.id,
      payment_method_id: pm.id,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('customer_not_found');
  });

  test("another customer's payment method is 400 invalid_payment_method on payment_method_id", async () => {
    const { customer } = await customerWithCard();
    const other = await customerWithCard();
    const notTheirs = await api.post('/api/v2/subscriptions', {
      ...base,
      customer_id: customer.id,
      payment_method_id: other.pm.id,
    });
    expect(notTheirs.status).toBe(400);
    expect(notTheirs.body.error).toMatchObject({ code: 'invalid_payment_method', param: 'payment_method_id' });
  });

  test('a detached payment method is 400 invalid_payment_method', async () => {
    const { customer, pm } = await customerWithCard();
    await api.delete(`/api/v2/customers/${customer.id}/payment-methods/${pm.id}`);
    const detached = await api.post('/api/v2/subscriptions', {
      ...base,
      customer_id: customer.id,
      payment_method_id: pm.id,
      trial_period_days: 14,
    });
    expect(detached.status).toBe(400);
    expect(detached.body.error.code).toBe('invalid_payment_method');
  });

  describe('an HSA/FSA card', () => {
    const hsaBase = async () => {
      const { customer, pm } = await customerWithCard(testCards.hsa);
      return {
        customer_id: customer.id,
        payment_method_id: pm.id,
        amount_cents: 900,
        currency: 'USD',
        interval: 'monthly',
      };
    };

    test('cannot pay for an ineligible product or for no product (400 invalid_payment_method)', async () => {
      const body = await hsaBase();
      const candy = await api.post('/api/v2/subscriptions', { ...body, merchant_product_id: 'CANDY' });
      expect(candy.status).toBe(400);
      expect(candy.body.error.code).toBe('invalid_payment_method');
      expect((await api.post('/api/v2/subscriptions', body)).body.error.code).toBe('invalid_payment_method');
    });

    test('pays for an eligible product', async () => {
      const therm = await api.post('/api/v2/subscriptions', { ...(await hsaBase()), merchant_product_id: 'THERM' });
      expect(therm.status).toBe(201);
      expect(therm.body).toMatchObject({ status: 'active', payment_method: { type: 'hsa_fsa_card' } });
    });
  });

  test('an unknown subscription id is 404 not_found', async () => {
    expect((await api.get('/api/v2/subscriptions/sub_nope')).body.error.code).toBe('not_found');
  });

  test('an unknown invoice id is 404', async () => {
    const { sub } = await subscribe();
    expect((await api.get(`/v2/subscriptions/${sub.id}/invoices/in_nope`)).status).toBe(404);
  });

  test('live mode never sees a test-mode subscription (404)', async () => {
    const { sub } = await subscribe();
    const keys = await t.merchant('Live one');
    const live = client(t.url, keys.live_api_key);
    expect((await live.get(`/api/v2/subscriptions/${sub.id}`)).status).toBe(404);
  });
});

describe('list', () => {
  /** A customer's monthly subscription `a`, then a trialing daily one `b` on the same card. */
  async function twoSubscriptions() {
    const { sub: a, customer, pm } = await subscribe();
    const body = {
      customer_id: customer.id,
      payment_method_id: pm.id,
      amount_cents: 700,
      currency: 'USD',
      interval: 'daily',
      trial_period_days: 2,
    };
    const b = (await api.post<SubscriptionResource>('/api/v2/subscriptions', body)).body;
    return { a, b, customer };
  }

  test('pages newest first by keyset, filtered by customer_id', async () => {
    const { a, b, customer } = await twoSubscriptions();
    expect(a.payment_method_id).toBe(b.payment_method_id);
    const mine = await api.get(`/api/v2/subscriptions?customer_id=${customer.id}&limit=1`);
    expect(mine.body).toMatchObject({ data: [{ id: b.id }], has_more: true, next_cursor: b.id });
    const next = await api.get(`/api/v2/subscriptions?customer_id=${customer.id}&limit=1&starting_after=${b.id}`);
    expect(next.body).toMatchObject({ data: [{ id: a.id }], has_more: false, next_cursor: null });
  });

  test('filters by status', async () => {
    const { b, customer } = await twoSubscriptions();
    const trialing = await api.get<Page<{ id: string }>>(
      `/api/v2/subscriptions?status=trialing&customer_id=${customer.id}`,
    );
    expect(trialing.body.data.map((s) => s.id)).toEqual([b.id]);
  });

  test('filters by creation time', async () => {
    const { b, customer } = await twoSubscriptions();
    const later = await api.get<Page<{ id: string }>>(
      `/api/v2/subscriptions?customer_id=${customer.id}&created_after=${encodeURIComponent(b.created_at!)}`,
    );
    expect(later.body.data.map((s) => s.id)).toEqual([b.id]);
  });

  test('refuses an unknown status filter (invalid_request)', async () => {
    expect((await api.get('/api/v2/subscriptions?status=bogus')).body.error.code).toBe('invalid_request');
  });
});

describe('PUT', () => {
  test('changes the amount from the next cycle on and replaces metadata', async () => {
    const { sub } = await subscribe();
    const res = await api.put(`/api/v2/subscriptions/${sub.id}`, { amount_cents: 2500, metadata: { tier: 'plus' } });
    expect(res.body).toMatchObject({ amount_cents: 2500, metadata: { tier: 'plus' } });
    await advance(32 * DAY);
    const renewed = await eventsOfType(sub.id, 'subscription.renewed');
    expect(renewed.map((e) => e.data.invoice!.amount_paid)).toEqual([1500, 2500]);
  });

  test('refuses a zero amount (422)', async () => {
    const { sub } = await subscribe();
    expect((await api.put(`/api/v2/subscriptions/${sub.id}`, { amount_cents: 0 })).status).toBe(422);
  });
});

test("subscription events are recorded in the merchant's test-mode scope like every event", async () => {
  const { sub } = await subscribe();
  const rows = await db().execute<{ merchant_id: string; livemode: boolean }[]>(
    `select merchant_id, livemode from events where data->>'subscription_id' = ?`,
    [sub.id],
  );
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => r.merchant_id === merchantId && r.livemode === false)).toBe(true);
});

describe('a paid payment_type subscription checkout', () => {
  /** Opens and pays (HSA card) a monthly THERM subscription checkout for a new email; returns the order and the customer's subscription. */
  async function paySubscriptionCheckout() {
    const email = `checkout.${Math.random().toString(36).slice(2, 8)}@example.com`;
    const body = {
      reference_id: 'cart_sub_1',
      customer: { email, first_name: 'Casey', last_name: 'Jones' },
      line_items: [{ product_id: 'THERM', name: 'Thermometer plan', price: 1500, quantity: 1, currency: 'USD' }],
      shipping_info: { address_line_1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
      success_url: 'https://shop.example.com/ok',
      failure_url: 'https://shop.example.com/ko',
      payment_type: 'subscription',
      subscription: { interval: 'monthly' },
    };
    const session = (await api.post('/api/v2/checkout', body)).body.data;
    const order = (
      await api.post<OrderResource>(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, {
        hsa_fsa_card: testCards.hsa,
      })
    ).body;
    const customers = (await api.get<Page<CustomerBody>>(`/api/v2/customers?email=${encodeURIComponent(email)}`)).body
      .data;
    expect(customers).toHaveLength(1);
    const subs = (await api.get<Page<SubscriptionResource>>(`/api/v2/subscriptions?customer_id=${customers[0].id}`))
      .body.data;
    expect(subs).toHaveLength(1);
    return { order, customer: customers[0], sub: subs[0] };
  }

  test('answers a captured recurring order and creates the customer, the stored card and an active subscription', async () => {
    const { order, customer, sub } = await paySubscriptionCheckout();
    expect(order).toMatchObject({ is_recurring: true, payment_status: 'captured', amount: 1500 });
    const card = { type: 'hsa_fsa_card', last4: '0013' };
    expect(sub).toMatchObject({
      status: 'active',
      amount_cents: 1500,
      currency: 'USD',
      interval: 'monthly',
      merchant_product_id: 'THERM',
      payment_method: card,
    });
    const methods = (await api.get<Page<PaymentMethodBody>>(`/api/v2/customers/${customer.id}/payment-methods`)).body
      .data;
    expect(methods.map((m) => m.id)).toEqual([sub.payment_method_id]);
  });

  test('makes the checkout order the first invoice, with no second charge', async () => {
    const { order, sub } = await paySubscriptionCheckout();
    const invoice = (await api.get(`/api/v2/subscriptions/${sub.id}/invoices/${sub.latest_invoice_id}`)).body;
    expect(invoice).toMatchObject({
      status: 'paid',
      order_id: order.id,
      amount_paid: 1500,
      attempt_count: 0,
      attempts: [],
      period_start: sub.current_period_start,
    });
    const events = await eventsOf(sub.id);
    expect(events.map((e) => e.type)).toEqual(['subscription.created', 'subscription.renewed']);
    expect(events[1].data.invoice).toMatchObject({ order_id: order.id, amount_paid: 1500 });
  });

  test('charges the next cycle to the stored card at the period end', async () => {
    const { order, sub } = await paySubscriptionCheckout();
    await advance(32 * DAY);
    const renewed = await eventsOfType(sub.id, 'subscription.renewed');
    expect(renewed).toHaveLength(2);
    expect(renewed[1].data.invoice!.period_start).toBe(sub.current_period_end);
    expect(renewed[1].data.invoice!.order_id).not.toBe(order.id);
  });
});
