import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import {
  newCustomer,
  pathOf,
  submitPathOf,
  subscribeWith,
  type SetupLinkBody,
  type SubmitBody,
} from '../helpers/card-links.js';
import { cards } from '../helpers/fixtures.js';
import { client, type ErrorBody } from '../helpers/http.js';
import { adyenCard, useLiveMode } from '../helpers/live-mode.js';

/**
 * Card setup and card-update links in live mode, against the Adyen stand-in: the page's submit
 * call (`POST /card-setup/{id}/submit?token=…`) takes Adyen Web's `payment_method_data` (Adyen's
 * `test_` values here), verifies it with a zero-amount authorisation at Adyen and stores the token;
 * a raw card number is refused and never stored. The live page takes the card in Adyen Web
 * (live-card-links-browser.e2e-spec.ts plays it in Chromium).
 */
const m = useLiveMode([['THERM', 'Digital thermometer', 1500]]);

const shopper = () => client(m.t.url);
const submit = (url: string, body: object) => shopper().post<SubmitBody & ErrorBody>(submitPathOf(url), body);
const db = () => m.t.orm.em.getConnection();

test('card setup link: payment_method_data is verified at Adyen (zero amount, stored for the shopper) and becomes the customer’s payment method; a raw card is refused', async () => {
  const customer = await newCustomer(m.live);
  const link = (await m.live.post<SetupLinkBody>(`/api/v2/customers/${customer.id}/payment-method-setup-links`)).body;
  expect(link).toMatchObject({ livemode: true, status: 'open', customer_id: customer.id });

  const raw = await submit(link.url, { card: cards.visa });
  expect(raw.status).toBe(400);
  expect(raw.body.error).toMatchObject({ code: 'invalid_request', param: 'card' });
  expect(JSON.stringify(raw.body)).not.toContain(cards.visa.number);

  const declined = await submit(link.url, { card: adyenCard('4000000000000002') });
  expect(declined.status).toBe(400);
  expect(declined.body.error).toMatchObject({ code: 'invalid_payment_method', param: 'card' });

  const verificationsBefore = [...m.adyen.standIn.payments.values()].filter(
    (p) => p.amountRequested.value === 0,
  ).length;
  const res = await submit(link.url, { card: adyenCard('4111111111111111') });
  expect(res.status).toBe(200);
  const verifications = [...m.adyen.standIn.payments.values()].filter((p) => p.amountRequested.value === 0);
  expect(verifications).toHaveLength(verificationsBefore + 1);
  expect(verifications.at(-1)!.request).toMatchObject({
    storePaymentMethod: true,
    recurringProcessingModel: 'Subscription',
  });
  const pm = (await m.live.get(`/api/v2/customers/${customer.id}/payment-methods/${res.body.payment_method_id}`)).body;
  expect(pm).toMatchObject({ livemode: true, last4: '1111', customer_id: customer.id });
  const attached = await db().execute<{ n: number }[]>(
    `select count(*)::int as n from events where type = 'payment_method.attached' and data->>'id' = ?`,
    [pm.id],
  );
  expect(attached).toEqual([{ n: 1 }]);
  expect((await submit(link.url, { card: adyenCard('5555444433331111') })).body.error).toMatchObject({
    code: 'invalid_state',
    details: { status: 'used' },
  });

  // No table holds the number the raw attempt carried.
  const [row] = await db().execute<{ hits: number }[]>(
    `select (select count(*) from events where data::text like ?) + (select count(*) from idempotency_keys where response_body::text like ?) as hits`,
    [`%${cards.visa.number}%`, `%${cards.visa.number}%`],
  );
  expect(Number(row.hits)).toBe(0);
});

test('card-update link: the card_update_url of a live action_required failure takes Adyen Web data, rescues the subscription with a ContAuth charge of the new token', async () => {
  const { sub } = await subscribeWith(m.live, adyenCard('4000000000000069'), { merchant_product_id: 'THERM' }); // Expired Card (6) on merchant-initiated charges
  expect(sub.status).toBe('action_required');
  const [failed] = await db().execute<{ data: { card_update_url: string } }[]>(
    `select data from events where type = 'subscription.payment_failed' and data->>'subscription_id' = ?`,
    [sub.id],
  );
  const url = failed.data.card_update_url;
  expect(url).toMatch(/\/card-setup\/pmsl_\w+\?token=\w{32}$/);

  const page = await shopper().get<string>(pathOf(url));
  expect(page.status).toBe(200);
  expect(page.body).toContain('Update your card');
  expect(page.body).toContain('data-card-entry="adyen"');
  expect(page.body).toContain('id="card-entry-config"');
  expect(page.body).not.toContain('autocomplete="cc-');
  expect(page.body).not.toContain('Test mode');

  const res = await submit(url, { card: adyenCard('5555444433331111') });
  expect(res.status).toBe(200);
  const rescued = (await m.live.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body;
  expect(rescued).toMatchObject({
    status: 'active',
    payment_method_id: res.body.payment_method_id,
    payment_method: { last4: '1111' },
  });
  const [renewed] = await db().execute<{ data: { invoice: { psp_reference: string } } }[]>(
    `select data from events where type = 'subscription.renewed' and data->>'subscription_id' = ? order by created_at desc, id desc limit 1`,
    [sub.id],
  );
  const token = [...m.adyen.standIn.tokens.values()].at(-1)!;
  expect(m.adyen.standIn.payments.get(renewed.data.invoice.psp_reference)).toMatchObject({
    shopperInteraction: 'ContAuth',
    storedPaymentMethodId: token.id,
    captured: 1500,
  });
  const types = (
    await db().execute<{ type: string }[]>(
      `select type from events where data->>'subscription_id' = ? order by created_at, id`,
      [sub.id],
    )
  ).map((e) => e.type);
  expect(types).toEqual([
    'subscription.created',
    'subscription.payment_failed',
    'subscription.resumed',
    'subscription.renewed',
  ]);
});
