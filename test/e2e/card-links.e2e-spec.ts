import { randomUUID } from 'node:crypto';
import { toGlobalId } from '../../src/platform/relay/global-id.js';
import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import {
  newCustomer,
  renewalCards,
  submitPathOf,
  subscribeWith,
  type SetupLinkBody,
  type SubmitBody,
} from '../helpers/card-links.js';
import { cards } from '../helpers/fixtures.js';
import { client, type Client, type ErrorBody } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Card setup links (`POST /customers/{id}/payment-method-setup-links`) and card-update links
 * (`POST /subscriptions/{id}/card-update-link`, and the `card_update_url` of an `action_required`
 * failure) over REST and GraphQL, and the JSON call their page makes (`/card-setup/{id}/submit`).
 * Each test runs on a merchant of its own, so its test clock starts at zero.
 */
let t: TestApp;
let api: Client;
let live: Client;
let shopper: Client;
const DAY = 86_400;

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  shopper = client(t.url);
});
beforeEach(async () => {
  const merchant = await newMerchant(t, 'Card Links Pharmacy');
  api = merchant.api;
  live = client(t.url, merchant.keys.live_api_key);
});
afterAll(() => t.close());

const db = () => t.orm.em.fork().getConnection();
const setupLink = async (customerId: string, headers?: Record<string, string>) =>
  api.post<SetupLinkBody & ErrorBody>(`/api/v2/customers/${customerId}/payment-method-setup-links`, undefined, headers);
const submit = (url: string, body: object) => shopper.post<SubmitBody & ErrorBody>(submitPathOf(url), body);
const advance = async (seconds: number) =>
  expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds })).status).toBe(200);
const eventsOfType = (type: string, key: string, value: string) =>
  db().execute<{ type: string; data: Record<string, unknown> }[]>(
    `select type, data from events where type = ? and data->>? = ? order by created_at, id`,
    [type, key, value],
  );
const subscriptionEvents = async (subId: string) =>
  (
    await db().execute<{ type: string }[]>(
      `select type from events where data->>'subscription_id' = ? order by created_at, id`,
      [subId],
    )
  ).map((e) => e.type);

describe('card setup links', () => {
  test('create answers 201 with a one-time url valid 24 hours; an Idempotency-Key replays the same link', async () => {
    const customer = await newCustomer(api);
    const key = { 'Idempotency-Key': randomUUID() };
    const res = await setupLink(customer.id, key);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^pmsl_/),
      object: 'payment_method_setup_link',
      livemode: false,
      customer_id: customer.id,
      subscription_id: null,
      url: expect.stringMatching(new RegExp(`^${t.url}/card-setup/pmsl_\\w+\\?token=[0-9A-Za-z]{32}$`)),
      status: 'open',
      expires_at: expect.any(String),
      used_at: null,
      payment_method_id: null,
      created_at: expect.any(String),
    });
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(DAY * 1000);
    const replay = await setupLink(customer.id, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(res.body.id);
    const second = await setupLink(customer.id);
    expect(second.body.id).not.toBe(res.body.id);
    expect(new URL(second.body.url).searchParams.get('token')).not.toBe(
      new URL(res.body.url).searchParams.get('token'),
    );
  });

  test('an unknown customer, or one of the other mode, is 404 not_found', async () => {
    expect((await setupLink('cus_nope')).body.error).toMatchObject({ code: 'not_found', param: 'id' });
    const customer = await newCustomer(api);
    const res = await live.post<ErrorBody>(`/api/v2/customers/${customer.id}/payment-method-setup-links`);
    expect(res.status).toBe(404);
  });

  test('the card entered is verified, stored for the customer (payment_method.attached) and the link is used once', async () => {
    const customer = await newCustomer(api);
    const link = (await setupLink(customer.id)).body;
    const res = await submit(link.url, { card: cards.mastercard });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      payment_method_id: expect.stringMatching(/^pm_/),
      status: 'used',
      redirect_url: link.url,
    });
    const methods = (await api.get(`/api/v2/customers/${customer.id}/payment-methods`)).body.data;
    expect(methods).toEqual([
      expect.objectContaining({
        id: res.body.payment_method_id,
        customer_id: customer.id,
        type: 'card',
        brand: 'mastercard',
        last4: '4444',
      }),
    ]);
    const [attached] = await eventsOfType('payment_method.attached', 'id', res.body.payment_method_id);
    expect(attached.data).toMatchObject({
      id: res.body.payment_method_id,
      object: 'payment_method',
      customer_id: customer.id,
      last4: '4444',
      livemode: false,
    });
    expect(JSON.stringify(attached.data)).not.toContain('5555555555554444');

    const again = await submit(link.url, { card: cards.visa });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'invalid_state', param: 'id', details: { status: 'used' } });
    expect(again.body.error.message).toContain('already been used');
    expect((await api.get(`/api/v2/customers/${customer.id}/payment-methods`)).body.data).toHaveLength(1);
  });

  test('a declined card or an invalid one stores nothing and leaves the link open; a wrong token is 404', async () => {
    const customer = await newCustomer(api);
    const link = (await setupLink(customer.id)).body;
    const declined = await submit(link.url, { card: cards.declined });
    expect(declined.status).toBe(400);
    expect(declined.body.error).toMatchObject({
      code: 'invalid_payment_method',
      param: 'card',
      details: { decline_code: 'card_declined' },
    });
    const invalid = await submit(link.url, { card: { ...cards.visa, number: '4242424242424241' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.details).toEqual([expect.objectContaining({ field: 'card.number' })]);
    const forged = new URL(link.url);
    forged.searchParams.set('token', 'x'.repeat(32));
    expect((await submit(forged.toString(), { card: cards.visa })).status).toBe(404);
    expect((await shopper.get(`${forged.pathname}${forged.search}`)).status).toBe(404);
    expect((await api.get(`/api/v2/customers/${customer.id}/payment-methods`)).body.data).toEqual([]);
    expect((await submit(link.url, { card: cards.visa })).status).toBe(200);
  });

  test('a link past its 24 hours on the test clock is expired: refused, and its page says so', async () => {
    const customer = await newCustomer(api);
    const link = (await setupLink(customer.id)).body;
    await advance(DAY + 1);
    const res = await submit(link.url, { card: cards.visa });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'expired' } });
    const page = await shopper.get<string>(new URL(link.url).pathname + new URL(link.url).search);
    expect(page.status).toBe(200);
    expect(page.body).toContain('This link has expired');
    expect(page.body).not.toContain('id="pay-form"');
  });
});

describe('card-update links', () => {
  const cardUpdateLink = (subId: string) =>
    api.post<SetupLinkBody & ErrorBody>(`/api/v2/subscriptions/${subId}/card-update-link`);

  test('an action_required failure carries a fresh card_update_url; the card entered there rescues the subscription and its next renewal is paid', async () => {
    const { sub, customerId } = await subscribeWith(api, renewalCards.actionRequired);
    expect(sub.status).toBe('action_required');
    const [failed] = await eventsOfType('subscription.payment_failed', 'subscription_id', sub.id);
    const url = failed.data.card_update_url as string;
    expect(url).toMatch(new RegExp(`^${t.url}/card-setup/pmsl_\\w+\\?token=\\w{32}$`));
    expect(failed.data.failure).toMatchObject({
      disposition: 'action_required',
      status: 'action_required',
      refusal_code: 'expired_card',
    });
    const [row] = await db().execute<{ customer_id: string; subscription_id: string; status: string }[]>(
      `select customer_id, subscription_id, status from payment_method_setup_links where id = ?`,
      [new URL(url).pathname.split('/')[2]],
    );
    expect(row).toEqual({ customer_id: customerId, subscription_id: sub.id, status: 'open' });

    const res = await submit(url, { card: cards.mastercard });
    expect(res.status).toBe(200);
    const rescued = (await api.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body;
    expect(rescued).toMatchObject({
      status: 'active',
      payment_method_id: res.body.payment_method_id,
      payment_method: { brand: 'mastercard', last4: '4444' },
    });
    expect(await subscriptionEvents(sub.id)).toEqual([
      'subscription.created',
      'subscription.payment_failed',
      'subscription.resumed',
      'subscription.renewed',
    ]);
    expect((await submit(url, { card: cards.visa })).body.error).toMatchObject({
      code: 'invalid_state',
      details: { status: 'used' },
    });

    await advance(32 * DAY);
    const renewals = await eventsOfType('subscription.renewed', 'subscription_id', sub.id);
    expect(renewals).toHaveLength(2);
    expect(renewals[1].data).toMatchObject({ status: 'active', card_last4: '4444' });
  });

  test('a retry failure (past_due) carries no card_update_url, but a link made for it rescues it the same way', async () => {
    const { sub } = await subscribeWith(api, renewalCards.retry);
    expect(sub.status).toBe('past_due');
    const [failed] = await eventsOfType('subscription.payment_failed', 'subscription_id', sub.id);
    expect(failed.data).not.toHaveProperty('card_update_url');
    const link = await cardUpdateLink(sub.id);
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({
      object: 'payment_method_setup_link',
      subscription_id: sub.id,
      customer_id: sub.customer_id,
      status: 'open',
    });
    expect((await submit(link.body.url, { card: cards.visa })).status).toBe(200);
    expect((await api.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('active');
    expect((await subscriptionEvents(sub.id)).slice(-2)).toEqual(['subscription.resumed', 'subscription.renewed']);
  });

  test('an active subscription only changes card; an ended one is refused as the payment-method route refuses it', async () => {
    const { sub } = await subscribeWith(api, cards.visa);
    const link = (await cardUpdateLink(sub.id)).body;
    const stored = await submit(link.url, { card: cards.mastercard });
    expect(stored.status).toBe(200);
    expect((await api.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body).toMatchObject({
      status: 'active',
      payment_method: { last4: '4444' },
    });
    expect(await subscriptionEvents(sub.id)).toEqual(['subscription.created', 'subscription.renewed']);

    const other = (await cardUpdateLink(sub.id)).body;
    expect((await api.post(`/api/v2/subscriptions/${sub.id}/cancel`, {})).status).toBe(200);
    const refused = await cardUpdateLink(sub.id);
    const viaRoute = await api.post<ErrorBody>(`/api/v2/subscriptions/${sub.id}/payment-method`, {
      payment_method_id: stored.body.payment_method_id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(viaRoute.body);
    expect(refused.body.error).toMatchObject({ code: 'invalid_state', param: 'id' });
    // A link made before the end: the subscription refuses the card, and the link stays open.
    const late = await submit(other.url, { card: cards.visa });
    expect(late.body.error).toMatchObject({ code: 'invalid_state', message: `Subscription ${sub.id} has ended.` });
    const [row] = await db().execute<{ status: string }[]>(
      `select status from payment_method_setup_links where id = ?`,
      [other.id],
    );
    expect(row.status).toBe('open');
    expect((await cardUpdateLink('sub_nope')).status).toBe(404);
  });

  test('20 shoppers submitting one card-update link at once: one card is taken and charged once, the others are refused', async () => {
    const { sub } = await subscribeWith(api, renewalCards.actionRequired);
    const link = (await cardUpdateLink(sub.id)).body;
    const answers = await Promise.all(Array.from({ length: 20 }, () => submit(link.url, { card: cards.visa })));
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const taken = answers.filter((a) => a.status === 200);
    expect(taken).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200))
      expect(a.body.error.code).toMatch(/^(invalid_state|rate_limit_exceeded)$/);
    expect((await api.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body).toMatchObject({
      status: 'active',
      payment_method_id: taken[0].body.payment_method_id,
    });
    expect(await subscriptionEvents(sub.id)).toEqual([
      'subscription.created',
      'subscription.payment_failed',
      'subscription.resumed',
      'subscription.renewed',
    ]);
  });

  test('a link takes at most 10 card attempts a minute from one network; the 11th is 429, said of saving a card', async () => {
    const customer = await newCustomer(api);
    const link = (await setupLink(customer.id)).body;
    for (let i = 0; i < 10; i++) expect((await submit(link.url, { card: cards.declined })).status).toBe(400);
    const limited = await submit(link.url, { card: cards.visa });
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toMatch(
      /^Too many card attempts on this page from your network \(at most 10 a minute\)\. Nothing was saved or charged/,
    );
  });

  test('an HSA/FSA card on a subscription of an ineligible product is refused in the same words as the payment-method route', async () => {
    const { sub } = await subscribeWith(api, renewalCards.actionRequired);
    const link = (await cardUpdateLink(sub.id)).body;
    const res = await submit(link.url, { card: cards.hsa });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_payment_method', param: 'payment_method_id' });
    expect(res.body.error.message).toContain('HSA/FSA card');
    expect((await api.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe(
      'action_required',
    );
    expect((await submit(link.url, { card: cards.visa })).status).toBe(200);
    expect((await api.get<SubscriptionResource>(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('active');
  });
});

describe('GraphQL', () => {
  const fields = 'id setupLinkId livemode customerId subscriptionId url status expiresAt usedAt paymentMethodId';

  test('createPaymentMethodSetupLink and createCardUpdateLink take global ids and answer the link node; node(id:) reads it', async () => {
    const customer = await newCustomer(api);
    const made = await api.graphql(
      `mutation($i: CreatePaymentMethodSetupLinkInput!) { createPaymentMethodSetupLink(input: $i) { setupLink { ${fields} } } }`,
      {
        i: { customerId: toGlobalId('Customer', customer.id) },
      },
    );
    expect(made.body.errors).toBeUndefined();
    const link = made.body.data.createPaymentMethodSetupLink.setupLink;
    expect(link).toMatchObject({
      setupLinkId: expect.stringMatching(/^pmsl_/),
      livemode: false,
      customerId: customer.id,
      subscriptionId: null,
      status: 'OPEN',
      usedAt: null,
    });
    expect(link.id).toBe(toGlobalId('PaymentMethodSetupLink', link.setupLinkId));
    expect((await submit(link.url, { card: cards.visa })).status).toBe(200);
    const read = await api.graphql(
      `query($id: ID!) { node(id: $id) { ... on PaymentMethodSetupLink { status paymentMethodId usedAt } } }`,
      { id: link.id },
    );
    expect(read.body.data.node).toMatchObject({
      status: 'USED',
      paymentMethodId: expect.stringMatching(/^pm_/),
      usedAt: expect.any(String),
    });

    const { sub } = await subscribeWith(api, renewalCards.actionRequired);
    const update = await api.graphql(
      `mutation($i: CreateCardUpdateLinkInput!) { createCardUpdateLink(input: $i) { setupLink { ${fields} } } }`,
      {
        i: { subscriptionId: toGlobalId('SubscriptionContract', sub.id) },
      },
    );
    expect(update.body.errors).toBeUndefined();
    expect(update.body.data.createCardUpdateLink.setupLink).toMatchObject({
      subscriptionId: sub.id,
      customerId: sub.customer_id,
      status: 'OPEN',
    });
  });

  test('input mistakes are userErrors with the REST codes: an unknown customer, an ended subscription, an id of another type', async () => {
    const unknown = await api.graphql(
      `mutation($i: CreatePaymentMethodSetupLinkInput!) { createPaymentMethodSetupLink(input: $i) { setupLink { id } userErrors { field code } } }`,
      {
        i: { customerId: toGlobalId('Customer', 'cus_nope') },
      },
    );
    expect(unknown.body.data.createPaymentMethodSetupLink).toEqual({
      setupLink: null,
      userErrors: [{ field: ['input', 'customerId'], code: 'NOT_FOUND' }],
    });
    const { sub } = await subscribeWith(api, cards.visa);
    expect((await api.post(`/api/v2/subscriptions/${sub.id}/cancel`, {})).status).toBe(200);
    const UPDATE = `mutation($i: CreateCardUpdateLinkInput!) { createCardUpdateLink(input: $i) { setupLink { id } userErrors { field code } } }`;
    const ended = await api.graphql(UPDATE, { i: { subscriptionId: toGlobalId('SubscriptionContract', sub.id) } });
    expect(ended.body.data.createCardUpdateLink).toMatchObject({
      setupLink: null,
      userErrors: [{ code: 'INVALID_STATE' }],
    });
    const wrongType = await api.graphql(UPDATE, { i: { subscriptionId: toGlobalId('Customer', sub.customer_id) } });
    expect(wrongType.body.data.createCardUpdateLink.userErrors).toEqual([
      { field: ['input', 'subscriptionId'], code: 'NOT_FOUND' },
    ]);
  });
});
