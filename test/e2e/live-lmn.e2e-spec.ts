import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import { consoleClient, teamMember } from '../helpers/console.js';
import { openCheckout } from '../helpers/fixtures.js';
import { adyenCard, useLiveMode } from '../helpers/live-mode.js';

/**
 * Letters of medical necessity in live mode, through Adyen (behind Prism, checked against
 * CheckoutService-v72.json): the HSA/FSA payment is authorised with manual capture and held while
 * the review is open; a clinician's approval (console session in live mode) captures it by its
 * pspReference, a decline cancels it. The regular card of the split is captured at checkout.
 */
const m = useLiveMode([
  ['vit', 'Daily multivitamin', 1299],
  ['mug', 'Coffee Mug', 1700],
]);
const answers = {
  condition: 'Vitamin D deficiency',
  recommended_by_provider: true,
  provider_name: 'Dr. Smith',
  attestation: true,
};

/** A split purchase of the multivitamin (needs a letter) and a mug, by a new shopper: the review is pending. */
async function pendingOrder(): Promise<OrderResource & { lmn_review: { id: string } }> {
  const customer = {
    email: `jane.${Math.random().toString(36).slice(2, 8)}@example.com`,
    first_name: 'Jane',
    last_name: 'Doe',
  };
  const checkout = await openCheckout(
    m.live,
    [
      ['vit', 'Daily multivitamin', 1299, 1],
      ['mug', 'Coffee Mug', 1700, 1],
    ],
    { customer },
  );
  const res = await m.live.post<OrderResource>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
    hsa_fsa: adyenCard('4111110000000013'),
    card: adyenCard('4111111111111111'),
    lmn: answers,
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({
    status: 'processing',
    payment_status: 'authorized',
    lmn_review: { status: 'pending' },
  });
  return res.body as OrderResource & { lmn_review: { id: string } };
}

/** The Adyen payments of the order's split: the HSA/FSA one (held) and the regular one (captured). */
function adyenPayments() {
  const [order] = [...m.adyen.standIn.orders.values()].slice(-1);
  const [hsa, regular] = order.payments.map((psp) => m.adyen.standIn.payments.get(psp)!);
  return { hsa, regular };
}

/** A clinician signed in to the console, switched to live mode. */
async function liveClinician() {
  const email = `clinician-${Math.random().toString(36).slice(2, 8)}@team.test`;
  await teamMember(m.t, m.keys.id, email, 'clinician', {
    name: 'Dr. Ana Rivera',
    credential: 'MD',
    npi: '1234567893',
    licensed_states: ['TX'],
  });
  const console = consoleClient(m.t.url);
  expect((await console.signIn(email)).status).toBe(200);
  expect((await console.post('/console/mode', { livemode: true })).status).toBe(200);
  return console;
}

test('the HSA/FSA payment is held with manual capture while the review is open; the regular card is captured', async () => {
  await pendingOrder();
  const { hsa, regular } = adyenPayments();
  expect(hsa).toMatchObject({ manualCapture: true, amountAuthorised: { value: 1299 }, captured: 0 });
  expect(regular).toMatchObject({ amountAuthorised: { value: 1700 }, captured: 1700 });
});

test("a clinician's approval in the live console captures the HSA/FSA payment by its pspReference and completes the order", async () => {
  const order = await pendingOrder();
  const { hsa } = adyenPayments();
  const clinician = await liveClinician();
  const res = await clinician.graphql(
    'mutation($id: ID!) { approveLmnReview(id: $id) { review { status } letter { id } userErrors { message } } }',
    { id: order.lmn_review.id },
  );
  expect(res.body.data.approveLmnReview).toMatchObject({
    review: { status: 'APPROVED' },
    letter: { id: expect.stringMatching(/^lmn_/) },
    userErrors: [],
  });
  expect(m.adyen.standIn.payments.get(hsa.pspReference)).toMatchObject({ captured: 1299, status: 'captured' });
  expect((await m.live.get(`/api/v2/orders/${order.id}`)).body).toMatchObject({
    status: 'completed',
    payment_status: 'captured',
  });
  expect(m.adyen.violations()).toEqual([]);
});

test("a clinician's decline cancels the HSA/FSA authorisation at Adyen and refunds the regular card", async () => {
  const order = await pendingOrder();
  const { hsa, regular } = adyenPayments();
  const clinician = await liveClinician();
  const res = await clinician.graphql(
    'mutation($id: ID!) { declineLmnReview(id: $id, reason: "Not indicated") { review { status } userErrors { message } } }',
    { id: order.lmn_review.id },
  );
  expect(res.body.data.declineLmnReview).toMatchObject({ review: { status: 'DECLINED' }, userErrors: [] });
  expect(m.adyen.standIn.payments.get(hsa.pspReference)).toMatchObject({ status: 'cancelled', captured: 0 });
  expect(m.adyen.standIn.payments.get(regular.pspReference)).toMatchObject({ captured: 1700, refunded: 1700 });
  expect(m.adyen.standIn.payments.get(regular.pspReference)!.modifications.map((x) => x.kind)).toEqual([
    'capture',
    'refund',
  ]);
  expect((await m.live.get(`/api/v2/orders/${order.id}`)).body).toMatchObject({
    status: 'failed',
    lmn_review: { status: 'declined' },
  });
  expect(m.adyen.violations()).toEqual([]);
});
