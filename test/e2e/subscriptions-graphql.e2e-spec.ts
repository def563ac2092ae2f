import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import { sqlStatementCount } from '../../src/platform/db/sql-counter.js';
import { cards, createProducts } from '../helpers/fixtures.js';
import { collect, untilLive, wsClient, type EventNode } from '../helpers/graphql-ws.js';
import { type ApiResponse, type GraphQLErrorBody, type Client } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;
let testKey: string;
const DAY = 86_400;
const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`, 'utf8').toString('base64url');
const expiredRenewalCard = { number: '4000000000000069', exp_month: 12, exp_year: 2035, cvc: '123' };

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
// A merchant per test: its own rows and its own test clock (the scenarios below move it).
beforeEach(async () => {
  const merchant = await newMerchant(t, 'Subscriptions over GraphQL');
  api = merchant.api;
  testKey = merchant.keys.test_api_key;
  await createProducts(api, [['THERM', 'Digital thermometer', 1500]]);
});
afterAll(() => t.close());

async function customerWithCard(card: object = cards.visa) {
  const customer = (
    await api.post('/api/v2/customers', {
      email: `g.${Math.random().toString(36).slice(2, 8)}@example.com`,
      first_name: 'Gale',
      last_name: 'Ray',
    })
  ).body;
  const pm = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card })).body;
  return { customer, pm };
}

const FIELDS = `id subscriptionId status amountCents currency interval intervalCount trialPeriodDays trialEnd
  currentPeriodStart currentPeriodEnd nextBillingDate cancelAtPeriodEnd cancelledAt metadata
  customer { email } paymentMethod { brand last4 type }
  latestInvoice { invoiceId status amount amountPaid orderId pspReference attempts { attempt status disposition refusalCode } }`;

const CREATE = `mutation($input: CreateSubscriptionInput!) { createSubscription(input: $input) { subscription { ${FIELDS} } userErrors { field message code } } }`;
const create = (input: Record<string, unknown>) => api.graphql(CREATE, { input });

/** A subscription created through GraphQL for a new customer paying with `card` (no errors); FIELDS selected. */
async function created(card: object, input: Record<string, unknown>) {
  const { customer, pm } = await customerWithCard(card);
  const res = await create({
    customerId: gid('Customer', customer.id),
    paymentMethodId: gid('PaymentMethod', pm.id),
    currency: 'USD',
    ...input,
  });
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data.createSubscription.userErrors).toEqual([]);
  return { customer, sub: res.body.data.createSubscription.subscription };
}
const monthlyBasic = {
  merchantProductId: 'THERM',
  amountCents: 1500,
  interval: 'MONTHLY',
  metadata: { plan: 'basic' },
};
const cancelMutation = (fields: string) =>
  `mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { subscription { ${fields} } } }`;
const resumeMutation = (fields: string) =>
  `mutation($input: ResumeSubscriptionInput!) { resumeSubscription(input: $input) { subscription { ${fields} } userErrors { field code } } }`;

describe('the subscription lifecycle through GraphQL', () => {
  test('createSubscription answers the active subscription with its customer, payment method and paid latest invoice', async () => {
    const { customer, sub } = await created(cards.visa, monthlyBasic);
    expect(sub).toMatchObject({
      subscriptionId: expect.stringMatching(/^sub_/),
      status: 'ACTIVE',
      amountCents: 1500,
      interval: 'MONTHLY',
      intervalCount: 1,
      cancelAtPeriodEnd: false,
      metadata: { plan: 'basic' },
      customer: { email: customer.email },
      paymentMethod: { brand: 'visa', last4: '4242', type: 'CARD' },
      latestInvoice: {
        status: 'PAID',
        amount: 1500,
        amountPaid: 1500,
        orderId: expect.stringMatching(/^ord_/),
        pspReference: expect.stringMatching(/^ch_/),
        attempts: [{ attempt: 1, status: 'SUCCEEDED', disposition: null, refusalCode: null }],
      },
    });
  });

  test('a subscription contract lists its invoices and events, newest event first, and resolves as a node', async () => {
    const { sub } = await created(cards.visa, monthlyBasic);
    const read = await api.graphql(
      `query($id: ID!) {
        subscriptionContract(id: $id) { invoices(first: 5) { nodes { invoiceId periodStart } } events(first: 5) { nodes { type data } } }
        node(id: $id) { __typename }
      }`,
      { id: sub.id },
    );
    expect(read.body.data.subscriptionContract.invoices.nodes).toEqual([
      { invoiceId: sub.latestInvoice.invoiceId, periodStart: sub.currentPeriodStart },
    ]);
    expect(read.body.data.subscriptionContract.events.nodes.map((e: { type: string }) => e.type)).toEqual([
      'subscription.renewed',
      'subscription.created',
    ]);
    expect(read.body.data.node.__typename).toBe('SubscriptionContract');
  });

  test('updateSubscription changes the amount and replaces metadata', async () => {
    const { sub } = await created(cards.visa, monthlyBasic);
    const updated = await api.graphql(
      `mutation($input: UpdateSubscriptionInput!) { updateSubscription(input: $input) { subscription { amountCents metadata } } }`,
      {
        input: { id: sub.id, amountCents: 1900, metadata: { plan: 'plus' } },
      },
    );
    expect(updated.body.data.updateSubscription.subscription).toEqual({
      amountCents: 1900,
      metadata: { plan: 'plus' },
    });
  });

  test('cancelSubscription at period end keeps it active with cancelAtPeriodEnd and cancelledAt', async () => {
    const { sub } = await created(cards.visa, monthlyBasic);
    const scheduled = await api.graphql(cancelMutation('status cancelAtPeriodEnd cancelledAt'), {
      input: { id: sub.id, cancelAtPeriodEnd: true },
    });
    expect(scheduled.body.data.cancelSubscription.subscription).toMatchObject({
      status: 'ACTIVE',
      cancelAtPeriodEnd: true,
      cancelledAt: expect.any(String),
    });
  });

  test('resumeSubscription reverses a scheduled cancellation', async () => {
    const { sub } = await created(cards.visa, monthlyBasic);
    await api.graphql(cancelMutation('status'), { input: { id: sub.id, cancelAtPeriodEnd: true } });
    const resumed = await api.graphql(resumeMutation('status cancelAtPeriodEnd'), { input: { id: sub.id } });
    expect(resumed.body.data.resumeSubscription.subscription).toEqual({ status: 'ACTIVE', cancelAtPeriodEnd: false });
  });

  test('resumeSubscription refuses a subscription with nothing to resume (invalid_state)', async () => {
    const { sub } = await created(cards.visa, monthlyBasic);
    await api.graphql(cancelMutation('status'), { input: { id: sub.id, cancelAtPeriodEnd: true } });
    await api.graphql(resumeMutation('status'), { input: { id: sub.id } });
    const again = await api.graphql(resumeMutation('status'), { input: { id: sub.id } });
    expect(again.body.data.resumeSubscription).toEqual({
      subscription: null,
      userErrors: [{ field: ['input'], code: 'INVALID_STATE' }],
    });
  });

  test('cancelSubscription now ends it (CANCELLED with endedAt)', async () => {
    const { sub } = await created(cards.visa, monthlyBasic);
    const ended = await api.graphql(cancelMutation('status endedAt'), { input: { id: sub.id, reason: 'done' } });
    expect(ended.body.data.cancelSubscription.subscription).toMatchObject({
      status: 'CANCELLED',
      endedAt: expect.any(String),
    });
  });
});

test('an action_required subscription is rescued by replacing its card through the mutation', async () => {
  const { customer, sub } = await created(expiredRenewalCard, { amountCents: 990, interval: 'WEEKLY' });
  expect(sub).toMatchObject({
    status: 'ACTION_REQUIRED',
    nextBillingDate: null,
    latestInvoice: {
      status: 'OPEN',
      attempts: [{ status: 'FAILED', disposition: 'ACTION_REQUIRED', refusalCode: 'expired_card' }],
    },
  });
  const fresh = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.mastercard })).body;
  const replace = `mutation($input: ReplaceSubscriptionPaymentMethodInput!) { replaceSubscriptionPaymentMethod(input: $input) { subscription { ${FIELDS} } } }`;
  const rescued = await api.graphql(replace, {
    input: { id: sub.id, paymentMethodId: gid('PaymentMethod', fresh.id) },
  });
  expect(rescued.body.data.replaceSubscriptionPaymentMethod.subscription).toMatchObject({
    status: 'ACTIVE',
    paymentMethod: { brand: 'mastercard' },
    latestInvoice: { status: 'PAID', attempts: [{ status: 'FAILED' }, { status: 'SUCCEEDED' }] },
  });
});

describe('the other states through GraphQL, on the test clock', () => {
  const retryCard = { number: '4000000000000341', exp_month: 12, exp_year: 2035, cvc: '123' };
  const terminalCard = { number: '4111110000000039', exp_month: 12, exp_year: 2035, cvc: '123' };
  const daily = async (card: object, extra: Record<string, unknown> = {}) =>
    (await created(card, { amountCents: 800, interval: 'DAILY', ...extra })).sub;
  const read = async (id: string) => {
    const query = `query($id: ID!) {
      subscriptionContract(id: $id) { status nextBillingDate latestInvoice { status attemptCount nextRetryAt attempts { disposition refusalCode } } }
    }`;
    return (await api.graphql(query, { id })).body.data.subscriptionContract;
  };
  /** Moves the clock 1, 3 and 5 days (and a minute each): past a 2-day trial and every retry of a daily subscription. */
  const advanceNineDays = async () => {
    for (const days of [1, 3, 5])
      expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds: days * DAY + 60 })).status).toBe(200);
  };

  test('a trial is TRIALING without an invoice, then ACTIVE and paid', async () => {
    const trial = await daily(cards.visa, { trialPeriodDays: 2 });
    expect(trial).toMatchObject({ status: 'TRIALING', trialPeriodDays: 2, latestInvoice: null });
    await advanceNineDays();
    expect(await read(trial.id)).toMatchObject({ status: 'ACTIVE', latestInvoice: { status: 'PAID' } });
  });

  test('a retry refusal is PAST_DUE, then UNPAID and uncollectible after four attempts', async () => {
    const retry = await daily(retryCard);
    expect(retry).toMatchObject({
      status: 'PAST_DUE',
      latestInvoice: { status: 'OPEN', attempts: [{ disposition: 'RETRY', refusalCode: 'insufficient_funds' }] },
    });
    await advanceNineDays();
    expect(await read(retry.id)).toMatchObject({
      status: 'UNPAID',
      nextBillingDate: null,
      latestInvoice: { status: 'UNCOLLECTIBLE', attemptCount: 4, nextRetryAt: null },
    });
  });

  test('a terminal refusal is UNPAID and uncollectible at once, never retried', async () => {
    const terminal = await daily(terminalCard, { merchantProductId: 'THERM', amountCents: 1500 });
    const latestInvoice = {
      status: 'UNCOLLECTIBLE',
      attempts: [{ disposition: 'TERMINAL', refusalCode: 'stolen_card' }],
    };
    expect(terminal).toMatchObject({ status: 'UNPAID', nextBillingDate: null, latestInvoice });
    await advanceNineDays();
    expect((await read(terminal.id)).latestInvoice.attempts).toHaveLength(1);
  });

  test('a confirmed dispute is DISPUTED and its release makes it ACTIVE again', async () => {
    const sub = await daily(cards.visa);
    await api.post(`/api/v2/test-helpers/subscriptions/${sub.subscriptionId}/dispute`, { stage: 'confirmed' });
    expect((await read(sub.id)).status).toBe('DISPUTED');
    await api.post(`/api/v2/test-helpers/subscriptions/${sub.subscriptionId}/dispute`, {
      stage: 'reversed',
      event_code: 'MANUAL_RELEASE',
    });
    expect((await read(sub.id)).status).toBe('ACTIVE');
  });
});

describe('input mistakes are userErrors with the REST codes', () => {
  test('an unknown customer is customer_not_found', async () => {
    const { pm } = await customerWithCard();
    const missing = await create({
      customerId: gid('Customer', 'cus_nope'),
      paymentMethodId: gid('PaymentMethod', pm.id),
      amountCents: 100,
      currency: 'USD',
      interval: 'DAILY',
    });
    expect(missing.body.data.createSubscription).toEqual({
      subscription: null,
      userErrors: [{ field: ['input', 'customerId'], message: expect.any(String), code: 'CUSTOMER_NOT_FOUND' }],
    });
  });

  test("another customer's payment method is invalid_payment_method", async () => {
    const { customer } = await customerWithCard();
    const other = await customerWithCard();
    const input = {
      customerId: gid('Customer', customer.id),
      paymentMethodId: gid('PaymentMethod', other.pm.id),
      amountCents: 100,
      currency: 'USD',
      interval: 'DAILY',
    };
    const foreign = await create(input);
    expect(foreign.body.data.createSubscription.userErrors).toEqual([
      { field: ['input', 'paymentMethodId'], message: expect.any(String), code: 'INVALID_PAYMENT_METHOD' },
    ]);
  });

  test('invalid values are validation_error with a details entry per field', async () => {
    const { customer, pm } = await customerWithCard();
    const ids = { customerId: gid('Customer', customer.id), paymentMethodId: gid('PaymentMethod', pm.id) };
    const input = { ...ids, amountCents: -5, currency: 'USD', interval: 'DAILY', trialPeriodDays: -2 };
    const bad = await create(input);
    const { userErrors } = bad.body.data.createSubscription as { userErrors: { field: string[]; code: string }[] };
    expect(userErrors.map((e) => e.code)).toEqual(['VALIDATION_ERROR', 'VALIDATION_ERROR']);
    expect(userErrors.map((e) => e.field.join('.')).sort()).toEqual(['input.amountCents', 'input.trialPeriodDays']);
  });
});

test('the subscriptions connection filters like REST and is batched: a page of 50 costs the statements of a page of 1', async () => {
  const { customer, pm } = await customerWithCard();
  for (let i = 0; i < 12; i++) {
    const res = await api.post('/api/v2/subscriptions', {
      customer_id: customer.id,
      payment_method_id: pm.id,
      amount_cents: 100 + i,
      currency: 'USD',
      interval: 'monthly',
      ...(i % 3 === 0 && { trial_period_days: 5 }),
    });
    expect(res.status).toBe(201);
  }
  const query = `query($c: ID) {
    subscriptions(first: 50, customerId: $c) {
      edges { cursor node {
        subscriptionId status customer { email } paymentMethod { last4 } latestInvoice { status attempts { status } } invoices(first: 3) { nodes { invoiceId } }
      } }
      pageInfo { hasNextPage }
    }
  }`;
  const variables = { c: gid('Customer', customer.id) };
  // The counter is per process: background sweeps (webhook fan-out of the events just made) only
  // add to it, so the least of three runs is the query's own cost.
  type Subscriptions = { subscriptions: { edges: { cursor: string; node: unknown }[] } };
  const cost = async (q: string) => {
    let least = Infinity;
    let res!: ApiResponse<{ data: Subscriptions; errors?: GraphQLErrorBody[] }>;
    for (let i = 0; i < 3; i++) {
      const before = sqlStatementCount();
      res = await api.graphql<Subscriptions>(q, variables);
      least = Math.min(least, sqlStatementCount() - before);
    }
    return { res, statements: least };
  };
  const { res: big, statements } = await cost(query);
  const { res: one, statements: single } = await cost(query.replace('first: 50', 'first: 1'));
  expect(single).toBe(statements);
  // subscriptions + customers + payment methods + latest invoices + their attempts + invoices: no N+1.
  expect(statements).toBeLessThanOrEqual(8);
  expect(big.body.errors).toBeUndefined();
  expect(one.body.data.subscriptions.edges).toHaveLength(1);
  expect(big.body.data.subscriptions.edges).toHaveLength(12);
  expect(big.body.data.subscriptions.edges[0].node).toMatchObject({
    customer: { email: customer.email },
    paymentMethod: { last4: '4242' },
  });
  const trialing = await api.graphql<{
    subscriptions: { nodes: { amountCents: number; latestInvoice: { status: string } | null }[] };
  }>(
    `query($c: ID) { subscriptions(first: 50, customerId: $c, status: TRIALING) { nodes { amountCents latestInvoice { status } } } }`,
    variables,
  );
  expect(trialing.body.data.subscriptions.nodes.map((n) => n.amountCents)).toEqual([109, 106, 103, 100]);
  expect(trialing.body.data.subscriptions.nodes.every((n) => n.latestInvoice === null)).toBe(true);
});

test('live events of one subscription over graphql-ws: its renewal arrives, another subscription does not', async () => {
  const { customer, pm } = await customerWithCard();
  const daily = {
    customer_id: customer.id,
    payment_method_id: pm.id,
    amount_cents: 500,
    currency: 'USD',
    interval: 'daily',
  };
  const mk = async () => (await api.post<SubscriptionResource>('/api/v2/subscriptions', daily)).body;
  const mine = await mk();
  const other = await mk();
  const ws = wsClient(t.url, testKey);
  const live = collect<{ subscriptionContractEvents: Pick<EventNode, 'type' | 'data'> }>(
    ws,
    `subscription($id: ID!) { subscriptionContractEvents(id: $id) { type data } }`,
    {
      id: gid('SubscriptionContract', mine.id),
    },
  );
  await untilLive(
    live,
    () => api.post(`/api/v2/test-helpers/subscriptions/${mine.id}/dispute`, { stage: 'notification' }),
    { forget: true },
  );
  await api.post('/api/v2/test-helpers/advance-clock', { seconds: DAY + 60 });
  const messages = await live.waitFor(1);
  await new Promise((r) => setTimeout(r, 300));
  const received = live.messages.map((m) => m.subscriptionContractEvents);
  expect(received.map((e) => e.type)).toEqual(['subscription.renewed']);
  expect(received.every((e) => e.data.subscription_id === mine.id)).toBe(true);
  expect(messages.some((m) => m.subscriptionContractEvents.data.subscription_id === other.id)).toBe(false);
  live.unsubscribe();
  await ws.dispose();
});
