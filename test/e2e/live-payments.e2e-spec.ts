import { toGlobalId } from '../../src/platform/relay/global-id.js';
import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import type { ErrorBody } from '../helpers/http.js';
import { openCheckout } from '../helpers/fixtures.js';
import { adyenCard, useLiveMode } from '../helpers/live-mode.js';

/**
 * Live mode through Adyen (CONTRACT "Live mode: Adyen is the card processor"): every call the
 * service makes goes through Prism checking it against CheckoutService-v72.json to the stand-in.
 */
const m = useLiveMode([
  ['thermo', 'Digital Thermometer', 1999],
  ['mug', 'Coffee Mug', 1700],
  ['glasses', 'Reading Glasses +2.00', 2500],
  ['denture', 'Denture adhesive cream', 800],
]);

const thermosAndMug: [string, string, number, number][] = [
  ['thermo', 'Digital Thermometer', 1999, 2],
  ['mug', 'Coffee Mug', 1700, 1],
];

describe('a split checkout paid with a glm_live_ key through POST /api/v2/checkout/{id}/payments', () => {
  test('is one Adyen order; the HSA/FSA card partly authorised, the remainder moves to the regular card', async () => {
    const checkout = await openCheckout(m.live, thermosAndMug);
    expect(checkout.amounts).toMatchObject({ hsa_amount: 3998, regular_amount: 1700 });
    const res = await m.live.post<OrderResource>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
      hsa_fsa: adyenCard('4111110000000054'),
      card: adyenCard('4111111111111111'),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', payment_status: 'captured', amount: 5698 });
    expect(res.body.amounts).toMatchObject({ hsa_amount: 2000, regular_amount: 3698 });
    const adyenOrders = [...m.adyen.standIn.orders.values()];
    expect(adyenOrders).toHaveLength(1);
    expect(adyenOrders[0]).toMatchObject({ amount: { currency: 'USD', value: 5698 }, status: 'paid' });
    const [hsa, regular] = adyenOrders[0].payments.map((psp) => m.adyen.standIn.payments.get(psp)!);
    expect(hsa).toMatchObject({
      amountRequested: { value: 3998 },
      amountAuthorised: { value: 2000 },
      captured: 2000,
      resultCode: 'PartiallyAuthorised',
    });
    expect(hsa.requestAdditionalData).toMatchObject({
      allowPartialAuth: 'true',
      'enhancedSchemeData.healthcare.totalHealthcareValue': '3998',
    });
    expect(regular).toMatchObject({
      amountRequested: { value: 3698 },
      amountAuthorised: { value: 3698 },
      captured: 3698,
      resultCode: 'Authorised',
    });
    // The order's payments carry Adyen's pspReferences, over REST and GraphQL alike.
    expect(res.body.payments.map((p) => [p.payment_method, p.amount, p.psp_reference])).toEqual([
      ['hsa_fsa_card', 2000, hsa.pspReference],
      ['card', 3698, regular.pspReference],
    ]);
    const gql = await m.live.graphql<{
      order: {
        paymentStatus: string;
        amounts: { hsaAmount: number };
        payments: { pspReference: string; amount: number }[];
      };
    }>(`query($id: ID!) { order(id: $id) { paymentStatus amounts { hsaAmount } payments { pspReference amount } } }`, {
      id: toGlobalId('Order', res.body.id),
    });
    expect(gql.body.data?.order).toEqual({
      paymentStatus: 'CAPTURED',
      amounts: { hsaAmount: 2000 },
      payments: [
        { pspReference: hsa.pspReference, amount: 2000 },
        { pspReference: regular.pspReference, amount: 3698 },
      ],
    });
  });
});

describe("the HSA/FSA authorisation carries the checkout's IIAS breakdown", () => {
  test("one regular card paying it: Adyen charges it the total and the order's amounts say so, over REST and GraphQL", async () => {
    const checkout = await openCheckout(m.live, thermosAndMug);
    const res = await m.live.post<OrderResource>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
      card: adyenCard('4111111111111111'),
    });
    expect(res.status).toBe(200);
    const [payment] = res.body.payments;
    expect(m.adyen.standIn.payments.get(payment.psp_reference)).toMatchObject({
      amountAuthorised: { value: 5698 },
      captured: 5698,
    });
    expect(res.body.amounts).toMatchObject({ hsa_amount: 0, regular_amount: 5698, total: 5698 });
    const gql = await m.live.graphql<{ order: { amounts: { hsaAmount: number; regularAmount: number } } }>(
      `query($id: ID!) { order(id: $id) { amounts { hsaAmount regularAmount } } }`,
      {
        id: toGlobalId('Order', res.body.id),
      },
    );
    expect(gql.body.data.order.amounts).toEqual({ hsaAmount: 0, regularAmount: 5698 });
  });

  test('enhancedSchemeData.healthcare.* in additionalData: the total and the prescription, vision, clinic and dental parts the catalog and overrides give', async () => {
    const refill = await m.live.post('/api/v2/products', {
      name: 'Allergy refill',
      price: 1200,
      currency: 'USD',
      merchant_product_id: 'refill',
      hsa_fsa_eligibility: { status: 'eligible', category: 'rx' },
    });
    expect(refill.status).toBe(201);
    const checkout = await openCheckout(m.live, [
      ['glasses', 'Reading Glasses', 2500, 1],
      ['denture', 'Denture cream', 800, 1],
      ['refill', 'Allergy refill', 1200, 1],
      ['thermo', 'Digital Thermometer', 1999, 1],
      ['mug', 'Coffee Mug', 1700, 1],
    ]);
    expect(checkout.amounts).toMatchObject({
      hsa_amount: 6499,
      healthcare: { rx: 1200, vision: 2500, clinic: 0, dental: 800, otc: 1999 },
    });
    const res = await pay(checkout.checkout_id, {
      hsa_fsa: adyenCard('4111110000000013'),
      card: adyenCard('4111111111111111'),
    });
    expect(res.status).toBe(200);
    const hsa = [...m.adyen.standIn.payments.values()].find((p) => p.amountRequested.value === 6499)!;
    expect(hsa.requestAdditionalData).toMatchObject({
      'enhancedSchemeData.healthcare.totalHealthcareValue': '6499',
      'enhancedSchemeData.healthcare.prescriptionValue': '1200',
      'enhancedSchemeData.healthcare.visionPrescriptionValue': '2500',
      'enhancedSchemeData.healthcare.dentalValue': '800',
    });
    expect(hsa.requestAdditionalData).not.toHaveProperty(['enhancedSchemeData.healthcare.otherMedicalValue']); // no clinic items: left out
  });
});

const pay = (checkoutId: string, body: unknown) =>
  m.live.post<OrderResource & ErrorBody & Omit<ActionRequired, 'status'>>(
    `/api/v2/checkout/${checkoutId}/payments`,
    body,
  );
const details = (checkoutId: string, body: unknown) =>
  m.live.post<OrderResource & ErrorBody>(`/api/v2/checkout/${checkoutId}/payments/details`, body);

interface ActionRequired {
  checkout_id: string;
  status: 'action_required';
  action: { type: string; url?: string; authorisationToken?: string; paymentData?: string };
}

describe('a declined card in live mode', () => {
  test("is 402 card_declined with Adyen's refusal reason in message and its code in details; the checkout stays payable", async () => {
    const checkout = await openCheckout(m.live, [['mug', 'Coffee Mug', 1700, 1]]);
    const declined = await pay(checkout.checkout_id, { card: adyenCard('4000000000000002') });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      code: 'card_declined',
      param: 'card',
      message: expect.stringContaining('Refused'),
    });
    expect(declined.body.error.details).toMatchObject({ refusal_reason_code: '2' });

    const session = await m.live.get<{ data: { status: string } }>(`/api/v2/checkout/${checkout.checkout_id}`);
    expect(session.body.data.status).toBe('open');
    const paid = await pay(checkout.checkout_id, { card: adyenCard('5555444433331111') });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'completed', payment_status: 'captured', amount: 1700 });
  });

  test('an HSA/FSA card refused for its balance, in a split checkout, releases nothing it did not take and leaves no Adyen order open', async () => {
    const checkout = await openCheckout(m.live, thermosAndMug);
    const declined = await pay(checkout.checkout_id, {
      hsa_fsa: adyenCard('4111110000000021'),
      card: adyenCard('4111111111111111'),
    });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      code: 'card_declined',
      param: 'hsa_fsa',
      details: expect.objectContaining({ refusal_reason_code: '12' }),
    });
    const open = [...m.adyen.standIn.orders.values()].filter((o) => o.status === 'open');
    expect(open).toEqual([]);
  });

  test('a failure of the regular card cancels the Adyen order and releases the HSA/FSA authorisation', async () => {
    const checkout = await openCheckout(m.live, thermosAndMug);
    const before = new Set(m.adyen.standIn.orders.keys());
    const declined = await pay(checkout.checkout_id, {
      hsa_fsa: adyenCard('4111110000000013'),
      card: adyenCard('4000000000000002'),
    });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ code: 'card_declined', param: 'card' });
    const [order] = [...m.adyen.standIn.orders.values()].filter((o) => !before.has(o.pspReference));
    expect(order.status).toBe('cancelled');
    const hsa = order.payments.map((psp) => m.adyen.standIn.payments.get(psp)!).find((p) => p.lastFour === '0013')!;
    expect(hsa.captured).toBe(0);
    expect(['cancelled', 'Cancelled']).toContain(hsa.status);
  });
});

describe('3-D Secure in live mode', () => {
  test("a challenge comes back as 202 with Adyen's action, and /payments/details with the threeDSResult answers the order", async () => {
    const checkout = await openCheckout(m.live, [['mug', 'Coffee Mug', 1700, 1]]);
    const challenged = await pay(checkout.checkout_id, {
      card: adyenCard('4212345678901237'),
      return_url: 'https://shop.example.com/return',
    });
    expect(challenged.status).toBe(202);
    expect(challenged.body).toMatchObject({
      checkout_id: checkout.checkout_id,
      status: 'action_required',
      action: { type: 'threeDS2' },
    });
    const threeDSResult = m.adyen.standIn.threeDSResult(challenged.body.action.authorisationToken!, 'Y');
    const done = await details(checkout.checkout_id, { details: { threeDSResult } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      checkout_id: checkout.checkout_id,
      status: 'completed',
      payment_status: 'captured',
      amount: 1700,
    });
  });

  test('a failed challenge is 402 and the checkout stays payable', async () => {
    const checkout = await openCheckout(m.live, [['mug', 'Coffee Mug', 1700, 1]]);
    const challenged = await pay(checkout.checkout_id, { card: adyenCard('4212345678901237') });
    expect(challenged.status).toBe(202);
    const threeDSResult = m.adyen.standIn.threeDSResult(challenged.body.action.authorisationToken!, 'N');
    const failed = await details(checkout.checkout_id, { details: { threeDSResult } });
    expect(failed.status).toBe(402);
    expect(failed.body.error.code).toBe('card_declined');
    expect((await pay(checkout.checkout_id, { card: adyenCard('4111111111111111') })).status).toBe(200);
  });

  test('a redirect comes back as 202 with the issuer URL; the redirectResult finishes it', async () => {
    const checkout = await openCheckout(m.live, [['mug', 'Coffee Mug', 1700, 1]]);
    const redirected = await pay(checkout.checkout_id, {
      card: adyenCard('4917610000000000'),
      return_url: 'https://shop.example.com/return',
    });
    expect(redirected.status).toBe(202);
    expect(redirected.body.action).toMatchObject({ type: 'redirect', url: expect.stringMatching(/^http/) });
    const psp = [...m.adyen.standIn.payments.values()].find((p) => p.pending?.type === 'redirect')!.pspReference;
    const done = await details(checkout.checkout_id, {
      details: { redirectResult: m.adyen.standIn.redirectResult(psp) },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', amount: 1700 });
  });

  test('/payments/details without a payment waiting for the shopper is 400 invalid_state', async () => {
    const checkout = await openCheckout(m.live, [['mug', 'Coffee Mug', 1700, 1]]);
    const res = await details(checkout.checkout_id, { details: { threeDSResult: 'nothing-pending' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_state');
  });
});
