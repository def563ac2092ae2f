import { toGlobalId } from '../../src/platform/relay/global-id.js';
import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import { cards, checkoutBody, createProducts, openCheckout } from '../helpers/fixtures.js';
import { client, type ErrorBody } from '../helpers/http.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { adyenCard as adyenTestCard } from '../helpers/live-mode.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';
import type { Client } from '../helpers/http.js';

let t: TestApp;
let keys: CreatedMerchant;
let api: Client;

beforeAll(async () => {
  ({ t, keys, api } = await startWithMerchant());
  await createProducts(api, [
    ['thermo', 'Digital Thermometer', 1999],
    ['mug', 'Coffee Mug', 1700],
  ]);
});
afterAll(() => t.close());

const splitItems: [string, string, number, number][] = [
  ['thermo', 'Digital Thermometer', 1999, 1],
  ['mug', 'Coffee Mug', 1700, 1],
];

describe('POST /api/v2/checkout/{id}/payments in test mode', () => {
  test('pays a split checkout with the test cards in hsa_fsa and card, answering the order', async () => {
    const checkout = await openCheckout(api, splitItems);
    const res = await api.post<OrderResource>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
      hsa_fsa: cards.hsa,
      card: cards.visa,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', payment_status: 'captured', amount: checkout.amounts.total });
    expect(res.body.amounts).toMatchObject({ hsa_amount: 1999, regular_amount: 1700 });
  });

  test("one regular card paying a split checkout: the order's amounts say it paid everything, over REST and GraphQL", async () => {
    const checkout = await openCheckout(api, splitItems);
    expect(checkout.amounts).toMatchObject({ hsa_amount: 1999, regular_amount: 1700 });
    const res = await api.post<OrderResource>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
      card: cards.visa,
    });
    expect(res.status).toBe(200);
    expect(res.body.payments.map((p) => [p.payment_method, p.amount])).toEqual([['card', 3699]]);
    expect(res.body.amounts).toMatchObject({ hsa_amount: 0, regular_amount: 3699, total: 3699 });
    expect((await api.get<OrderResource>(`/api/v2/orders/${res.body.id}`)).body.amounts).toMatchObject({
      hsa_amount: 0,
      regular_amount: 3699,
    });
    const gql = await api.graphql<{ order: { amounts: { hsaAmount: number; regularAmount: number } } }>(
      `query($id: ID!) { order(id: $id) { amounts { hsaAmount regularAmount } } }`,
      {
        id: toGlobalId('Order', res.body.id),
      },
    );
    expect(gql.body.data.order.amounts).toEqual({ hsaAmount: 0, regularAmount: 3699 });
  });

  test("takes Adyen Web's payment_method_data with Adyen's test values, as a page built on Adyen Web sends it", async () => {
    const checkout = await openCheckout(api, splitItems);
    const body = { hsa_fsa: adyenTestCard('4111110000000013'), card: adyenTestCard('4242424242424242') };
    const res = await api.post<OrderResource>(`/api/v2/checkout/${checkout.checkout_id}/payments`, body);
    expect(res.status).toBe(200);
    const last4 = res.body.payments.map((p: { last4: string }) => p.last4).sort();
    expect(last4).toEqual(['0013', '4242']);
  });

  test('a declined card is 402 card_declined with the order that failed, and the checkout stays payable', async () => {
    const checkout = await openCheckout(api, [['mug', 'Coffee Mug', 1700, 1]]);
    const declined = await api.post<ErrorBody>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
      card: cards.declined,
    });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      code: 'card_declined',
      param: 'card',
      details: { decline_code: 'card_declined' },
    });
    const paid = await api.post(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
      card: adyenTestCard('4242424242424242'),
    });
    expect(paid.status).toBe(200);
  });

  test('payment_method_data that is not an Adyen test value is refused in test mode (400 invalid_payment_method)', async () => {
    const checkout = await openCheckout(api, [['mug', 'Coffee Mug', 1700, 1]]);
    const encrypted = {
      payment_method_data: {
        type: 'scheme',
        encryptedCardNumber: 'adyenjs_0_1_25$x',
        encryptedExpiryMonth: 'adyenjs_0_1_25$y',
        encryptedExpiryYear: 'adyenjs_0_1_25$z',
      },
    };
    const res = await api.post<ErrorBody>(`/api/v2/checkout/${checkout.checkout_id}/payments`, { card: encrypted });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_payment_method');
  });

  test('payment_method_data missing its encrypted fields is a validation error naming them', async () => {
    const checkout = await openCheckout(api, [['mug', 'Coffee Mug', 1700, 1]]);
    const res = await api.post<ErrorBody>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
      card: { payment_method_data: { type: 'scheme' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'card.payment_method_data' })]);
  });

  test('an empty body names what is required; an unknown field is refused', async () => {
    const checkout = await openCheckout(api, [['mug', 'Coffee Mug', 1700, 1]]);
    const empty = await api.post<ErrorBody>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {});
    expect(empty.status).toBe(422);
    expect(empty.body.error.details).toEqual([{ field: 'card', message: 'give a card, an hsa_fsa card, or both' }]);
    const unknown = await api.post<ErrorBody>(`/api/v2/checkout/${checkout.checkout_id}/payments`, {
      card: cards.visa,
      hsa_fsa_card: cards.hsa,
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([{ field: 'hsa_fsa_card', message: 'is not a recognised field' }]);
  });

  test('/payments/details with no payment waiting for the shopper is 400 invalid_state', async () => {
    const checkout = await openCheckout(api, [['mug', 'Coffee Mug', 1700, 1]]);
    const res = await api.post<ErrorBody>(`/api/v2/checkout/${checkout.checkout_id}/payments/details`, {
      details: { redirectResult: 'abc' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_state', param: 'checkout_id' });
  });

  test('a paid checkout cannot be paid again (400 invalid_state), and an unknown one is 404', async () => {
    const checkout = await openCheckout(api, [['mug', 'Coffee Mug', 1700, 1]]);
    expect((await api.post(`/api/v2/checkout/${checkout.checkout_id}/payments`, { card: cards.visa })).status).toBe(
      200,
    );
    const again = await api.post<ErrorBody>(`/api/v2/checkout/${checkout.checkout_id}/payments`, { card: cards.visa });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_state');
    expect((await api.post('/api/v2/checkout/cs_doesnotexist/payments', { card: cards.visa })).status).toBe(404);
  });

  test("a payment link's checkout is paid through the link's page, not this route (400 invalid_request)", async () => {
    const link = await api.post<{ checkout_id: string }>('/api/v2/payment-links', {
      amount: 1500,
      currency: 'usd',
      description: 'Consultation',
    });
    expect(link.status).toBe(201);
    const res = await api.post<ErrorBody>(`/api/v2/checkout/${link.body.checkout_id}/payments`, { card: cards.visa });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });
});

describe('a raw card number with a live key', () => {
  let service: ServiceProcess | undefined;
  afterAll(() => {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
  });

  test('is refused with 400 invalid_request before anything reads it, and is in no table and no log', async () => {
    service = await startServiceProcess(
      { RUN_JOBS: 'false', LOG_LEVEL: 'trace', SQL_DEBUG: 'true', RATE_LIMIT_MAX: '100000' },
      { capture: true },
    );
    const live = client(service.url, keys.live_api_key);
    const created = await live.post<{ data: { checkout_id: string } }>(
      '/api/v2/checkout',
      checkoutBody([['anything', 'Gift card', 2500, 1]]),
    );
    expect(created.status).toBe(201);
    const secret = { number: '5555555555554444', exp_month: 11, exp_year: 2031, cvc: '987' };
    const luhnInvalid = { number: '4000123412341234', exp_month: 13 };
    for (const card of [secret, luhnInvalid]) {
      const res = await live.post<ErrorBody>(
        `/api/v2/checkout/${created.body.data.checkout_id}/payments`,
        { card },
        { 'idempotency-key': crypto.randomUUID() },
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'card' });
    }
    const hsa = await live.post<ErrorBody>(`/api/v2/checkout/${created.body.data.checkout_id}/payments`, {
      hsa_fsa: secret,
    });
    expect(hsa.body.error).toMatchObject({ code: 'invalid_request', param: 'hsa_fsa' });

    const tables = await t.orm.em
      .getConnection()
      .execute<{ tablename: string }[]>(`select tablename from pg_tables where schemaname = 'public'`);
    let dump = '';
    for (const { tablename } of tables) {
      const rows = await t.orm.em
        .getConnection()
        .execute<{ row: string }[]>(`select t::text as row from "${tablename}" t`);
      dump += rows.map((r) => r.row).join('\n');
    }
    expect(dump).toContain(created.body.data.checkout_id);
    const output = service.output();
    expect(output).toContain(created.body.data.checkout_id);
    for (const needle of [secret.number, luhnInvalid.number]) {
      expect(dump).not.toContain(needle);
      expect(output).not.toContain(needle);
    }
  }, 60_000);
});
