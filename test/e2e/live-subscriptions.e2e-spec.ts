import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import type { TokenWebhook } from '../helpers/adyen/notifications.js';
import { ADYEN_MERCHANT_ACCOUNT, adyenCard, useLiveMode } from '../helpers/live-mode.js';

/**
 * Subscriptions in live mode: the card is stored with a zero-amount verification at Adyen
 * (storePaymentMethod, shopperReference, recurringProcessingModel Subscription) and every cycle
 * is a merchant-initiated charge of the token (shopperInteraction ContAuth).
 */
const m = useLiveMode([['THERM', 'Digital thermometer', 1500]]);

const db = () => m.t.orm.em.getConnection();

interface Invoice {
  invoice_id: string;
  order_id: string;
  amount_paid: number;
  psp_reference: string;
}

async function subscribe(cardNumber: string) {
  const email = `jane.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const customer = (
    await m.live.post<{ id: string }>('/api/v2/customers', { email, first_name: 'Jane', last_name: 'Doe' })
  ).body;
  const pm = await m.live.post<{ id: string; last4: string }>(`/api/v2/customers/${customer.id}/payment-methods`, {
    card: adyenCard(cardNumber),
  });
  expect(pm.status).toBe(201);
  const res = await m.live.post<SubscriptionResource>('/api/v2/subscriptions', {
    customer_id: customer.id,
    payment_method_id: pm.body.id,
    amount_cents: 1500,
    currency: 'USD',
    interval: 'monthly',
    merchant_product_id: 'THERM',
  });
  expect(res.status).toBe(201);
  return { sub: res.body, pm: pm.body };
}

async function eventsOf(subId: string) {
  return db().execute<
    {
      type: string;
      data: { invoice?: Invoice; failure?: Record<string, unknown>; dispute?: Record<string, unknown> };
    }[]
  >(`select type, data from events where data->>'subscription_id' = ? order by created_at, id`, [subId]);
}

/** Moves the subscription a month back in time (live mode has no test clock), so its next cycle is due, and runs the billing sweep. */
async function renewNow(subId: string): Promise<void> {
  const back = `interval '1 month'`;
  await db().execute(
    `update subscriptions set anchor_at = anchor_at - ${back}, current_period_start = current_period_start - ${back},
       current_period_end = current_period_end - ${back}, next_charge_at = now() - interval '1 second' where id = ?`,
    [subId],
  );
  await db().execute(
    `update subscription_invoices set period_start = period_start - ${back}, period_end = period_end - ${back} where subscription_id = ?`,
    [subId],
  );
  await m.t.app.http.jobs.runDue(new Date());
}

test('the card is stored by a zero-amount verification, and the first cycle is a ContAuth charge of the token carrying its pspReference', async () => {
  const { sub, pm } = await subscribe('4111111111111111');
  expect(pm.last4).toBe('1111');
  expect(sub.status).toBe('active');
  const verification = [...m.adyen.standIn.payments.values()].find((p) => p.amountRequested.value === 0)!;
  expect(verification.request).toMatchObject({
    storePaymentMethod: true,
    recurringProcessingModel: 'Subscription',
    shopperInteraction: 'Ecommerce',
  });
  const [token] = [...m.adyen.standIn.tokens.values()];
  expect(token).toBeDefined();

  const [renewed] = (await eventsOf(sub.id)).filter((e) => e.type === 'subscription.renewed');
  const charge = m.adyen.standIn.payments.get(renewed.data.invoice!.psp_reference)!;
  expect(charge).toMatchObject({
    shopperInteraction: 'ContAuth',
    recurringProcessingModel: 'Subscription',
    storedPaymentMethodId: token.id,
    captured: 1500,
  });
  const order = (
    await m.live.get<{ payment_status: string; amount: number }>(`/api/v2/orders/${renewed.data.invoice!.order_id}`)
  ).body;
  expect(order).toMatchObject({ payment_status: 'captured', amount: 1500 });
});

test('a renewal charges the stored token again: a second invoice, paid, with its own Adyen pspReference', async () => {
  const { sub } = await subscribe('5555444433331111');
  await renewNow(sub.id);
  const invoices = (await eventsOf(sub.id))
    .filter((e) => e.type === 'subscription.renewed')
    .map((e) => e.data.invoice!);
  expect(invoices).toHaveLength(2);
  const [first, second] = invoices;
  expect(second.psp_reference).not.toBe(first.psp_reference);
  expect(m.adyen.standIn.payments.get(second.psp_reference)).toMatchObject({
    shopperInteraction: 'ContAuth',
    captured: 1500,
  });
  expect(second).toMatchObject({ amount_paid: 1500 });
});

test("a renewal Adyen refuses is subscription.payment_failed with Adyen's refusal code and the spec's disposition", async () => {
  const { sub } = await subscribe('4000000000000069'); // Expired Card (6) on merchant-initiated charges
  const failed = (await eventsOf(sub.id)).filter((e) => e.type === 'subscription.payment_failed');
  expect(failed).toHaveLength(1);
  expect(failed[0].data.failure).toMatchObject({ disposition: 'action_required', refusal_code: 'expired_card' });
});

describe("Adyen's tokenization webhooks", () => {
  const disabled = (token: { id: string; shopperReference: string }): TokenWebhook => ({
    type: 'recurring.token.disabled',
    eventId: `QFQTPCQ8HXSKGK${Math.floor(Math.random() * 90 + 10)}`,
    environment: 'test',
    createdAt: new Date().toISOString(),
    data: {
      merchantAccount: ADYEN_MERCHANT_ACCOUNT,
      shopperReference: token.shopperReference,
      storedPaymentMethodId: token.id,
      type: 'visa',
    },
  });
  const paymentMethod = async (customerId: string, id: string) =>
    (await m.live.get<{ detached_at: string | null }>(`/api/v2/customers/${customerId}/payment-methods/${id}`)).body;

  test('recurring.token.disabled detaches the stored card holding that token; a forged one is 401 and changes nothing', async () => {
    const { sub, pm } = await subscribe('4111111111111111');
    const token = [...m.adyen.standIn.tokens.values()].at(-1)!; // the one this subscription's card was stored as
    const customerId = sub.customer_id;

    const forged = await m.adyen.standIn.notifications.sendTokenWebhook(disabled(token), { forged: true });
    expect(forged.status).toBe(401);
    await m.t.app.http.jobs.runDue(new Date());
    expect((await paymentMethod(customerId, pm.id)).detached_at).toBeNull();

    const genuine = await m.adyen.standIn.notifications.sendTokenWebhook(disabled(token));
    expect(genuine.status).toBe(200);
    await m.t.app.http.jobs.runDue(new Date());
    expect((await paymentMethod(customerId, pm.id)).detached_at).not.toBeNull();
  });
});
