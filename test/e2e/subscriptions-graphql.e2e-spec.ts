import { sqlStatementCount } from '../../src/platform/db/sql-counter.js';
import { cards } from '../helpers/fixtures.js';
import { collect, untilLive, wsClient, type EventNode } from '../helpers/graphql-ws.js';
import { client, type ApiResponse, type FieldError, type GraphQLErrorBody, type Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;
let testKey: string;
const DAY = 86_400;
const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`, 'utf8').toString('base64url');
const expiredRenewalCard = { number: '4000000000000069', exp_month: 12, exp_year: 2035, cvc: '123' };

beforeAll(async () => {
  const started = await startWithMerchant();
  ({ t, api } = started);
  testKey = started.keys.test_api_key;
  await api.post('/api/v2/products', { name: 'Digital thermometer', price: 1500, currency: 'USD', merchant_product_id: 'THERM' });
});
afterAll(() => t.close());

async function customerWithCard(card: object = cards.visa) {
  const customer = (await api.post('/api/v2/customers', { email: `g.${Math.random().toString(36).slice(2, 8)}@example.com`, first_name: 'Gale', last_name: 'Ray' })).body;
  const pm = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card })).body;
  return { customer, pm };
}

const FIELDS = `id subscriptionId status amountCents currency interval intervalCount trialPeriodDays trialEnd currentPeriodStart currentPeriodEnd nextBillingDate cancelAtPeriodEnd cancelledAt metadata
  customer { email } paymentMethod { brand last4 type }
  latestInvoice { invoiceId status amount amountPaid orderId pspReference attempts { attempt status disposition refusalCode } }`;

const create = (input: Record<string, unknown>) => api.graphql(`mutation($input: CreateSubscriptionInput!) { createSubscription(input: $input) { subscription { ${FIELDS} } } }`, { input });

test('create, read with customer, payment method, latest invoice, invoices and events; update, cancel at period end, resume, cancel now', async () => {
  const { customer, pm } = await customerWithCard();
  const res = await create({
    customerId: gid('Customer', customer.id),
    paymentMethodId: gid('PaymentMethod', pm.id),
    merchantProductId: 'THERM',
    amountCents: 1500,
    currency: 'USD',
    interval: 'MONTHLY',
    metadata: { plan: 'basic' },
  });
  expect(res.body.errors).toBeUndefined();
  const sub = res.body.data.createSubscription.subscription;
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
  const read = await api.graphql(
    `query($id: ID!) { subscriptionContract(id: $id) { invoices(first: 5) { nodes { invoiceId periodStart } } events(first: 5) { nodes { type data } } } node(id: $id) { __typename } }`,
    { id: sub.id },
  );
  expect(read.body.data.subscriptionContract.invoices.nodes).toEqual([{ invoiceId: sub.latestInvoice.invoiceId, periodStart: sub.currentPeriodStart }]);
  expect(read.body.data.subscriptionContract.events.nodes.map((e: { type: string }) => e.type)).toEqual(['subscription.renewed', 'subscription.created']);
  expect(read.body.data.node.__typename).toBe('SubscriptionContract');

  const updated = await api.graphql(`mutation($input: UpdateSubscriptionInput!) { updateSubscription(input: $input) { subscription { amountCents metadata } } }`, {
    input: { id: sub.id, amountCents: 1900, metadata: { plan: 'plus' } },
  });
  expect(updated.body.data.updateSubscription.subscription).toEqual({ amountCents: 1900, metadata: { plan: 'plus' } });
  const scheduled = await api.graphql(`mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { subscription { status cancelAtPeriodEnd cancelledAt } } }`, {
    input: { id: sub.id, cancelAtPeriodEnd: true },
  });
  expect(scheduled.body.data.cancelSubscription.subscription).toMatchObject({ status: 'ACTIVE', cancelAtPeriodEnd: true, cancelledAt: expect.any(String) });
  const resumed = await api.graphql(`mutation($input: ResumeSubscriptionInput!) { resumeSubscription(input: $input) { subscription { status cancelAtPeriodEnd } } }`, { input: { id: sub.id } });
  expect(resumed.body.data.resumeSubscription.subscription).toEqual({ status: 'ACTIVE', cancelAtPeriodEnd: false });
  const again = await api.graphql(`mutation($input: ResumeSubscriptionInput!) { resumeSubscription(input: $input) { subscription { status } } }`, { input: { id: sub.id } });
  expect(again.body.errors?.[0].extensions.code).toBe('invalid_state');
  const ended = await api.graphql(`mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { subscription { status endedAt } } }`, { input: { id: sub.id, reason: 'done' } });
  expect(ended.body.data.cancelSubscription.subscription).toMatchObject({ status: 'CANCELLED', endedAt: expect.any(String) });
});

test('dispositions through GraphQL: action_required, then the card replaced by mutation rescues it', async () => {
  const { customer, pm } = await customerWithCard(expiredRenewalCard);
  const sub = (await create({ customerId: gid('Customer', customer.id), paymentMethodId: gid('PaymentMethod', pm.id), amountCents: 990, currency: 'USD', interval: 'WEEKLY' })).body.data
    .createSubscription.subscription;
  expect(sub).toMatchObject({
    status: 'ACTION_REQUIRED',
    nextBillingDate: null,
    latestInvoice: { status: 'OPEN', attempts: [{ status: 'FAILED', disposition: 'ACTION_REQUIRED', refusalCode: 'expired_card' }] },
  });
  const fresh = (await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.mastercard })).body;
  const rescued = await api.graphql(`mutation($input: ReplaceSubscriptionPaymentMethodInput!) { replaceSubscriptionPaymentMethod(input: $input) { subscription { ${FIELDS} } } }`, {
    input: { id: sub.id, paymentMethodId: gid('PaymentMethod', fresh.id) },
  });
  expect(rescued.body.data.replaceSubscriptionPaymentMethod.subscription).toMatchObject({
    status: 'ACTIVE',
    paymentMethod: { brand: 'mastercard' },
    latestInvoice: { status: 'PAID', attempts: [{ status: 'FAILED' }, { status: 'SUCCEEDED' }] },
  });
});

test('the other rows through GraphQL: trialing then active on the test clock; retry → PAST_DUE → UNPAID; terminal → UNPAID; a dispute held and released', async () => {
  const make = async (card: object, extra: Record<string, unknown> = {}) => {
    const { customer, pm } = await customerWithCard(card);
    const res = await create({ customerId: gid('Customer', customer.id), paymentMethodId: gid('PaymentMethod', pm.id), amountCents: 800, currency: 'USD', interval: 'DAILY', ...extra });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.createSubscription.subscription;
  };
  const read = async (id: string) =>
    (await api.graphql(`query($id: ID!) { subscriptionContract(id: $id) { status nextBillingDate latestInvoice { status attemptCount nextRetryAt attempts { disposition refusalCode } } } }`, { id }))
      .body.data.subscriptionContract;
  const trial = await make(cards.visa, { trialPeriodDays: 2 });
  expect(trial).toMatchObject({ status: 'TRIALING', trialPeriodDays: 2, latestInvoice: null });
  const retry = await make({ number: '4000000000000341', exp_month: 12, exp_year: 2035, cvc: '123' });
  expect(retry).toMatchObject({ status: 'PAST_DUE', latestInvoice: { status: 'OPEN', attempts: [{ disposition: 'RETRY', refusalCode: 'insufficient_funds' }] } });
  const terminal = await make({ number: '4111110000000039', exp_month: 12, exp_year: 2035, cvc: '123' }, { merchantProductId: 'THERM', amountCents: 1500 });
  expect(terminal).toMatchObject({ status: 'UNPAID', nextBillingDate: null, latestInvoice: { status: 'UNCOLLECTIBLE', attempts: [{ disposition: 'TERMINAL', refusalCode: 'stolen_card' }] } });
  for (const days of [1, 3, 5]) await api.post('/api/v2/test-helpers/advance-clock', { seconds: days * DAY + 60 });
  expect(await read(trial.id)).toMatchObject({ status: 'ACTIVE', latestInvoice: { status: 'PAID' } });
  expect(await read(retry.id)).toMatchObject({ status: 'UNPAID', nextBillingDate: null, latestInvoice: { status: 'UNCOLLECTIBLE', attemptCount: 4, nextRetryAt: null } });
  expect((await read(terminal.id)).latestInvoice.attempts).toHaveLength(1);
  const disputed = trial.subscriptionId;
  await api.post(`/api/v2/test-helpers/subscriptions/${disputed}/dispute`, { stage: 'confirmed' });
  expect((await read(trial.id)).status).toBe('DISPUTED');
  await api.post(`/api/v2/test-helpers/subscriptions/${disputed}/dispute`, { stage: 'reversed', event_code: 'MANUAL_RELEASE' });
  expect((await read(trial.id)).status).toBe('ACTIVE');
});

test('errors carry the REST codes: customer_not_found, invalid_payment_method, validation_error details', async () => {
  const { customer, pm } = await customerWithCard();
  const missing = await create({ customerId: gid('Customer', 'cus_nope'), paymentMethodId: gid('PaymentMethod', pm.id), amountCents: 100, currency: 'USD', interval: 'DAILY' });
  expect(missing.body.errors?.[0].extensions.code).toBe('customer_not_found');
  const other = await customerWithCard();
  const foreign = await create({ customerId: gid('Customer', customer.id), paymentMethodId: gid('PaymentMethod', other.pm.id), amountCents: 100, currency: 'USD', interval: 'DAILY' });
  expect(foreign.body.errors?.[0].extensions.code).toBe('invalid_payment_method');
  const bad = await create({ customerId: gid('Customer', customer.id), paymentMethodId: gid('PaymentMethod', pm.id), amountCents: -5, currency: 'USD', interval: 'DAILY', trialPeriodDays: -2 });
  expect(bad.body.errors?.[0].extensions).toMatchObject({ code: 'validation_error' });
  expect(bad.body.errors?.[0].extensions.details.map((d: FieldError) => d.field).sort()).toEqual(['amountCents', 'trialPeriodDays']);
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
  const query = `query($c: ID) { subscriptions(first: 50, customerId: $c) { edges { cursor node { subscriptionId status customer { email } paymentMethod { last4 } latestInvoice { status attempts { status } } invoices(first: 3) { nodes { invoiceId } } } } pageInfo { hasNextPage } } }`;
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
  expect(big.body.data.subscriptions.edges[0].node).toMatchObject({ customer: { email: customer.email }, paymentMethod: { last4: '4242' } });
  const trialing = await api.graphql<{ subscriptions: { nodes: { amountCents: number; latestInvoice: { status: string } | null }[] } }>(
    `query($c: ID) { subscriptions(first: 50, customerId: $c, status: TRIALING) { nodes { amountCents latestInvoice { status } } } }`,
    variables,
  );
  expect(trialing.body.data.subscriptions.nodes.map((n) => n.amountCents)).toEqual([109, 106, 103, 100]);
  expect(trialing.body.data.subscriptions.nodes.every((n) => n.latestInvoice === null)).toBe(true);
});

test('live events of one subscription over graphql-ws: its renewal arrives, another subscription does not', async () => {
  const { customer, pm } = await customerWithCard();
  const mk = async () => (await api.post('/api/v2/subscriptions', { customer_id: customer.id, payment_method_id: pm.id, amount_cents: 500, currency: 'USD', interval: 'daily' })).body;
  const mine = await mk();
  const other = await mk();
  const ws = wsClient(t.url, testKey);
  const live = collect<{ subscriptionContractEvents: Pick<EventNode, 'type' | 'data'> }>(ws, `subscription($id: ID!) { subscriptionContractEvents(id: $id) { type data } }`, {
    id: gid('SubscriptionContract', mine.id),
  });
  await untilLive(live, () => api.post(`/api/v2/test-helpers/subscriptions/${mine.id}/dispute`, { stage: 'notification' }), { forget: true });
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
