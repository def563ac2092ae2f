import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import type { RefundResource } from '../../src/modules/refunds/refund.resource.js';
import { toGlobalId } from '../../src/platform/relay/global-id.js';
import type { NotificationItem } from '../helpers/adyen/index.js';
import { Notifier } from '../helpers/adyen/notifications.js';
import { openCheckout } from '../helpers/fixtures.js';
import type { Envelope, ErrorBody } from '../helpers/http.js';
import { ADYEN_HMAC_KEY, adyenCard, useLiveMode } from '../helpers/live-mode.js';

/**
 * Adyen's notifications in live mode (CONTRACT: `POST /processor-notifications/adyen`): signed
 * items from the stand-in end refunds; forged ones change nothing; repeated and reordered ones
 * leave the same final state.
 */
const m = useLiveMode([
  ['thermo', 'Digital Thermometer', 1999],
  ['mug', 'Coffee Mug', 1700],
]);

const split: [string, string, number, number][] = [
  ['thermo', 'Digital Thermometer', 1999, 1],
  ['mug', 'Coffee Mug', 1700, 1],
];

async function paidSplitOrder(regularCard = '4111111111111111', hsaCard = '4111110000000013'): Promise<OrderResource> {
  const checkout = await openCheckout(m.live, split);
  const res = await m.live.post<OrderResource>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
    hsa_fsa: adyenCard(hsaCard),
    card: adyenCard(regularCard),
  });
  expect(res.status).toBe(200);
  return res.body;
}

/** Runs the due jobs (the refund sweep submits refunds to Adyen; the notification sweep applies what Adyen sent). */
const runJobs = () => m.t.app.http.jobs.runDue(new Date());

/** The jobs run, Adyen's notifications of what they did are delivered, and the jobs run again to apply them. */
async function settle(): Promise<void> {
  await runJobs();
  await m.adyen.standIn.notifications.idle();
  await runJobs();
}

const readRefund = async (id: string) =>
  (await m.live.get<Envelope<RefundResource>>(`/api/v2/refunds/${id}`)).body.data;
const eventTypes = async (): Promise<string[]> =>
  (
    await m.t.orm.em
      .getConnection()
      .execute<{ type: string }[]>(
        `select type from events where merchant_id = ? and livemode order by created_at, id`,
        [m.keys.id],
      )
  ).map((r) => r.type);
const storedNotifications = async (): Promise<number> =>
  Number(
    (await m.t.orm.em.getConnection().execute<{ n: string }[]>(`select count(*) as n from processor_notifications`))[0]
      .n,
  );

describe('refunds end with the REFUND / REFUND_FAILED notification', () => {
  test('REST: a refund is pending until REFUND arrives, then succeeded, each part carrying the Adyen refund pspReference', async () => {
    const order = await paidSplitOrder();
    const created = await m.live.post<Envelope<RefundResource>>('/api/v2/refunds', {
      order_id: order.id,
      reason: 'customer_request',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    m.adyen.standIn.notifications.hold();
    await runJobs();
    const submitted = await readRefund(id);
    expect(submitted.status).toBe('pending'); // Adyen said `received`: the notification decides
    await m.adyen.standIn.notifications.release();
    await settle();
    const done = await readRefund(id);
    expect(done.status).toBe('succeeded');
    const adyenRefunds = [...m.adyen.standIn.payments.values()].flatMap((p) =>
      p.modifications.filter((x) => x.kind === 'refund').map((x) => x.pspReference),
    );
    for (const part of done.refunds) expect(adyenRefunds).toContain(part.processor_refund_id);
    expect(await eventTypes()).toContain('refund.succeeded');
  });

  test('GraphQL: a refund Adyen fails (REFUND_FAILED) ends failed with refund.failed, and the payment can be refunded again', async () => {
    const order = await paidSplitOrder('4000000000005126');
    const mutation = `mutation($input: CreateRefundInput!) { createRefund(input: $input) { refund { refundId status } } }`;
    const created = await m.live.graphql<{ createRefund: { refund: { refundId: string; status: string } } }>(mutation, {
      input: { orderId: toGlobalId('Order', order.id), amount: 1700, reason: 'OTHER' },
    });
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createRefund.refund.refundId;
    await settle();
    const query = `query($id: ID!) { refund(id: $id) { status failureReason refunds { success processorRefundId } } }`;
    const failed = (
      await m.live.graphql<{ refund: { status: string; failureReason: string | null } }>(query, {
        id: toGlobalId('Refund', id),
      })
    ).body;
    expect(failed.data?.refund).toMatchObject({ status: 'FAILED' });
    expect(await eventTypes()).toContain('refund.failed');
    const again = await m.live.post('/api/v2/refunds', { order_id: order.id, amount: 1700, reason: 'other' });
    expect(again.status).toBe(201); // the failed amount is refundable again
  });
});

describe('CAPTURE_FAILED', () => {
  test('fails the order Adyen could not capture, with order.failed, once however often it is repeated', async () => {
    m.adyen.standIn.notifications.hold();
    const order = await paidSplitOrder('4000000000000259'); // captures answer `received`, then CAPTURE_FAILED
    expect(order).toMatchObject({ status: 'completed', payment_status: 'captured' });
    await m.adyen.standIn.notifications.release({ duplicate: true });
    await settle();
    const failed = (await m.live.get<OrderResource>(`/api/v2/orders/${order.id}`)).body;
    expect(failed).toMatchObject({
      status: 'failed',
      payment_status: 'failed',
      failure_reason: 'card: capture_failed',
    });
    const orderFailed = await m.t.orm.em
      .getConnection()
      .execute<{ n: number }[]>(
        `select count(*)::int as n from events where type = 'order.failed' and data->>'id' = ?`,
        [order.id],
      );
    expect(orderFailed[0].n).toBe(1);
  });
});

describe('a forged notification', () => {
  test('with a wrong signature is 401 and changes nothing: the refund stays pending, nothing is stored', async () => {
    const order = await paidSplitOrder();
    m.adyen.standIn.notifications.hold();
    const created = await m.live.post<Envelope<RefundResource>>('/api/v2/refunds', {
      order_id: order.id,
      amount: 500,
      reason: 'other',
    });
    await runJobs();
    const [refundItem] = m.adyen.standIn.notifications.pending.filter((i) => i.eventCode === 'REFUND');
    expect(refundItem).toBeDefined();
    const before = await storedNotifications();
    const forged = await m.adyen.standIn.notifications.forge(refundItem);
    expect(forged.status).toBe(401);
    const unsigned = await m.adyen.standIn.notifications.forge(refundItem, { signature: null });
    expect(unsigned.status).toBe(401);
    expect(await storedNotifications()).toBe(before);
    expect((await readRefund(created.body.data.id)).status).toBe('pending');
    // The genuine one, released, ends it.
    await m.adyen.standIn.notifications.release();
    await settle();
    expect((await readRefund(created.body.data.id)).status).toBe('succeeded');
  });

  test('a request mixing a good item with a forged one applies neither; an unknown merchant account is 401', async () => {
    const order = await paidSplitOrder();
    m.adyen.standIn.notifications.hold();
    const created = await m.live.post<Envelope<RefundResource>>('/api/v2/refunds', {
      order_id: order.id,
      amount: 300,
      reason: 'other',
    });
    await runJobs();
    const [good] = m.adyen.standIn.notifications.pending.filter((i) => i.eventCode === 'REFUND');
    const signed = (item: NotificationItem, key = ADYEN_HMAC_KEY) => Notifier.sign(item, key);
    const before = await storedNotifications();
    const mixed = await postNotifications([
      signed(good),
      signed({ ...good, pspReference: 'ZZZZZZZZZZZZZZZZ' }, 'ab'.repeat(32)),
    ]);
    expect(mixed.status).toBe(401);
    const unknown = await postNotifications([signed({ ...good, merchantAccountCode: 'SomeoneElseECOM' })]);
    expect(unknown.status).toBe(401);
    expect(await storedNotifications()).toBe(before);
    expect((await readRefund(created.body.data.id)).status).toBe('pending');
    await m.adyen.standIn.notifications.release();
    await settle();
    expect((await readRefund(created.body.data.id)).status).toBe('succeeded');
  });

  test('a body that is not a notification is 400 in the spec error shape', async () => {
    const res = await m.live.post<ErrorBody>('/processor-notifications/adyen', { hello: 'world' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });
});

describe('repeated and reordered notifications', () => {
  test('held, then sent reversed and each twice: one refund.succeeded per refund, same final state', async () => {
    const order = await paidSplitOrder();
    m.adyen.standIn.notifications.hold();
    const first = await m.live.post<Envelope<RefundResource>>('/api/v2/refunds', {
      order_id: order.id,
      amount: 1000,
      reason: 'other',
    });
    await runJobs();
    const second = await m.live.post<Envelope<RefundResource>>('/api/v2/refunds', {
      order_id: order.id,
      amount: 700,
      reason: 'other',
    });
    await runJobs();
    const typesBefore = (await eventTypes()).filter((t) => t === 'refund.succeeded').length;
    await m.adyen.standIn.notifications.release({ order: 'reverse', duplicate: true });
    await settle();
    for (const r of [first, second]) expect((await readRefund(r.body.data.id)).status).toBe('succeeded');
    expect((await eventTypes()).filter((t) => t === 'refund.succeeded').length).toBe(typesBefore + 2);
    const after = (await m.live.get<OrderResource>(`/api/v2/orders/${order.id}`)).body;
    const refunded = after.payments.reduce((sum, p) => sum + p.refunded_amount, 0);
    expect(refunded).toBe(1700);
  });
});

function postNotifications(items: NotificationItem[]) {
  return m.live.post<ErrorBody>('/processor-notifications/adyen', {
    live: 'false',
    notificationItems: items.map((NotificationRequestItem) => ({ NotificationRequestItem })),
  });
}
