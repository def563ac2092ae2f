import { randomUUID } from 'node:crypto';
import { simulatedProcessor, useTestModeProcessor } from '../../src/modules/payments/processor-registry.js';
import type { SimulatedProcessor } from '../../src/modules/payments/simulated-processor.js';
import { cards, createProducts } from '../helpers/fixtures.js';
import type { ApiResponse, Client } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';

// Concurrent writes to one subscription on a pool of two connections: a write path that asks for
// a second pooled connection while it holds one freezes the whole service (every merchant) for
// the pool's acquire timeout. And a cancel racing a charge already in flight never keeps the
// money of a cycle it voided.

let t: TestApp;
let api: Client;
let other: Client;
const DAY = 86_400;
const retryCard = { number: '4000000000000341', exp_month: 12, exp_year: 2035, cvc: '123' };
const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`, 'utf8').toString('base64url');
const db = () => t.orm.em.fork().getConnection();

beforeAll(async () => {
  t = await startTestApp({ DB_POOL_MAX: '2' });
  await t.reset();
  ({ api: other } = await newMerchant(t, 'Unrelated merchant'));
  await createProducts(other, [['BAND', 'Bandages', 500]]);
});
// The merchant under load is new in every test: the scenarios move its test clock.
beforeEach(async () => {
  ({ api } = await newMerchant(t, 'Subscriptions under load'));
  await createProducts(api, [['THERM', 'Digital thermometer', 1500]]);
});
afterAll(() => t.close());

/** A subscription on `card` (the retry card makes it past_due at once) and a second, good card of the same customer. */
async function subscription(card: object = cards.visa) {
  const customer = (
    await api.post('/api/v2/customers', {
      email: `c.${randomUUID().slice(0, 8)}@example.com`,
      first_name: 'Cy',
      last_name: 'Race',
    })
  ).body;
  const pm = await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card });
  const spare = await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: cards.mastercard });
  expect([pm.status, spare.status]).toEqual([201, 201]);
  const res = await api.post('/api/v2/subscriptions', {
    customer_id: customer.id,
    payment_method_id: pm.body.id,
    amount_cents: 1500,
    currency: 'USD',
    interval: 'monthly',
    merchant_product_id: 'THERM',
  });
  expect(res.status).toBe(201);
  return { sub: res.body, spare: spare.body.id as string };
}

/** The unrelated merchant's reads, one after another until `done`, each answered 200; counts those answered before it. */
async function readsUntil(done: Promise<unknown>): Promise<{ answeredDuring: number }> {
  let finished = false;
  void done.finally(() => (finished = true));
  let reads = 0;
  let answeredDuring = 0;
  do {
    const res = await other.get(reads++ % 2 ? '/api/v2/products' : '/api/v2/subscriptions');
    expect(res.status).toBe(200);
    if (!finished) answeredDuring++;
  } while (!finished);
  return { answeredDuring };
}

async function eventTypes(subId: string): Promise<string[]> {
  const rows = await db().execute<{ type: string }[]>(
    `select type from events where data->>'subscription_id' = ? order by created_at, id`,
    [subId],
  );
  return rows.map((r) => r.type);
}

/** What the simulated processor kept for each cycle of `subId`: charges under its attempts' keys minus refunds of those charges. */
async function keptByCycle(
  subId: string,
): Promise<{ invoice: string; status: string; charged: number; refunded: number }[]> {
  return db().execute(
    `select i.id as invoice, i.status,
            coalesce(sum(c.amount) filter (where c.ok), 0)::int as charged,
            coalesce(sum((select sum(r.amount) from processor_ledger r where r.operation = 'refund' and r.ok and r.target = c.reference)), 0)::int as refunded
       from subscription_invoices i
       join subscription_invoice_attempts a on a.invoice_id = i.id
       left join processor_ledger c on c.key = a.id and c.operation = 'charge'
      where i.subscription_id = ?
      group by i.id, i.status order by i.id`,
    [subId],
  );
}

/** Nothing kept for a cycle that is not paid, one charge kept for a paid one; never renewed after canceled. */
async function expectNothingKeptAfterCancel(subId: string): Promise<void> {
  for (const cycle of await keptByCycle(subId)) {
    expect({ ...cycle, kept: cycle.charged - cycle.refunded }).toEqual({
      ...cycle,
      kept: cycle.status === 'paid' ? 1500 : 0,
    });
  }
  const types = await eventTypes(subId);
  expect(types.filter((e) => e === 'subscription.canceled')).toHaveLength(1);
  expect(types.slice(types.indexOf('subscription.canceled') + 1)).toEqual([]);
}

const summary = (res: ApiResponse[]) =>
  res.map((r) => (r.status === 200 ? '200' : `${r.status} ${r.body?.error?.code}`));
const cancel = (id: string, key?: string) =>
  api.post(`/api/v2/subscriptions/${id}/cancel`, { reason: 'race' }, key ? { 'idempotency-key': key } : {});

test('50 concurrent cancels of one subscription, with and without Idempotency-Key: one succeeds, the others are 400 invalid_state; an unrelated merchant is served meanwhile', async () => {
  const { sub } = await subscription();
  const burst = Promise.all(Array.from({ length: 50 }, (_, i) => cancel(sub.id, i % 2 ? randomUUID() : undefined)));
  const [results, reads] = await Promise.all([burst, readsUntil(burst)]);
  const answers = summary(results);
  expect(answers.filter((a) => a !== '200' && a !== '400 invalid_state')).toEqual([]);
  expect(answers.filter((a) => a === '200')).toHaveLength(1);
  expect(reads.answeredDuring).toBeGreaterThanOrEqual(1); // answered while the burst ran, not after it
  expect((await api.get(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('cancelled');
  await expectNothingKeptAfterCancel(sub.id);
}, 150_000);

// REST and GraphQL cancels, card replacements and advance-clock, all at once.
test('50 concurrent writes to one past_due subscription: one cancel wins, never 5xx, an unrelated merchant is served meanwhile', async () => {
  const { sub, spare } = await subscription(retryCard);
  expect(sub.status).toBe('past_due');
  const cancelGraphql = () =>
    api.graphql(
      `mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { subscription { status } userErrors { code } } }`,
      { input: { id: gid('SubscriptionContract', sub.id), reason: 'race' } },
      { 'idempotency-key': randomUUID() },
    );
  const writes: (() => Promise<ApiResponse>)[] = [
    ...Array.from({ length: 15 }, () => () => cancel(sub.id, randomUUID())),
    ...Array.from({ length: 10 }, () => () => cancel(sub.id)),
    ...Array.from({ length: 8 }, () => cancelGraphql),
    ...Array.from(
      { length: 6 },
      (_, i) => () =>
        api.post(
          `/api/v2/subscriptions/${sub.id}/payment-method`,
          { payment_method_id: spare },
          i % 2 ? { 'idempotency-key': randomUUID() } : {},
        ),
    ),
    ...Array.from(
      { length: 6 },
      () => () =>
        api.put(
          `/api/v2/subscriptions/${sub.id}`,
          { metadata: { touched: true } },
          { 'idempotency-key': randomUUID() },
        ),
    ),
    ...Array.from({ length: 5 }, () => () => api.post('/api/v2/test-helpers/advance-clock', { seconds: 2 * DAY })),
  ];
  const order = writes.map((_, i) => i).sort(() => Math.random() - 0.5);
  const burst = Promise.all(order.map((i) => writes[i]()));
  const [shuffled, reads] = await Promise.all([burst, readsUntil(burst)]);
  const results: ApiResponse[] = [];
  order.forEach((i, n) => (results[i] = shuffled[n]));

  expect(results.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
  const restCancels = summary(results.slice(0, 25));
  // A cancel that lost is an input mistake now (userErrors); a top-level error would be anything else.
  const graphqlCancels = results
    .slice(25, 33)
    .map((r) =>
      r.body.errors
        ? `error ${r.body.errors[0].extensions.code}`
        : r.body.data.cancelSubscription.userErrors.length
          ? `userError ${r.body.data.cancelSubscription.userErrors[0].code}`
          : 'ok',
    );
  expect(restCancels.filter((a) => a !== '200' && a !== '400 invalid_state')).toEqual([]);
  expect(graphqlCancels.filter((a) => a !== 'ok' && a !== 'userError INVALID_STATE')).toEqual([]);
  expect(restCancels.filter((a) => a === '200').length + graphqlCancels.filter((a) => a === 'ok').length).toBe(1);
  expect(summary(results.slice(33, 45)).filter((a) => a !== '200' && a !== '400 invalid_state')).toEqual([]);
  expect(summary(results.slice(45))).toEqual(Array(5).fill('200'));
  expect(reads.answeredDuring).toBeGreaterThanOrEqual(1); // answered while the burst ran, not after it

  expect((await api.get(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('cancelled');
  await expectNothingKeptAfterCancel(sub.id);
}, 150_000);

test('cancel versus a charge in flight: 25 races of cancel and card replacement on a past_due subscription; the cancel is never followed by a kept charge or subscription.renewed', async () => {
  const outcomes: string[] = [];
  for (let race = 0; race < 25; race++) {
    const { sub, spare } = await subscription(retryCard);
    expect(sub.status).toBe('past_due');
    const [cancelled, replaced] = await Promise.all([
      cancel(sub.id, race % 2 ? randomUUID() : undefined),
      api.post(`/api/v2/subscriptions/${sub.id}/payment-method`, { payment_method_id: spare }),
    ]);
    expect(cancelled.status).toBe(200);
    expect(summary([replaced]).filter((a) => a !== '200' && a !== '400 invalid_state')).toEqual([]);
    expect((await api.get(`/api/v2/subscriptions/${sub.id}`)).body.status).toBe('cancelled');
    await expectNothingKeptAfterCancel(sub.id);
    const cycles = await keptByCycle(sub.id);
    const latest = cycles.find((c) => c.charged > 0);
    outcomes.push(
      !latest ? 'not charged' : latest.status === 'paid' ? 'paid before the cancel' : 'charged, then reversed',
    );
  }
  // Which side won each race is up to the scheduler; every run above kept the rule.
  console.log(
    `cancel vs charge outcomes: ${JSON.stringify(outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }), {}))}`,
  );
}, 150_000);

describe('a charge in flight when the cancel commits', () => {
  /** The simulated processor with `overrides`, for the duration of `work`. */
  async function withProcessor<T>(
    overrides: (real: SimulatedProcessor) => Partial<SimulatedProcessor>,
    work: () => Promise<T>,
  ): Promise<T> {
    const real = simulatedProcessor(t.orm.em.fork());
    const previous = useTestModeProcessor(Object.assign(Object.create(real), overrides(real)));
    try {
      return await work();
    } finally {
      useTestModeProcessor(previous);
    }
  }
  const attemptsOf = (subId: string) =>
    db().execute<{ status: string; invoice_status: string }[]>(
      `select a.status, i.status as invoice_status from subscription_invoice_attempts a join subscription_invoices i on i.id = a.invoice_id where i.subscription_id = ? order by a.attempt`,
      [subId],
    );

  test('the cancel commits while the processor charges the replaced card: the settle step reverses the capture; a refund that fails then is made by the reconciliation sweep', async () => {
    const { sub, spare } = await subscription(retryCard);
    let charging!: () => void;
    let release!: () => void;
    const atProcessor = new Promise<void>((resolve) => (charging = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    await withProcessor(
      (real) => ({
        chargeToken: async (...args: Parameters<SimulatedProcessor['chargeToken']>) => {
          charging();
          await gate;
          return real.chargeToken(...args);
        },
        refund: () => Promise.reject(new Error('processor unreachable')),
      }),
      async () => {
        const replacing = api.post(`/api/v2/subscriptions/${sub.id}/payment-method`, { payment_method_id: spare });
        await atProcessor;
        expect((await cancel(sub.id, randomUUID())).status).toBe(200);
        release();
        const replaced = await replacing;
        expect(replaced.status).toBe(200);
        expect(replaced.body).toMatchObject({ status: 'cancelled', next_billing_date: null });
      },
    );
    expect(await attemptsOf(sub.id)).toEqual([
      { status: 'failed', invoice_status: 'void' },
      { status: 'reversed', invoice_status: 'void' },
    ]);
    expect(await eventTypes(sub.id)).toEqual([
      'subscription.created',
      'subscription.payment_failed',
      'subscription.canceled',
    ]);
    // The reversal is journaled under the attempt it reverses.
    const [journal] = await db().execute<{ id: string; status: string }[]>(
      `select id, status from payment_attempts where subject_id in (select a.id from subscription_invoice_attempts a join subscription_invoices i on i.id = a.invoice_id where i.subscription_id = ?)`,
      [sub.id],
    );
    expect(journal.status).toBe('reversing');
    expect((await keptByCycle(sub.id)).map((c) => c.charged - c.refunded)).toEqual([1500]);

    // The refund failed after the decision committed: the reconciliation sweep makes it, once.
    await db().execute(`update payment_attempts set updated_at = now() - interval '2 minutes' where id = ?`, [
      journal.id,
    ]);
    await t.app.http.jobs.runDue(new Date());
    await t.app.http.jobs.runDue(new Date());
    expect((await db().execute(`select status from payment_attempts where id = ?`, [journal.id]))[0].status).toBe(
      'reversed',
    );
    await expectNothingKeptAfterCancel(sub.id);
  });

  test('the worker dies mid-charge and the subscription is cancelled: once the lease lapses the sweep re-drives the same attempt and reverses it', async () => {
    const { sub, spare } = await subscription(retryCard);
    await withProcessor(
      (real) => ({
        chargeToken: async (...args: Parameters<SimulatedProcessor['chargeToken']>) => {
          await real.chargeToken(...args); // charged, but the answer never arrives
          throw new Error('connection reset by the processor');
        },
      }),
      async () =>
        expect(
          (await api.post(`/api/v2/subscriptions/${sub.id}/payment-method`, { payment_method_id: spare })).status,
        ).toBe(200),
    );
    expect(await attemptsOf(sub.id)).toEqual([
      { status: 'failed', invoice_status: 'open' },
      { status: 'calling', invoice_status: 'open' },
    ]);
    expect((await cancel(sub.id)).status).toBe(200);
    await api.post('/api/v2/test-helpers/advance-clock', { seconds: 60 });
    expect((await attemptsOf(sub.id)).map((a) => a.status)).toEqual(['failed', 'calling']); // its lease still holds it

    await db().execute(`update subscriptions set billing_lease_until = now() - interval '1 second' where id = ?`, [
      sub.id,
    ]);
    await api.post('/api/v2/test-helpers/advance-clock', { seconds: 60 });
    expect(await attemptsOf(sub.id)).toEqual([
      { status: 'failed', invoice_status: 'void' },
      { status: 'reversed', invoice_status: 'void' },
    ]);
    expect((await api.get(`/api/v2/subscriptions/${sub.id}`)).body).toMatchObject({
      status: 'cancelled',
      next_billing_date: null,
    });
    await expectNothingKeptAfterCancel(sub.id);
    // Charged once under the attempt's key (the re-drive got the first answer), refunded once.
    const [charges] = await db().execute<{ n: number }[]>(
      `select count(*)::int as n from processor_ledger where operation = 'charge' and ok and key in (
         select a.id from subscription_invoice_attempts a join subscription_invoices i on i.id = a.invoice_id where i.subscription_id = ?)`,
      [sub.id],
    );
    expect(charges.n).toBe(1);
  });
});
