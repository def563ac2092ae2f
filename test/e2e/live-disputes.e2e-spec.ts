import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import { toGlobalId } from '../../src/platform/relay/global-id.js';
import { openCheckout } from '../helpers/fixtures.js';
import type { ErrorBody } from '../helpers/http.js';
import { adyenCard, useLiveMode } from '../helpers/live-mode.js';

/**
 * Chargebacks in live mode, driven by the stand-in's signed dispute notifications
 * (NOTIFICATION_OF_CHARGEBACK, CHARGEBACK, CHARGEBACK_REVERSED), and accept / defend through
 * Adyen's DisputeService v30 (Prism checking every call against DisputeService-v30.json).
 */
const m = useLiveMode([
  ['thermo', 'Digital Thermometer', 1999],
  ['THERM', 'Digital thermometer', 1500],
]);

interface DisputeBody {
  stage: string;
  event_code: string;
  amount: number;
  psp_reference: string;
}

/** The jobs apply what Adyen sent. */
async function settle(): Promise<void> {
  await m.adyen.standIn.notifications.idle();
  await m.t.app.http.jobs.runDue(new Date());
}

async function paidOrder(): Promise<OrderResource> {
  const checkout = await openCheckout(m.live, [['thermo', 'Digital Thermometer', 1999, 1]]);
  const res = await m.live.post<OrderResource>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
    card: adyenCard('4111111111111111'),
  });
  expect(res.status).toBe(200);
  return res.body;
}

const getOrder = async (id: string) =>
  (await m.live.get<OrderResource & { dispute: DisputeBody | null }>(`/api/v2/orders/${id}`)).body;
const getDispute = (id: string) => m.live.get<DisputeBody & ErrorBody>(`/api/v2/orders/${id}/dispute`);

describe('a chargeback on a one-time order', () => {
  test('NOTIFICATION_OF_CHARGEBACK then CHARGEBACK make the order disputed, with the dispute visible; CHARGEBACK_REVERSED restores it', async () => {
    const order = await paidOrder();
    const psp = order.payments[0].psp_reference;
    expect((await getDispute(order.id)).status).toBe(404);

    m.adyen.standIn.dispute(psp, 'NOTIFICATION_OF_CHARGEBACK');
    await settle();
    expect(await getOrder(order.id)).toMatchObject({
      payment_status: 'disputed',
      dispute: { stage: 'notification', event_code: 'NOTIFICATION_OF_CHARGEBACK' },
    });

    m.adyen.standIn.dispute(psp, 'CHARGEBACK');
    await settle();
    const confirmed = await getDispute(order.id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ stage: 'confirmed', event_code: 'CHARGEBACK', amount: 1999 });

    m.adyen.standIn.dispute(psp, 'CHARGEBACK_REVERSED');
    await settle();
    expect(await getOrder(order.id)).toMatchObject({
      status: 'completed',
      payment_status: 'captured',
      dispute: { stage: 'reversed' },
    });
  });

  test('held, then delivered reversed and twice each: the same final state (reversed, order restored)', async () => {
    const order = await paidOrder();
    const psp = order.payments[0].psp_reference;
    m.adyen.standIn.notifications.hold();
    m.adyen.standIn.dispute(psp, 'NOTIFICATION_OF_CHARGEBACK');
    await new Promise((r) => setTimeout(r, 5)); // Adyen dates each event
    m.adyen.standIn.dispute(psp, 'CHARGEBACK');
    await new Promise((r) => setTimeout(r, 5));
    m.adyen.standIn.dispute(psp, 'CHARGEBACK_REVERSED');
    await m.adyen.standIn.notifications.release({ order: 'reverse', duplicate: true });
    await settle();
    expect(await getOrder(order.id)).toMatchObject({
      status: 'completed',
      payment_status: 'captured',
      dispute: { stage: 'reversed' },
    });
  });

  test('accepted over REST and defended over GraphQL through the DisputeService', async () => {
    const accepted = await paidOrder();
    m.adyen.standIn.dispute(accepted.payments[0].psp_reference, 'CHARGEBACK');
    await settle();
    const accept = await m.live.post(`/api/v2/orders/${accepted.id}/dispute/accept`, {});
    expect(accept.status).toBe(200);
    const standInDispute = [...m.adyen.standIn.disputes.values()].find(
      (d) => d.paymentPspReference === accepted.payments[0].psp_reference,
    )!;
    expect(standInDispute.status).toBe('Accepted');

    const defended = await paidOrder();
    m.adyen.standIn.dispute(defended.payments[0].psp_reference, 'NOTIFICATION_OF_CHARGEBACK');
    await settle();
    const defend = (reason: string) =>
      m.live.graphql<{
        defendDispute: {
          dispute: { stage: string; defenseReasonCode: string | null } | null;
          userErrors: { message: string; code: string }[];
        };
      }>(
        `mutation($id: ID!, $reason: String!) { defendDispute(orderId: $id, defenseReasonCode: $reason) { dispute { stage defenseReasonCode } userErrors { message code } } }`,
        { id: toGlobalId('Order', defended.id), reason },
      );
    // A reason that needs documents Adyen does not have yet is refused with Adyen's words.
    const refused = await defend('SupplyDefenseMaterial');
    expect(refused.body.data.defendDispute).toEqual({
      dispute: null,
      userErrors: [
        { code: 'INVALID_STATE', message: expect.stringContaining('Required defense documents are missing') },
      ],
    });
    // One that needs none is taken.
    const res = await defend('AdditionalInformation');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.defendDispute.dispute).toMatchObject({
      stage: 'NOTIFICATION',
      defenseReasonCode: 'AdditionalInformation',
    });
    const standIn = [...m.adyen.standIn.disputes.values()].find(
      (d) => d.paymentPspReference === defended.payments[0].psp_reference,
    )!;
    expect(standIn).toMatchObject({ status: 'Responded', defenseReasonCode: 'AdditionalInformation' });
  });
});

describe("a chargeback on a subscription's cycle", () => {
  test('CHARGEBACK holds the subscription (no renewal while disputed); CHARGEBACK_REVERSED restores it', async () => {
    const customer = (
      await m.live.post<{ id: string }>('/api/v2/customers', {
        email: 'dispute@example.com',
        first_name: 'Jane',
        last_name: 'Doe',
      })
    ).body;
    const pm = (
      await m.live.post<{ id: string }>(`/api/v2/customers/${customer.id}/payment-methods`, {
        card: adyenCard('4111111111111111'),
      })
    ).body;
    const sub = (
      await m.live.post<SubscriptionResource>('/api/v2/subscriptions', {
        customer_id: customer.id,
        payment_method_id: pm.id,
        amount_cents: 1500,
        currency: 'USD',
        interval: 'monthly',
        merchant_product_id: 'THERM',
      })
    ).body;
    const db = m.t.orm.em.getConnection();
    const [invoice] = await db.execute<{ psp_reference: string }[]>(
      `select psp_reference from subscription_invoices where subscription_id = ?`,
      [sub.id],
    );

    m.adyen.standIn.dispute(invoice.psp_reference, 'NOTIFICATION_OF_CHARGEBACK');
    m.adyen.standIn.dispute(invoice.psp_reference, 'CHARGEBACK');
    await settle();
    expect((await m.live.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('disputed');
    const disputed = await db.execute<{ data: { dispute: { stage: string; billing_held: boolean } } }[]>(
      `select data from events where type = 'subscription.disputed' and data->>'subscription_id' = ? order by created_at, id`,
      [sub.id],
    );
    expect(disputed.at(-1)!.data.dispute).toMatchObject({ stage: 'confirmed', billing_held: true });

    // Due again while disputed: nothing is charged.
    const charges = () =>
      [...m.adyen.standIn.payments.values()].filter((p) => p.shopperInteraction === 'ContAuth').length;
    const before = charges();
    await db.execute(`update subscriptions set next_charge_at = now() - interval '1 second' where id = ?`, [sub.id]);
    await m.t.app.http.jobs.runDue(new Date());
    expect(charges()).toBe(before);

    m.adyen.standIn.dispute(invoice.psp_reference, 'CHARGEBACK_REVERSED');
    await settle();
    expect((await m.live.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('active');
  });
});
