import adyen from '@adyen/api-library';
import { createServer, type Server } from 'node:http';
import { AdyenHttpClient } from '../../src/modules/payments/adyen/adyen-http-client.js';
import { startAdyen, type AdyenHarness, type NotificationItem } from '../helpers/adyen/index.js';

// The stand-in for Adyen behind Prism, driven with Adyen's own Node library: what the library
// sends and what the stand-in answers must both match Adyen's published documents.

const API_KEY = 'AQE_test_key';
const MERCHANT = 'HealthCommerceECOM';
const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const card = (number: string) => ({
  type: 'scheme',
  encryptedCardNumber: `test_${number}`,
  encryptedExpiryMonth: 'test_03',
  encryptedExpiryYear: 'test_2030',
  encryptedSecurityCode: 'test_737',
});
const usd = (value: number) => ({ currency: 'USD', value });

interface Received {
  item: NotificationItem;
  validSignature: boolean;
  authorization?: string;
}

/** The merchant's notification endpoint: checks each item's HMAC as a real verifier does. */
async function startMerchantEndpoint() {
  const received: Received[] = [];
  let failNext = 0;
  const validator = new adyen.hmacValidator();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { notificationItems: { NotificationRequestItem: NotificationItem }[] };
      let allValid = true;
      for (const { NotificationRequestItem: item } of body.notificationItems) {
        let validSignature = false;
        try {
          validSignature = validator.validateHMAC(item as never, HMAC_KEY);
        } catch {
          validSignature = false;
        }
        allValid &&= validSignature;
        received.push({ item, validSignature, authorization: req.headers.authorization });
      }
      if (failNext > 0) {
        failNext--;
        res.writeHead(500).end('try later');
      } else if (!allValid) res.writeHead(401).end('bad signature');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('[accepted]');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/processor-notifications/adyen`,
    received,
    failNextRequests(n: number) {
      failNext = n;
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

/**
 * The library's services, their calls sent through Prism. The library computes Adyen's URLs itself
 * (https://checkout-test.adyen.com/v72/..., .../ca/services/DisputeService/v30/...) and its own
 * transport speaks https only; the service's transport (AdyenHttpClient) sends the same requests
 * over fetch to the base URLs it is given, which is how the service reaches the stand-in.
 */
function libraryClients(apiKey: string, harness: AdyenHarness) {
  const transport = new AdyenHttpClient({ checkoutUrl: harness.checkoutUrl, disputesUrl: harness.disputesUrl });
  const client = new adyen.Client({ apiKey, environment: adyen.EnvironmentEnum.TEST }, transport);
  const checkout = new adyen.CheckoutAPI(client);
  return {
    payments: checkout.PaymentsApi,
    modifications: checkout.ModificationsApi,
    orders: checkout.OrdersApi,
    recurring: checkout.RecurringApi,
    disputes: new adyen.DisputesAPI(client).DisputesApi,
  };
}

type Api = ReturnType<typeof libraryClients>;
type PaymentRequest = Parameters<Api['payments']['payments']>[0];
type PaymentResult = Awaited<ReturnType<Api['payments']['payments']>>;

describe('Adyen stand-in behind Prism, driven by @adyen/api-library', () => {
  let harness: AdyenHarness;
  let endpoint: Awaited<ReturnType<typeof startMerchantEndpoint>>;
  let api: Api;
  let n = 0;

  beforeAll(async () => {
    harness = await startAdyen({ apiKey: API_KEY, merchantAccount: MERCHANT, retryDelaysMs: [20, 40] });
    endpoint = await startMerchantEndpoint();
    harness.standIn.notifyTo(endpoint.url, {
      hmacKeyHex: HMAC_KEY,
      basicAuth: { username: 'adyen', password: 'notify-secret' },
    });
    api = libraryClients(API_KEY, harness);
  }, 60_000);

  afterEach(async () => {
    await harness.standIn.notifications.idle();
    expect(harness.violations()).toEqual([]);
  });

  afterAll(async () => {
    await harness?.close();
    await endpoint?.close();
  });

  const pay = (request: Record<string, unknown>, idempotencyKey?: string): Promise<PaymentResult> =>
    api.payments.payments(
      {
        amount: usd(5000),
        merchantAccount: MERCHANT,
        reference: `ord_${++n}`,
        returnUrl: 'https://shop.example/return',
        ...request,
      } as unknown as PaymentRequest,
      idempotencyKey ? { idempotencyKey } : undefined,
    );

  /** Waits for the merchant endpoint to have accepted a notification matching `match`. */
  const notification = async (match: (i: NotificationItem) => boolean): Promise<Received> => {
    await harness.standIn.notifications.waitFor((d) => match(d.item));
    return endpoint.received.find((r) => match(r.item))!;
  };

  it('authorises and captures: CAPTURE notification signed so that HmacValidator accepts it', async () => {
    const auth = await pay({ amount: usd(12_500), paymentMethod: card('4111111111111111') });
    expect(auth.resultCode).toBe('Authorised');
    expect(auth.pspReference).toMatch(/^[A-Z0-9]{16}$/);
    expect(auth.paymentMethod).toEqual(expect.objectContaining({ type: 'scheme', brand: 'visa' }));
    expect(auth.additionalData).toEqual(expect.objectContaining({ cardSummary: '1111', fundingSource: 'CREDIT' }));
    const psp = auth.pspReference!;
    expect(harness.standIn.payments.get(psp)).toEqual(expect.objectContaining({ status: 'authorised', captured: 0 }));

    const authorisation = await notification((i) => i.eventCode === 'AUTHORISATION' && i.pspReference === psp);
    expect(authorisation.validSignature).toBe(true);
    expect(authorisation.item).toEqual(
      expect.objectContaining({ success: 'true', merchantReference: auth.merchantReference, amount: usd(12_500) }),
    );
    expect(authorisation.item.originalReference).toBeUndefined();
    expect(authorisation.authorization).toBe(`Basic ${Buffer.from('adyen:notify-secret').toString('base64')}`);

    const capture = await api.modifications.captureAuthorisedPayment(psp, {
      merchantAccount: MERCHANT,
      amount: usd(12_500),
      reference: 'cap_1',
    });
    expect(capture).toEqual(expect.objectContaining({ status: 'received', paymentPspReference: psp }));
    expect(capture.pspReference).not.toBe(psp);
    const captured = await notification((i) => i.eventCode === 'CAPTURE' && i.originalReference === psp);
    expect(captured.validSignature).toBe(true);
    expect(captured.item).toEqual(
      expect.objectContaining({ pspReference: capture.pspReference, success: 'true', amount: usd(12_500) }),
    );
    expect(harness.standIn.payments.get(psp)).toEqual(
      expect.objectContaining({ status: 'captured', captured: 12_500 }),
    );
  });

  it('refuses a declined card, and refuses undecryptable card data with 422', async () => {
    const refused = await pay({ paymentMethod: card('4000000000000002') });
    expect(refused).toEqual(
      expect.objectContaining({ resultCode: 'Refused', refusalReason: 'Refused', refusalReasonCode: '2' }),
    );
    const item = await notification((i) => i.eventCode === 'AUTHORISATION' && i.pspReference === refused.pspReference);
    expect(item.item.success).toBe('false');

    await expect(
      pay({ paymentMethod: { ...card('4111111111111111'), encryptedCardNumber: '4111111111111111' } }),
    ).rejects.toMatchObject({
      statusCode: 422,
      responseBody: expect.stringContaining('"errorCode":"174"'),
    });
  });

  it('partially authorises the HSA/FSA card inside an Adyen order, then takes the remainder on a second card', async () => {
    const order = await api.orders.orders({ amount: usd(5_000), merchantAccount: MERCHANT, reference: 'split_1' });
    expect(order).toEqual(expect.objectContaining({ resultCode: 'Success', remainingAmount: usd(5_000) }));
    await notification((i) => i.eventCode === 'ORDER_OPENED' && i.pspReference === order.pspReference);

    const noPartial = await pay({ amount: usd(5_000), paymentMethod: card('4111110000000054') });
    expect(noPartial).toEqual(
      expect.objectContaining({ resultCode: 'Refused', refusalReason: 'Not enough balance', refusalReasonCode: '12' }),
    );

    const hsa = await pay({
      amount: usd(5_000),
      paymentMethod: card('4111110000000054'),
      additionalData: { allowPartialAuth: 'true' },
      order: { pspReference: order.pspReference!, orderData: order.orderData },
    });
    expect(hsa.resultCode).toBe('PartiallyAuthorised');
    expect(hsa.amount).toEqual(usd(2_000));
    expect(hsa.additionalData).toEqual(
      expect.objectContaining({
        authorisedAmountValue: '2000',
        authorisedAmountCurrency: 'USD',
        fundingSource: 'PREPAID',
      }),
    );
    expect(hsa.order?.remainingAmount).toEqual(usd(3_000));

    const rest = await pay({
      amount: usd(3_000),
      paymentMethod: card('5555444433331111'),
      order: { pspReference: order.pspReference!, orderData: hsa.order!.orderData! },
    });
    expect(rest.resultCode).toBe('Authorised');
    expect(rest.paymentMethod?.brand).toBe('mc');
    expect(rest.order?.remainingAmount).toEqual(usd(0));
    expect(harness.standIn.orders.get(order.pspReference!)?.status).toBe('paid');
    const closed = await notification((i) => i.eventCode === 'ORDER_CLOSED' && i.pspReference === order.pspReference);
    expect(closed.item.success).toBe('true');
  });

  it('cancels an Adyen order and the payment made in it', async () => {
    const order = await api.orders.orders({ amount: usd(4_000), merchantAccount: MERCHANT, reference: 'split_2' });
    const hsa = await pay({
      amount: usd(4_000),
      paymentMethod: card('4111110000000054'),
      additionalData: { allowPartialAuth: 'true' },
      order: { pspReference: order.pspReference!, orderData: order.orderData },
    });
    expect(hsa.resultCode).toBe('PartiallyAuthorised');
    const cancelled = await api.orders.cancelOrder({
      merchantAccount: MERCHANT,
      order: { pspReference: order.pspReference!, orderData: hsa.order!.orderData! },
    });
    expect(cancelled.resultCode).toBe('Received');
    expect(harness.standIn.payments.get(hsa.pspReference!)?.status).toBe('cancelled');
    expect(harness.standIn.orders.get(order.pspReference!)?.status).toBe('cancelled');
    await notification(
      (i) => i.eventCode === 'CANCELLATION' && i.originalReference === hsa.pspReference && i.success === 'true',
    );
    const closed = await notification((i) => i.eventCode === 'ORDER_CLOSED' && i.pspReference === order.pspReference);
    expect(closed.item.success).toBe('false');
  });

  it('asks for a 3-D Secure 2 challenge, then authorises (or refuses) through /payments/details', async () => {
    const challenged = await pay({ paymentMethod: card('4212345678901237') });
    expect(challenged.resultCode).toBe('ChallengeShopper');
    expect(challenged.action).toEqual(
      expect.objectContaining({ type: 'threeDS2', subtype: 'challenge', paymentMethodType: 'scheme' }),
    );
    const token = (challenged.action as { authorisationToken: string }).authorisationToken;
    const done = await api.payments.paymentsDetails({
      details: { threeDSResult: harness.standIn.threeDSResult(token, 'Y') },
    });
    expect(done).toEqual(expect.objectContaining({ resultCode: 'Authorised', pspReference: challenged.pspReference }));

    const failing = await pay({ paymentMethod: card('4212345678901237') });
    const failed = await api.payments.paymentsDetails({
      details: {
        threeDSResult: harness.standIn.threeDSResult(
          (failing.action as { authorisationToken: string }).authorisationToken,
          'N',
        ),
      },
    });
    expect(failed).toEqual(
      expect.objectContaining({
        resultCode: 'Refused',
        refusalReason: '3D Not Authenticated',
        refusalReasonCode: '11',
      }),
    );
  });

  it('redirects the shopper, then authorises with the redirectResult', async () => {
    const redirected = await pay({
      paymentMethod: card('4917610000000000'),
      returnUrl: 'https://shop.example/checkout/return?cs=1',
    });
    expect(redirected.resultCode).toBe('RedirectShopper');
    const action = redirected.action as { type: string; url: string; method: string };
    expect(action).toEqual(expect.objectContaining({ type: 'redirect', method: 'GET', paymentMethodType: 'scheme' }));
    const page = await fetch(action.url, { redirect: 'manual' });
    expect(page.status).toBe(302);
    const back = new URL(page.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('https://shop.example/checkout/return');
    const done = await api.payments.paymentsDetails({
      details: { redirectResult: back.searchParams.get('redirectResult')! },
    });
    expect(done).toEqual(expect.objectContaining({ resultCode: 'Authorised', pspReference: redirected.pspReference }));
  });

  it('refunds: REFUND on success, REFUND_FAILED for the failing card', async () => {
    const paidAndCaptured = async (number: string) => {
      const auth = await pay({ amount: usd(9_000), paymentMethod: card(number) });
      await api.modifications.captureAuthorisedPayment(auth.pspReference!, {
        merchantAccount: MERCHANT,
        amount: usd(9_000),
      });
      return auth.pspReference!;
    };
    const good = await paidAndCaptured('4111111111111111');
    const refund = await api.modifications.refundCapturedPayment(good, {
      merchantAccount: MERCHANT,
      amount: usd(4_000),
      reference: 'ref_1',
    });
    expect(refund).toEqual(
      expect.objectContaining({ status: 'received', paymentPspReference: good, amount: usd(4_000) }),
    );
    const ok = await notification((i) => i.eventCode === 'REFUND' && i.originalReference === good);
    expect(ok.item).toEqual(expect.objectContaining({ success: 'true', pspReference: refund.pspReference }));
    expect(harness.standIn.payments.get(good)).toEqual(
      expect.objectContaining({ status: 'partly_refunded', refunded: 4_000 }),
    );

    const bad = await paidAndCaptured('4000000000005126');
    const failing = await api.modifications.refundCapturedPayment(bad, {
      merchantAccount: MERCHANT,
      amount: usd(9_000),
    });
    expect(failing.status).toBe('received');
    const failed = await notification((i) => i.eventCode === 'REFUND_FAILED' && i.originalReference === bad);
    expect(failed.validSignature).toBe(true);
    expect(harness.standIn.payments.get(bad)).toEqual(expect.objectContaining({ status: 'captured', refunded: 0 }));
  });

  it('stores a token with a zero-amount verification, then charges it merchant-initiated (ContAuth)', async () => {
    const store = (number: string, shopperReference: string) =>
      pay({
        amount: usd(0),
        paymentMethod: card(number),
        storePaymentMethod: true,
        shopperReference,
        shopperInteraction: 'Ecommerce',
        recurringProcessingModel: 'Subscription',
      });
    const charge = (storedPaymentMethodId: string, shopperReference: string) =>
      pay({
        amount: usd(2_900),
        paymentMethod: { type: 'scheme', storedPaymentMethodId },
        shopperReference,
        shopperInteraction: 'ContAuth',
        recurringProcessingModel: 'Subscription',
      });

    const verified = await store('4111111111111111', 'cus_good');
    expect(verified.resultCode).toBe('Authorised');
    const tokenId = verified.additionalData!['tokenization.storedPaymentMethodId'];
    expect(verified.additionalData!['recurring.recurringDetailReference']).toBe(tokenId);
    const contract = await notification((i) => i.eventCode === 'RECURRING_CONTRACT' && i.pspReference === tokenId);
    expect(contract.item.originalReference).toBe(verified.pspReference);
    const listed = await api.recurring.getTokensForStoredPaymentDetails('cus_good', MERCHANT);
    expect(listed.storedPaymentMethods?.map((m) => m.id)).toEqual([tokenId]);

    const renewal = await charge(tokenId, 'cus_good');
    expect(renewal.resultCode).toBe('Authorised');
    expect(harness.standIn.payments.get(renewal.pspReference!)).toEqual(
      expect.objectContaining({ shopperInteraction: 'ContAuth', storedPaymentMethodId: tokenId }),
    );

    const poor = await store('4000000000000341', 'cus_poor');
    expect(poor.resultCode).toBe('Authorised');
    const declined = await charge(poor.additionalData!['tokenization.storedPaymentMethodId'], 'cus_poor');
    expect(declined).toEqual(
      expect.objectContaining({ resultCode: 'Refused', refusalReason: 'Not enough balance', refusalReasonCode: '12' }),
    );
  });

  it('replays a repeated Idempotency-Key: same answer, nothing done twice', async () => {
    const before = harness.standIn.payments.size;
    const first = await pay({ paymentMethod: card('4111111111111111'), reference: 'ord_idem' }, 'journal-key-1');
    const again = await pay({ paymentMethod: card('4111111111111111'), reference: 'ord_idem' }, 'journal-key-1');
    expect(again.pspReference).toBe(first.pspReference);
    expect(harness.standIn.payments.size).toBe(before + 1);
    expect(harness.standIn.requests.at(-1)).toEqual(expect.objectContaining({ replayed: true }));
    expect(harness.standIn.requests.at(-1)?.headers['idempotency-key']).toBe('journal-key-1');
    await harness.standIn.notifications.idle();
    expect(
      harness.standIn.notifications.sent.filter(
        (d) => d.item.eventCode === 'AUTHORISATION' && d.item.pspReference === first.pspReference,
      ),
    ).toHaveLength(1);

    // An answer lost after Adyen acted (a crash, a timeout): the retry with the same key learns the outcome.
    harness.standIn.interrupt({ path: '/payments', when: 'after' });
    await expect(
      pay({ paymentMethod: card('4111111111111111'), reference: 'ord_lost' }, 'journal-key-2'),
    ).rejects.toThrow();
    const lost = [...harness.standIn.payments.values()].find((p) => p.merchantReference === 'ord_lost')!;
    expect(lost.status).toBe('authorised');
    expect(harness.prism.checkout.upstreamFailures()).toEqual([expect.stringContaining('socket hang up')]);
    const retried = await pay({ paymentMethod: card('4111111111111111'), reference: 'ord_lost' }, 'journal-key-2');
    expect(retried.pspReference).toBe(lost.pspReference);
    expect(harness.standIn.payments.size).toBe(before + 2);
  });

  it('answers 401 to a wrong API key', async () => {
    const wrong = libraryClients('not-the-key', harness);
    await expect(
      wrong.payments.payments({
        amount: usd(100),
        merchantAccount: MERCHANT,
        reference: 'x',
        returnUrl: 'https://shop.example',
        paymentMethod: card('4111111111111111'),
      } as PaymentRequest),
    ).rejects.toMatchObject({ statusCode: 401 });
  });

  it('raises disputes and takes accept / defend through the DisputeService', async () => {
    const auth = await pay({ paymentMethod: card('4111111111111111') });
    const psp = auth.pspReference!;
    await api.modifications.captureAuthorisedPayment(psp, { merchantAccount: MERCHANT, amount: usd(5_000) });
    const dispute = harness.standIn.dispute(psp, 'NOTIFICATION_OF_CHARGEBACK', {
      reason: 'Fraud',
      defenseDueDate: '2030-01-31T00:00:00+00:00',
    });
    const noc = await notification((i) => i.eventCode === 'NOTIFICATION_OF_CHARGEBACK' && i.originalReference === psp);
    expect(noc.validSignature).toBe(true);
    expect(noc.item).toEqual(
      expect.objectContaining({ pspReference: dispute.pspReference, amount: usd(5_000), reason: 'Fraud' }),
    );
    expect(noc.item.additionalData).toEqual(
      expect.objectContaining({
        chargebackReasonCode: '10.4',
        disputeStatus: 'Undefended',
        defensePeriodEndsAt: '2030-01-31T00:00:00+00:00',
        defendable: 'true',
      }),
    );

    const request = { disputePspReference: dispute.pspReference, merchantAccountCode: MERCHANT };
    const reasons = await api.disputes.retrieveApplicableDefenseReasons(request);
    expect(reasons.defenseReasons?.map((r) => r.defenseReasonCode)).toContain('GoodsOrServicesProvided');
    const tooEarly = await api.disputes.defendDispute({ ...request, defenseReasonCode: 'GoodsOrServicesProvided' });
    expect(tooEarly.disputeServiceResult.success).toBe(false);
    const supplied = await api.disputes.supplyDefenseDocument({
      ...request,
      defenseDocuments: [
        {
          defenseDocumentTypeCode: 'DeliveryOrServiceProof',
          contentType: 'application/pdf',
          content: Buffer.from('%PDF-1.4').toString('base64'),
        },
      ],
    });
    expect(supplied.disputeServiceResult.success).toBe(true);
    const defended = await api.disputes.defendDispute({ ...request, defenseReasonCode: 'GoodsOrServicesProvided' });
    expect(defended.disputeServiceResult.success).toBe(true);
    expect(harness.standIn.disputes.get(dispute.pspReference)?.status).toBe('Responded');
    harness.standIn.dispute(psp, 'CHARGEBACK_REVERSED');
    const won = await notification((i) => i.eventCode === 'CHARGEBACK_REVERSED' && i.originalReference === psp);
    expect(won.item.pspReference).toBe(dispute.pspReference);
    expect(won.item.additionalData?.disputeStatus).toBe('Won');

    const other = await pay({ paymentMethod: card('5555444433331111') });
    await api.modifications.captureAuthorisedPayment(other.pspReference!, {
      merchantAccount: MERCHANT,
      amount: usd(5_000),
    });
    const second = harness.standIn.dispute(other.pspReference!, 'NOTIFICATION_OF_CHARGEBACK');
    const accepted = await api.disputes.acceptDispute({
      disputePspReference: second.pspReference,
      merchantAccountCode: MERCHANT,
    });
    expect(accepted.disputeServiceResult.success).toBe(true);
    const chargeback = await notification(
      (i) => i.eventCode === 'CHARGEBACK' && i.pspReference === second.pspReference,
    );
    expect(chargeback.item.additionalData?.disputeStatus).toBe('Accepted');
    const unknown = await api.disputes.acceptDispute({
      disputePspReference: 'ZZZZZZZZZZZZZZZZ',
      merchantAccountCode: MERCHANT,
    });
    expect(unknown.disputeServiceResult.success).toBe(false);
  });

  it('holds notifications, then releases them reversed and duplicated; forges one; retries a refused delivery', async () => {
    const notes = harness.standIn.notifications;
    notes.hold();
    const auth = await pay({ paymentMethod: card('4111111111111111') });
    await api.modifications.captureAuthorisedPayment(auth.pspReference!, {
      merchantAccount: MERCHANT,
      amount: usd(5_000),
    });
    expect(notes.pending.map((i) => i.eventCode)).toEqual(['AUTHORISATION', 'CAPTURE']);
    const from = endpoint.received.length;
    await notes.release({ order: 'reverse', duplicate: true });
    expect(endpoint.received.slice(from).map((r) => r.item.eventCode)).toEqual([
      'CAPTURE',
      'CAPTURE',
      'AUTHORISATION',
      'AUTHORISATION',
    ]);
    expect(endpoint.received.slice(from).every((r) => r.validSignature)).toBe(true);

    const forged = await notes.forge({ ...endpoint.received.at(-1)!.item, success: 'true' });
    expect(forged).toEqual(expect.objectContaining({ forged: true, status: 401, accepted: false }));
    expect(endpoint.received.at(-1)?.validSignature).toBe(false);
    expect(notes.sent.filter((d) => d.forged)).toHaveLength(1);

    endpoint.failNextRequests(1);
    const retried = await pay({ paymentMethod: card('4111111111111111') });
    const delivered = await notes.waitFor((d) => d.item.pspReference === retried.pspReference);
    expect(delivered.attempt).toBe(2);
    expect(notes.sent.filter((d) => d.item.pspReference === retried.pspReference).map((d) => d.status)).toEqual([
      500, 200,
    ]);
  });

  it('catches what breaks the schema, both ways (so "no violations" above means something)', async () => {
    const post = (body: unknown) =>
      fetch(`${harness.checkoutUrl}/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
        body: JSON.stringify(body),
      });
    const before = harness.standIn.requests.length;
    const badRequest = await post({
      merchantAccount: MERCHANT,
      reference: 'no-amount',
      returnUrl: 'https://shop.example',
      paymentMethod: card('4111111111111111'),
    });
    expect(badRequest.status).toBe(422);
    expect(harness.standIn.requests).toHaveLength(before); // never reached the stand-in
    expect(harness.violations()).toEqual([expect.stringMatching(/POST \/v72\/payments: .*amount/)]);
    harness.clearViolations();

    harness.standIn.answerNext('/payments', {
      status: 200,
      body: { pspReference: 'ABCDEFGHIJKLMNOP', resultCode: 'Approved', unknownField: 1 },
    });
    const badAnswer = await post({
      amount: usd(100),
      merchantAccount: MERCHANT,
      reference: 'bad-answer',
      returnUrl: 'https://shop.example',
      paymentMethod: card('4111111111111111'),
    });
    expect(badAnswer.status).toBe(500);
    expect(harness.violations().join('\n')).toMatch(/resultCode|unknownField/);
    harness.clearViolations();
  });
});
