import type { CheckoutResource } from '../../src/modules/checkout/checkout.resource.js';
import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import type { PaymentProcessor } from '../../src/modules/payments/payment-processor.js';
import { simulatedProcessor, useTestModeProcessor } from '../../src/modules/payments/processor-registry.js';
import { checkoutBody, cards, createProducts, openCheckout, paidOrder, payCheckout } from '../helpers/fixtures.js';
import { client, type Client, type Envelope, type FieldError } from '../helpers/http.js';
import { newMerchant, startWithMerchant, type TestApp } from '../helpers/test-app.js';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';

let t: TestApp;
let api: Client;
let keys: CreatedMerchant;

const catalog = [
  ['THERM', 'Digital thermometer', 1999],
  ['BAND', 'Adhesive bandages', 499],
  ['VIT', 'Daily multivitamin', 1299],
  ['CANDY', 'Chocolate candy bar', 250],
] as const;

beforeAll(async () => {
  ({ t, keys, api } = await startWithMerchant());
  await createProducts(api, catalog);
});
afterAll(() => t.close());

const db = () => t.orm.em.fork().getConnection();
const count = async (sql: string, params: unknown[]) => (await db().execute<{ n: number }[]>(sql, params))[0].n;
const ordersOfCheckout = (checkoutId: string) =>
  count(`select count(*)::int as n from orders where checkout_id = ?`, [checkoutId]);

/** A split cart: an eligible thermometer (2000) and a regular candy bar (1000). */
const splitCart: [string, string, number, number][] = [
  ['THERM', 'Thermometer', 2000, 1],
  ['CANDY', 'Candy', 1000, 1],
];
const openSplitCheckout = (extra: Record<string, unknown> = {}) => openCheckout(api, splitCart, extra);
const openBandagesCheckout = () => openCheckout(api, [['BAND', 'Bandages', 499, 1]]);

/** A payment_attempts row (the columns the journal tests select). */
interface PaymentAttemptRow {
  id: string;
  status: string;
  order_id: string | null;
  steps: {
    slot: string;
    payment_method: string;
    amount: number;
    authorization_id: string | null;
    capture_id: string | null;
  }[];
}

/** An event row as the payment tests read it. */
interface EventRow {
  type: string;
  data: Record<string, unknown>;
  webhook_url: string | null;
}

describe('POST /api/v2/checkout', () => {
  test('opens an all-eligible cart as an eligible session, inside the success envelope', async () => {
    const items: [string, string, number, number][] = [
      ['THERM', 'Thermometer', 1999, 1],
      ['BAND', 'Bandages', 499, 2],
    ];
    const res = await api.post<Envelope<CheckoutResource>>('/api/v2/checkout', checkoutBody(items));
    expect(res.status).toBe(201);
    const envelope = {
      success: true,
      message: expect.any(String),
      metadata: { request_id: expect.stringMatching(/^req_/) },
    };
    expect(res.body).toMatchObject(envelope);
    const s = res.body.data;
    expect(s).toMatchObject({
      checkout_id: expect.stringMatching(/^cs_/),
      status: 'open',
      type: 'eligible',
      customer: { email: 'Jane.Doe@example.com', first_name: 'Jane', last_name: 'Doe' },
      amounts: { subtotal: 2997, hsa_amount: 2997, regular_amount: 0, shipping: 0, tax: 0, discount: 0, total: 2997 },
      success_url: 'https://shop.example.com/thanks',
      failure_url: 'https://shop.example.com/cart',
    });
    expect(s.checkout_url).toMatch(new RegExp(`/checkout/${s.checkout_id}\\?token=[0-9A-Za-z]{32}$`));
    expect(s.billing_info).toEqual(s.shipping_info);
    const lifetimeMs = new Date(s.expires_at).getTime() - new Date(s.created_at).getTime();
    expect(lifetimeMs).toBe(24 * 3600 * 1000);
    expect(s.line_items.map((l) => l.hsa_fsa_eligible)).toEqual([true, true]);
  });

  test('splits a mixed cart, putting shipping and unmatched items in the regular part', async () => {
    const s = await openCheckout(
      api,
      [
        ['THERM', 'Thermometer', 2000, 1],
        ['CANDY', 'Candy', 1000, 1],
        ['NOPE', 'Mystery', 500, 1],
      ],
      { shipping: 700, tax: 0, discount: 0 },
    );
    expect(s).toMatchObject({
      type: 'split',
      amounts: { subtotal: 3500, hsa_amount: 2000, regular_amount: 2200, total: 4200 },
    });
  });

  test('opens a cart of unmatched items only as a regular session', async () => {
    const s = await openCheckout(api, [['NOPE', 'Mystery', 500, 2]]);
    expect(s).toMatchObject({ type: 'regular', amounts: { hsa_amount: 0, regular_amount: 1000 } });
  });

  test('refuses a plain-http public metadata.webhook_url in test mode (422 on metadata.webhook_url)', async () => {
    const body = checkoutBody([['BAND', 'Bandages', 499, 1]], { metadata: { webhook_url: 'http://example.com/hook' } });
    const bad = await api.post('/api/v2/checkout', body);
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', param: 'metadata.webhook_url' });
  });

  test('accepts a plain-http loopback metadata.webhook_url in test mode', async () => {
    const body = checkoutBody([['BAND', 'Bandages', 499, 1]], { metadata: { webhook_url: 'http://127.0.0.1:9/hook' } });
    const local = await api.post('/api/v2/checkout', body);
    expect(local.status).toBe(201);
  });

  test('answers missing fields with 400 bad_request, listing every missing field', async () => {
    const missing = await api.post('/api/v2/checkout', {
      reference_id: 'x',
      line_items: [{ product_id: 'A', name: 'A', price: 100, quantity: 1 }],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('bad_request');
    const fields = missing.body.error.details.map((d: FieldError) => d.field).sort();
    expect(fields).toEqual(['customer', 'failure_url', 'line_items.0.currency', 'shipping_info', 'success_url']);
  });

  test('answers invalid values with 422 validation_error, listing every invalid field', async () => {
    const invalid = await api.post(
      '/api/v2/checkout',
      checkoutBody([['THERM', 'T', -1, 0]], {
        success_url: 'not a url',
        customer: { email: 'nope', first_name: 'J', last_name: 'D' },
        billing_info: { address_line_1: '', city: 'X', state: 'TX', postal_code: '1', country: 'USA' },
      }),
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.code).toBe('validation_error');
    const fields = invalid.body.error.details.map((d: FieldError) => d.field).sort();
    const expected = [
      'billing_info.address_line_1',
      'billing_info.country',
      'customer.email',
      'line_items',
      'line_items.0.price',
      'line_items.0.quantity',
      'success_url',
    ];
    expect(fields).toEqual(expected.sort());
  });
});

describe('a split payment with both cards', () => {
  /** Opens a split checkout with shipping and a webhook_url, pays it with the HSA card and a visa; returns both. */
  async function paySplit(): Promise<{ s: CheckoutResource; order: OrderResource }> {
    const s = await openSplitCheckout({ shipping: 500, metadata: { webhook_url: 'http://127.0.0.1:9/hook' } });
    const order = await paidOrder(api, s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.visa });
    return { s, order };
  }

  test('captures both cards and answers one completed order', async () => {
    const { s, order } = await paySplit();
    expect(order).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      order_number: expect.stringMatching(/^ORD-\d+/),
      checkout_id: s.checkout_id,
      reference_id: s.reference_id,
      payment_link_id: null,
      client_reference_id: null,
      status: 'completed',
      payment_status: 'captured',
      is_recurring: false,
      amount: 3500,
      currency: 'usd',
      amounts: { hsa_amount: 2000, regular_amount: 1500, total: 3500 },
      customer: {
        email: 'Jane.Doe@example.com',
        shipping_address: { city: 'Austin' },
        billing_address: { city: 'Austin' },
      },
      payment: { payment_method: 'hsa_fsa_card', last4: '0013', brand: 'visa', amount: 2000 },
    });
    expect(order.payments.map((p) => [p.payment_method, p.amount])).toEqual([
      ['hsa_fsa_card', 2000],
      ['card', 1500],
    ]);
    expect(order.status_history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'processing',
      'completed',
    ]);
    const firstLine = {
      id: expect.any(String),
      product_id: expect.any(Number),
      name: 'Thermometer',
      quantity: 1,
      price: 2000,
      hsa_fsa_eligible: true,
      is_recurring: false,
    };
    expect(order.line_items[0]).toMatchObject(firstLine);
    expect(order.receipt_url).toMatch(/\/receipts\/ord_.*signature=/);
  });

  test("records order.created and order.completed for the order, sent to the session's webhook_url", async () => {
    const { s, order } = await paySplit();
    const events = await db().execute<EventRow[]>(
      `select type, data, webhook_url from events where data->>'id' = ? order by created_at, type`,
      [order.id],
    );
    expect(events.map((e) => e.type).sort()).toEqual(['order.completed', 'order.created']);
    expect(events[0].webhook_url).toBe('http://127.0.0.1:9/hook');
    const completed = events.find((e) => e.type === 'order.completed');
    expect(completed?.data).toMatchObject({
      id: order.id,
      checkout_id: s.checkout_id,
      payment_status: 'captured',
      currency: 'usd',
      line_items: [{ unit_amount: 2000, amount: 2000 }, { unit_amount: 1000 }],
    });
  });

  test('marks the session paid with its order', async () => {
    const { s, order } = await paySplit();
    const status = await api.get<Envelope<CheckoutResource>>(`/api/v2/checkout/${s.checkout_id}`);
    expect(status.body.data).toMatchObject({
      status: 'paid',
      order_id: order.id,
      order: { id: order.id, status: 'completed' },
    });
  });
});

test('never stores a card number in payments, orders or events', async () => {
  // Paid, declined and HSA-only payments with every card the tests use write the rows to search.
  const split = await openSplitCheckout();
  await payCheckout(api, split.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.declined });
  await paidOrder(api, split.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.mastercard });
  await paidOrder(api, (await openSplitCheckout()).checkout_id, {
    hsa_fsa_card: cards.hsaMastercard,
    card: cards.visa,
  });
  await paidOrder(api, (await openBandagesCheckout()).checkout_id, { hsa_fsa_card: cards.hsa });
  const dumpSql = `select (select string_agg(t::text, '') from payments t)
                       || (select string_agg(o::text, '') from orders o)
                       || (select string_agg(e::text, '') from events e) as dump`;
  const [{ dump }] = await db().execute<{ dump: string | null }[]>(dumpSql);
  expect(dump).toEqual(expect.stringContaining('ord_')); // the search reads real rows
  for (const c of Object.values(cards)) expect(dump).not.toContain(c.number);
});

describe('the second card declining', () => {
  /** Opens a split checkout and pays it with the HSA card and a card that declines. */
  async function declineSecondCard() {
    const s = await openSplitCheckout();
    const res = await payCheckout(api, s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.declined });
    return { s, res };
  }

  test('answers 402 card_declined on the card, naming the failed order', async () => {
    const { res } = await declineSecondCard();
    expect(res.status).toBe(402);
    const details = { decline_code: 'card_declined', payment_method: 'card', order_id: expect.stringMatching(/^ord_/) };
    expect(res.body.error).toMatchObject({ code: 'card_declined', param: 'card', details });
  });

  test('records a failed order with order.failed and captures nothing', async () => {
    const { s, res } = await declineSecondCard();
    const failed = await api.get<OrderResource>(`/api/v2/orders/${res.body.error.details.order_id}`);
    expect(failed.body).toMatchObject({
      status: 'failed',
      payment_status: 'failed',
      payments: [],
      receipt_url: null,
      failure_reason: 'card: card_declined',
    });
    const captured = await count(
      `select count(*)::int as n from payments where order_id in (select id from orders where checkout_id = ?)`,
      [s.checkout_id],
    );
    expect(captured).toBe(0);
    const ev = await db().execute<{ type: string }[]>(`select type from events where data->>'id' = ?`, [
      failed.body.id,
    ]);
    expect(ev.map((e) => e.type)).toEqual(['order.failed']);
  });

  test('leaves the session payable with another card', async () => {
    const { s } = await declineSecondCard();
    expect((await payCheckout(api, s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.mastercard })).status).toBe(
      200,
    );
  });
});

describe('HSA/FSA card rules', () => {
  test('refuses an HSA/FSA card alone for a split cart (422 on card)', async () => {
    const split = await openSplitCheckout();
    const onlyHsa = await payCheckout(api, split.checkout_id, { hsa_fsa_card: cards.hsa });
    expect(onlyHsa.status).toBe(422);
    expect(onlyHsa.body.error.param).toBe('card');
  });

  test('refuses a regular card in the HSA/FSA slot (invalid_payment_method on hsa_fsa_card)', async () => {
    const split = await openSplitCheckout();
    const wrongSlot = await payCheckout(api, split.checkout_id, { hsa_fsa_card: cards.visa, card: cards.visa });
    expect(wrongSlot.body.error).toMatchObject({ code: 'invalid_payment_method', param: 'hsa_fsa_card' });
  });

  test('refuses an HSA/FSA card in the regular card slot (invalid_payment_method on card)', async () => {
    const split = await openSplitCheckout();
    const hsaAsCard = await payCheckout(api, split.checkout_id, { card: cards.hsa });
    expect(hsaAsCard.body.error).toMatchObject({ code: 'invalid_payment_method', param: 'card' });
  });

  test('refuses a card number failing the Luhn check (422 on card.number)', async () => {
    const split = await openSplitCheckout();
    const luhn = await payCheckout(api, split.checkout_id, { card: { ...cards.visa, number: '4242424242424241' } });
    expect(luhn.status).toBe(422);
    expect(luhn.body.error.details[0].field).toBe('card.number');
  });

  test('lets a regular card alone pay all of a split cart', async () => {
    const split = await openSplitCheckout();
    const regularOnly = await paidOrder(api, split.checkout_id, { card: cards.visa });
    expect(regularOnly.payments).toEqual([expect.objectContaining({ payment_method: 'card', amount: 3000 })]);
  });

  test('lets an HSA/FSA card alone pay an all-eligible cart', async () => {
    const eligible = await openBandagesCheckout();
    const hsaOnly = await paidOrder(api, eligible.checkout_id, { hsa_fsa_card: cards.hsaMastercard });
    expect(hsaOnly.payment).toMatchObject({ payment_method: 'hsa_fsa_card', brand: 'mastercard', amount: 499 });
  });
});

describe('items needing a letter of medical necessity', () => {
  const lmn = {
    condition: 'Vitamin D deficiency',
    recommended_by_provider: true,
    provider_name: 'Dr. Smith',
    attestation: true,
  };

  test('refuses the HSA/FSA card without the approval (422 on lmn)', async () => {
    const s = await openCheckout(api, [['VIT', 'Multivitamin', 1299, 1]]);
    expect(s.requires_lmn).toBe(true);
    const without = await payCheckout(api, s.checkout_id, { hsa_fsa_card: cards.hsa });
    expect(without.status).toBe(422);
    expect(without.body.error.param).toBe('lmn');
  });

  test('the questionnaire opens a clinician review: the order is processing, not completed', async () => {
    const s = await openCheckout(api, [['VIT', 'Multivitamin', 1299, 1]]);
    const paid = await paidOrder(api, s.checkout_id, { hsa_fsa_card: cards.hsa, lmn });
    expect(paid).toMatchObject({
      status: 'processing',
      payment_status: 'authorized',
      lmn_review: { id: expect.stringMatching(/^lmnr_/), status: 'pending' },
    });
  });
});

test('refuses to pay a session twice (400 invalid_state), leaving one order', async () => {
  const s = await openBandagesCheckout();
  expect((await payCheckout(api, s.checkout_id, { card: cards.visa })).status).toBe(200);
  const again = await payCheckout(api, s.checkout_id, { card: cards.visa });
  expect(again.status).toBe(400);
  expect(again.body.error.code).toBe('invalid_state');
  expect(await ordersOfCheckout(s.checkout_id)).toBe(1);
});

test('makes exactly one order and one capture of concurrent payment attempts on one session', async () => {
  const s = await openBandagesCheckout();
  const results = await Promise.all(
    Array.from({ length: 10 }, () => payCheckout(api, s.checkout_id, { card: cards.visa })),
  );
  expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  // The others find it paid, or another attempt still open, or (on a slow machine) the payments
  // gate full, answered 429 with nothing done: never a second charge.
  const foundPaid = (r: (typeof results)[number]) => r.status === 400 && r.body.error.code === 'invalid_state';
  const foundInProgress = (r: (typeof results)[number]) =>
    r.status === 409 && r.body.error.code === 'payment_in_progress';
  const turnedAway = (r: (typeof results)[number]) => r.status === 429 && r.body.error.code === 'rate_limit_exceeded';
  expect(results.filter((r) => r.status !== 200 && !foundPaid(r) && !foundInProgress(r) && !turnedAway(r))).toEqual([]);
  const captures = await count(
    `select count(*)::int as n from processor_ledger
     where operation = 'capture' and key like 'pa_%' and split_part(key, '.', 1) in (select id from payment_attempts where subject_id = ?)`,
    [s.checkout_id],
  );
  expect(captures).toBe(1);
  expect(await ordersOfCheckout(s.checkout_id)).toBe(1);
});

describe('a session past its expiry (a merchant of its own: the test clock moves)', () => {
  /** A new merchant's bandages checkout, then its clock moved a second past the session's 24 hours. */
  async function expiredSession() {
    const merchant = await newMerchant(t, 'Expiry');
    await createProducts(merchant.api, catalog);
    const s = await openCheckout(merchant.api, [['BAND', 'Bandages', 499, 1]]);
    const clock = await merchant.api.post<{ now: string }>('/api/v2/test-helpers/advance-clock', {
      seconds: 24 * 3600 + 1,
    });
    expect(clock.status).toBe(200);
    expect(new Date(clock.body.now).getTime()).toBeGreaterThan(new Date(s.expires_at).getTime());
    return { api: merchant.api, s };
  }

  test('is marked expired by the clock sweep', async () => {
    const { api: merchantApi, s } = await expiredSession();
    const row = await db().execute<{ status: string }[]>(`select status from checkout_sessions where id = ?`, [
      s.checkout_id,
    ]);
    expect(row[0].status).toBe('expired');
    expect(
      (await merchantApi.get<Envelope<CheckoutResource>>(`/api/v2/checkout/${s.checkout_id}`)).body.data.status,
    ).toBe('expired');
  });

  test('cannot be paid (400 invalid_state)', async () => {
    const { api: merchantApi, s } = await expiredSession();
    const res = await payCheckout(merchantApi, s.checkout_id, { card: cards.visa });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_state');
  });
});

test.each([
  ['advance-clock', '/api/v2/test-helpers/advance-clock', { seconds: 10 }],
  ['checkout pay', '/api/v2/test-helpers/checkout/cs_x/pay', { card: cards.visa }],
])('refuses the %s test helper to a live key with 403 test_mode_only', async (_name, path, body) => {
  const live = client(t.url, keys.live_api_key);
  const res = await live.post(path, body);
  expect(res.status).toBe(403);
  expect(res.body.error.code).toBe('test_mode_only');
});

test('a capture failing after both holds succeeded refunds the part captured, releases the other and records a failed order', async () => {
  const calls: string[] = [];
  const real = simulatedProcessor(t.orm.em.fork());
  let captures = 0;
  const flaky: PaymentProcessor = Object.assign(Object.create(real) as PaymentProcessor, {
    capture: async (id: string, key: string) => {
      calls.push(`capture ${id.slice(0, 6)}`);
      return ++captures === 2
        ? { ok: false as const, code: 'processing_error', message: 'down' }
        : real.capture(id, key);
    },
    refund: async (id: string, amount: number, key: string) => {
      calls.push(`refund ${amount}`);
      return real.refund(id, amount, key);
    },
    void: () => {
      calls.push('void');
      return Promise.resolve();
    },
  });
  const previous = useTestModeProcessor(flaky);
  try {
    const s = await openSplitCheckout();
    const res = await payCheckout(api, s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.visa });
    expect(res.status).toBe(402);
    expect(res.body.error.details).toMatchObject({ decline_code: 'processing_error', payment_method: 'card' });
    expect(calls).toEqual(['capture auth_h', 'capture auth_c', 'refund 2000']);
    const order = (await api.get<OrderResource>(`/api/v2/orders/${res.body.error.details.order_id}`)).body;
    expect(order).toMatchObject({ status: 'failed', payment_status: 'failed', payments: [] });
    expect((await api.get<Envelope<CheckoutResource>>(`/api/v2/checkout/${s.checkout_id}`)).body.data.status).toBe(
      'open',
    );
  } finally {
    useTestModeProcessor(previous);
  }
});

describe('payment journal', () => {
  test('journals every paid or declined attempt and settles it with its order', async () => {
    const s = await openSplitCheckout();
    const declined = await payCheckout(api, s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.declined });
    const paid = await payCheckout(api, s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.visa });
    const attempts = await db().execute<PaymentAttemptRow[]>(
      `select id, status, order_id, steps from payment_attempts where subject_id = ? order by created_at`,
      [s.checkout_id],
    );
    expect(attempts.map((a) => [a.status, a.order_id])).toEqual([
      ['failed', declined.body.error.details.order_id],
      ['succeeded', paid.body.id],
    ]);
    expect(attempts[1].steps).toEqual([
      {
        slot: 'hsa_fsa_card',
        payment_method: 'hsa_fsa_card',
        amount: 2000,
        authorization_id: expect.any(String),
        capture_id: expect.any(String),
      },
      {
        slot: 'card',
        payment_method: 'card',
        amount: 1000,
        authorization_id: expect.any(String),
        capture_id: expect.any(String),
      },
    ]);
    // The processor's own books hold exactly the calls journaled under the attempts' keys.
    const ledger = await db().execute<{ key: string; operation: string; ok: boolean; reference: string | null }[]>(
      `select key, operation, ok, reference from processor_ledger where key like ? or key like ? order by created_at, key`,
      [`${attempts[0].id}.%`, `${attempts[1].id}.%`],
    );
    expect(ledger.map((l) => `${l.key.slice(l.key.indexOf('.') + 1)} ${l.operation} ${l.ok}`)).toEqual([
      '0.authorize authorize true',
      '1.authorize authorize false',
      '0.void void true',
      '0.authorize authorize true',
      '1.authorize authorize true',
      '0.capture capture true',
      '1.capture capture true',
    ]);
    const capturedReferences = ledger
      .filter((l) => l.operation === 'capture')
      .map((l) => l.reference)
      .sort();
    expect(capturedReferences).toEqual(attempts[1].steps.map((st) => st.capture_id).sort());
  });

  describe('an attempt whose order never commits (the connection breaks after the second capture)', () => {
    /**
     * A processor that captures, then loses the answer of the second capture (the journal never
     * sees that capture id); it records the refunds and voids the reversal makes.
     */
    function crashingProcessor() {
      const real = simulatedProcessor(t.orm.em.fork());
      const calls: string[] = [];
      let captures = 0;
      const processor: PaymentProcessor = Object.assign(Object.create(real) as PaymentProcessor, {
        capture: async (id: string, key: string) => {
          const done = await real.capture(id, key);
          if (++captures === 2) throw new Error('connection reset by the processor');
          return done;
        },
        refund: async (id: string, amount: number, key: string) => {
          calls.push(`refund ${amount}`);
          return real.refund(id, amount, key);
        },
        void: async (id: string, key: string) => {
          calls.push('void');
          return real.void(id, key);
        },
      });
      return { processor, calls };
    }

    /** Pays a split checkout through the crashing processor; returns the checkout, the answers of that pay and of a second one while the attempt is open, and the attempt. */
    async function crashMidPayment() {
      const crashing = crashingProcessor();
      const previous = useTestModeProcessor(crashing.processor);
      try {
        const s = await openSplitCheckout();
        const both = { hsa_fsa_card: cards.hsa, card: cards.visa };
        const first = await payCheckout(api, s.checkout_id, both);
        const again = await payCheckout(api, s.checkout_id, both);
        const [attempt] = await db().execute<PaymentAttemptRow[]>(
          `select id, status, steps from payment_attempts where subject_id = ?`,
          [s.checkout_id],
        );
        return { checkoutId: s.checkout_id, first, again, attempt, crashing };
      } finally {
        useTestModeProcessor(previous);
      }
    }
    const attemptStatus = async (id: string) =>
      (await db().execute<{ status: string }[]>(`select status from payment_attempts where id = ?`, [id]))[0].status;

    test('answers 500 internal_error and refuses another pay while the attempt is open (409 payment_in_progress)', async () => {
      const { first, again } = await crashMidPayment();
      expect(first.status).toBe(500);
      expect(first.body.error.code).toBe('internal_error');
      // Another pay of the same checkout could charge twice.
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('payment_in_progress');
    });

    test('leaves no order and an attempt still calling with its planned steps (holds and captures are found by their keys), though both captures happened', async () => {
      const { checkoutId, attempt } = await crashMidPayment();
      expect(await ordersOfCheckout(checkoutId)).toBe(0);
      expect(attempt.status).toBe('calling');
      // Nothing moved between the cards, so nothing was journaled between the calls: the keys lead reconciliation to both holds and captures.
      expect(attempt.steps.map((st) => [st.amount, Boolean(st.authorization_id), Boolean(st.capture_id)])).toEqual([
        [2000, false, false],
        [1000, false, false],
      ]);
      const holds = await count(
        `select count(*)::int as n from processor_ledger where key like ? and operation = 'authorize' and ok`,
        [`${attempt.id}.%`],
      );
      expect(holds).toBe(2);
      const captures = await count(
        `select count(*)::int as n from processor_ledger where key like ? and operation = 'capture' and ok`,
        [`${attempt.id}.%`],
      );
      expect(captures).toBe(2);
    });

    test('is left alone by the reconciliation sweep while it is recent', async () => {
      const { attempt } = await crashMidPayment();
      await t.app.http.jobs.runDue(new Date());
      expect(await attemptStatus(attempt.id)).toBe('calling');
    });

    test('is reversed by the reconciliation sweep once abandoned, refunding both captures, and the checkout can then be paid', async () => {
      const { checkoutId, attempt, crashing } = await crashMidPayment();
      await db().execute(`update payment_attempts set updated_at = now() - interval '3 minutes' where id = ?`, [
        attempt.id,
      ]);
      const restore = useTestModeProcessor(crashing.processor); // to record the reversal's processor calls
      try {
        await t.app.http.jobs.runDue(new Date());
      } finally {
        useTestModeProcessor(restore);
      }
      expect(await attemptStatus(attempt.id)).toBe('reversed');
      expect(crashing.calls.sort()).toEqual(['refund 1000', 'refund 2000']);
      expect((await payCheckout(api, checkoutId, { hsa_fsa_card: cards.hsa, card: cards.visa })).status).toBe(200);
    });
  });
});
