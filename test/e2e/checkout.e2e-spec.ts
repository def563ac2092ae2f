import { simulatedProcessor, useTestModeProcessor } from '../../src/modules/payments/processor-registry.js';
import { checkoutBody, cards } from '../helpers/fixtures.js';
import { client, type FieldError } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: ReturnType<typeof client>;
let keys: Awaited<ReturnType<TestApp['merchant']>>;

beforeAll(async () => {
  ({ t, keys, api } = await startWithMerchant());
  for (const [ref, name, price] of [
    ['THERM', 'Digital thermometer', 1999],
    ['BAND', 'Adhesive bandages', 499],
    ['VIT', 'Daily multivitamin', 1299],
    ['CANDY', 'Chocolate candy bar', 250],
  ] as const) {
    const res = await api.post('/api/v2/products', { name, price, currency: 'USD', merchant_product_id: ref });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

const db = () => t.orm.em.fork().getConnection();

/** A payment_attempts row (the columns the journal tests select). */
interface PaymentAttemptRow {
  id: string;
  status: string;
  order_id: string | null;
  steps: { slot: string; payment_method: string; amount: number; authorization_id: string | null; capture_id: string | null }[];
}

describe('POST /api/v2/checkout', () => {
  test('an all-eligible cart is type eligible; the envelope carries the session', async () => {
    const res = await api.post(
      '/api/v2/checkout',
      checkoutBody([
        ['THERM', 'Thermometer', 1999, 1],
        ['BAND', 'Bandages', 499, 2],
      ]),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: expect.any(String), metadata: { request_id: expect.stringMatching(/^req_/) } });
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
    expect(new Date(s.expires_at).getTime() - new Date(s.created_at).getTime()).toBe(24 * 3600 * 1000);
    expect(s.line_items.map((l: { hsa_fsa_eligible: boolean }) => l.hsa_fsa_eligible)).toEqual([true, true]);
  });

  test('a mixed cart is split; shipping goes to the regular part; unmatched items are regular', async () => {
    const res = await api.post(
      '/api/v2/checkout',
      checkoutBody(
        [
          ['THERM', 'Thermometer', 2000, 1],
          ['CANDY', 'Candy', 1000, 1],
          ['NOPE', 'Mystery', 500, 1],
        ],
        { shipping: 700, tax: 0, discount: 0 },
      ),
    );
    expect(res.body.data).toMatchObject({ type: 'split', amounts: { subtotal: 3500, hsa_amount: 2000, regular_amount: 2200, total: 4200 } });
    const regular = await api.post('/api/v2/checkout', checkoutBody([['NOPE', 'Mystery', 500, 2]]));
    expect(regular.body.data).toMatchObject({ type: 'regular', amounts: { hsa_amount: 0, regular_amount: 1000 } });
  });

  test('metadata.webhook_url follows the webhook endpoint URL rule of the mode', async () => {
    const bad = await api.post('/api/v2/checkout', checkoutBody([['BAND', 'Bandages', 499, 1]], { metadata: { webhook_url: 'http://example.com/hook' } }));
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', param: 'metadata.webhook_url' });
    const local = await api.post('/api/v2/checkout', checkoutBody([['BAND', 'Bandages', 499, 1]], { metadata: { webhook_url: 'http://127.0.0.1:9/hook' } }));
    expect(local.status).toBe(201);
  });

  test('missing fields are 400 bad_request and invalid values 422 validation_error, every field listed', async () => {
    const missing = await api.post('/api/v2/checkout', { reference_id: 'x', line_items: [{ product_id: 'A', name: 'A', price: 100, quantity: 1 }] });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('bad_request');
    expect(missing.body.error.details.map((d: FieldError) => d.field).sort()).toEqual(['customer', 'failure_url', 'line_items.0.currency', 'shipping_info', 'success_url']);

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
    expect(invalid.body.error.details.map((d: FieldError) => d.field).sort()).toEqual(
      ['billing_info.address_line_1', 'billing_info.country', 'customer.email', 'line_items', 'line_items.0.price', 'line_items.0.quantity', 'success_url'].sort(),
    );
  });
});

describe('paying a checkout', () => {
  const pay = (id: string, body: unknown) => api.post(`/api/v2/test-helpers/checkout/${id}/pay`, body);

  test('split payment captures both cards and creates one complete order with events', async () => {
    const s = (
      await api.post(
        '/api/v2/checkout',
        checkoutBody(
          [
            ['THERM', 'Thermometer', 2000, 1],
            ['CANDY', 'Candy', 1000, 1],
          ],
          { shipping: 500, metadata: { webhook_url: 'http://127.0.0.1:9/hook' } },
        ),
      )
    ).body.data;
    const res = await pay(s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.visa });
    expect(res.status).toBe(200);
    const order = res.body;
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
      customer: { email: 'Jane.Doe@example.com', shipping_address: { city: 'Austin' }, billing_address: { city: 'Austin' } },
      payment: { payment_method: 'hsa_fsa_card', last4: '0013', brand: 'visa', amount: 2000 },
    });
    expect(order.payments.map((p: { payment_method: string; amount: number }) => [p.payment_method, p.amount])).toEqual([
      ['hsa_fsa_card', 2000],
      ['card', 1500],
    ]);
    expect(order.status_history.map((h: { status: string }) => h.status)).toEqual(['pending', 'processing', 'completed']);
    expect(order.line_items[0]).toMatchObject({ id: expect.any(String), product_id: expect.any(Number), name: 'Thermometer', quantity: 1, price: 2000, hsa_fsa_eligible: true, is_recurring: false });
    expect(order.receipt_url).toMatch(/\/receipts\/ord_.*signature=/);
    const events = await db().execute<{ type: string; data: Record<string, unknown>; webhook_url: string | null }[]>(
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

    const status = await api.get(`/api/v2/checkout/${s.checkout_id}`);
    expect(status.body.data).toMatchObject({ status: 'paid', order_id: order.id, order: { id: order.id, status: 'completed' } });
  });

  test('no card number is ever stored', async () => {
    const rows = await db().execute(
      `select (select string_agg(t::text, '') from payments t) || (select string_agg(o::text, '') from orders o) || (select string_agg(e::text, '') from events e) as dump`,
    );
    for (const c of Object.values(cards)) expect(rows[0].dump ?? '').not.toContain(c.number);
  });

  test('the second card declining captures nothing, records a failed order, and the session stays payable', async () => {
    const s = (
      await api.post(
        '/api/v2/checkout',
        checkoutBody([
          ['THERM', 'Thermometer', 2000, 1],
          ['CANDY', 'Candy', 1000, 1],
        ]),
      )
    ).body.data;
    const res = await pay(s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.declined });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'card_declined', param: 'card', details: { decline_code: 'card_declined', payment_method: 'card', order_id: expect.stringMatching(/^ord_/) } });
    const failed = await api.get(`/api/v2/orders/${res.body.error.details.order_id}`);
    expect(failed.body).toMatchObject({ status: 'failed', payment_status: 'failed', payments: [], receipt_url: null, failure_reason: 'card: card_declined' });
    const captured = await db().execute(`select count(*)::int as n from payments where order_id in (select id from orders where checkout_id = ?)`, [s.checkout_id]);
    expect(captured[0].n).toBe(0);
    const ev = await db().execute<{ type: string }[]>(`select type from events where data->>'id' = ?`, [failed.body.id]);
    expect(ev.map((e) => e.type)).toEqual(['order.failed']);
    // The customer can try again with another card.
    expect((await pay(s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.mastercard })).status).toBe(200);
  });

  test('HSA/FSA card rules: only the eligible amount, never a regular card in its place', async () => {
    const split = (
      await api.post(
        '/api/v2/checkout',
        checkoutBody([
          ['THERM', 'Thermometer', 2000, 1],
          ['CANDY', 'Candy', 1000, 1],
        ]),
      )
    ).body.data;
    const onlyHsa = await pay(split.checkout_id, { hsa_fsa_card: cards.hsa });
    expect(onlyHsa.status).toBe(422);
    expect(onlyHsa.body.error.param).toBe('card');
    const wrongSlot = await pay(split.checkout_id, { hsa_fsa_card: cards.visa, card: cards.visa });
    expect(wrongSlot.body.error).toMatchObject({ code: 'invalid_payment_method', param: 'hsa_fsa_card' });
    const hsaAsCard = await pay(split.checkout_id, { card: cards.hsa });
    expect(hsaAsCard.body.error).toMatchObject({ code: 'invalid_payment_method', param: 'card' });
    const luhn = await pay(split.checkout_id, { card: { ...cards.visa, number: '4242424242424241' } });
    expect(luhn.status).toBe(422);
    expect(luhn.body.error.details[0].field).toBe('card.number');
    // A regular card alone may pay everything.
    const regularOnly = await pay(split.checkout_id, { card: cards.visa });
    expect(regularOnly.status).toBe(200);
    expect(regularOnly.body.payments).toEqual([expect.objectContaining({ payment_method: 'card', amount: 3000 })]);

    const eligible = (await api.post('/api/v2/checkout', checkoutBody([['BAND', 'Bandages', 499, 1]]))).body.data;
    const hsaOnly = await pay(eligible.checkout_id, { hsa_fsa_card: cards.hsaMastercard });
    expect(hsaOnly.status).toBe(200);
    expect(hsaOnly.body.payment).toMatchObject({ payment_method: 'hsa_fsa_card', brand: 'mastercard', amount: 499 });
  });

  test('items needing a letter of medical necessity: the approval is required for the HSA/FSA card and recorded', async () => {
    const s = (await api.post('/api/v2/checkout', checkoutBody([['VIT', 'Multivitamin', 1299, 1]]))).body.data;
    expect(s.requires_lmn).toBe(true);
    const without = await pay(s.checkout_id, { hsa_fsa_card: cards.hsa });
    expect(without.status).toBe(422);
    expect(without.body.error.param).toBe('lmn');
    const lmn = { condition: 'Vitamin D deficiency', recommended_by_provider: true, provider_name: 'Dr. Smith', attestation: true };
    const paid = await pay(s.checkout_id, { hsa_fsa_card: cards.hsa, lmn });
    expect(paid.status).toBe(200);
    expect(paid.body.lmn).toMatchObject({ status: 'approved', condition: 'Vitamin D deficiency', items: ['VIT'] });
  });

  test('paying twice: the second is refused and there is one order', async () => {
    const s = (await api.post('/api/v2/checkout', checkoutBody([['BAND', 'Bandages', 499, 1]]))).body.data;
    expect((await pay(s.checkout_id, { card: cards.visa })).status).toBe(200);
    const again = await pay(s.checkout_id, { card: cards.visa });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_state');
    const orders = await db().execute(`select count(*)::int as n from orders where checkout_id = ?`, [s.checkout_id]);
    expect(orders[0].n).toBe(1);
  });

  test('concurrent payment attempts on one session make exactly one order', async () => {
    const s = (await api.post('/api/v2/checkout', checkoutBody([['BAND', 'Bandages', 499, 1]]))).body.data;
    const results = await Promise.all(Array.from({ length: 10 }, () => pay(s.checkout_id, { card: cards.visa })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    // The others find it paid, or another attempt still open: never a second charge.
    const refused = results.filter((r) => (r.status === 400 && r.body.error.code === 'invalid_state') || (r.status === 409 && r.body.error.code === 'payment_in_progress'));
    expect(refused).toHaveLength(9);
    const [ledger] = await db().execute(
      `select count(*)::int as n from processor_ledger where operation = 'capture' and key like 'pa_%' and split_part(key, '.', 1) in (select id from payment_attempts where subject_id = ?)`,
      [s.checkout_id],
    );
    expect(ledger.n).toBe(1);
    const orders = await db().execute(`select count(*)::int as n from orders where checkout_id = ?`, [s.checkout_id]);
    expect(orders[0].n).toBe(1);
  });

  test('an expired session cannot be paid; the clock sweep marks it expired', async () => {
    const s = (await api.post('/api/v2/checkout', checkoutBody([['BAND', 'Bandages', 499, 1]]))).body.data;
    const clock = await api.post('/api/v2/test-helpers/advance-clock', { seconds: 24 * 3600 + 1 });
    expect(clock.status).toBe(200);
    expect(new Date(clock.body.now).getTime()).toBeGreaterThan(new Date(s.expires_at).getTime());
    const row = await db().execute(`select status from checkout_sessions where id = ?`, [s.checkout_id]);
    expect(row[0].status).toBe('expired');
    const res = await pay(s.checkout_id, { card: cards.visa });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_state');
    expect((await api.get(`/api/v2/checkout/${s.checkout_id}`)).body.data.status).toBe('expired');
  });

  test('test helpers refuse live keys with 403 test_mode_only', async () => {
    const live = client(t.url, keys.live_api_key);
    const res = await live.post('/api/v2/test-helpers/advance-clock', { seconds: 10 });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('test_mode_only');
    expect((await live.post('/api/v2/test-helpers/checkout/cs_x/pay', { card: cards.visa })).body.error.code).toBe('test_mode_only');
  });
});

describe('a capture failing after both holds succeeded', () => {
  test('refunds the part already captured, releases the other, records a failed order', async () => {
    const calls: string[] = [];
    const real = simulatedProcessor(t.orm.em.fork());
    let captures = 0;
    const flaky = Object.assign(Object.create(real), {
      capture: async (id: string, key: string) => {
        calls.push(`capture ${id.slice(0, 6)}`);
        return ++captures === 2 ? { ok: false as const, code: 'processing_error', message: 'down' } : real.capture(id, key);
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
      const s = (
        await api.post(
          '/api/v2/checkout',
          checkoutBody([
            ['THERM', 'Thermometer', 2000, 1],
            ['CANDY', 'Candy', 1000, 1],
          ]),
        )
      ).body.data;
      const res = await api.post(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { hsa_fsa_card: cards.hsa, card: cards.visa });
      expect(res.status).toBe(402);
      expect(res.body.error.details).toMatchObject({ decline_code: 'processing_error', payment_method: 'card' });
      expect(calls).toEqual(['capture auth_h', 'capture auth_c', 'refund 2000']);
      const order = (await api.get(`/api/v2/orders/${res.body.error.details.order_id}`)).body;
      expect(order).toMatchObject({ status: 'failed', payment_status: 'failed', payments: [] });
      expect((await api.get(`/api/v2/checkout/${s.checkout_id}`)).body.data.status).toBe('open');
    } finally {
      useTestModeProcessor(previous);
    }
  });
});

describe('payment journal', () => {
  test('every paid or declined attempt is journaled and settled with its order', async () => {
    const s = (
      await api.post(
        '/api/v2/checkout',
        checkoutBody([
          ['THERM', 'Thermometer', 2000, 1],
          ['CANDY', 'Candy', 1000, 1],
        ]),
      )
    ).body.data;
    const declined = await api.post(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { hsa_fsa_card: cards.hsa, card: cards.declined });
    const paid = await api.post(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { hsa_fsa_card: cards.hsa, card: cards.visa });
    const attempts = await db().execute<PaymentAttemptRow[]>(`select id, status, order_id, steps from payment_attempts where subject_id = ? order by created_at`, [s.checkout_id]);
    expect(attempts.map((a) => [a.status, a.order_id])).toEqual([
      ['failed', declined.body.error.details.order_id],
      ['succeeded', paid.body.id],
    ]);
    expect(attempts[1].steps).toEqual([
      { slot: 'hsa_fsa_card', payment_method: 'hsa_fsa_card', amount: 2000, authorization_id: expect.any(String), capture_id: expect.any(String) },
      { slot: 'card', payment_method: 'card', amount: 1000, authorization_id: expect.any(String), capture_id: expect.any(String) },
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
    expect(
      ledger
        .filter((l) => l.operation === 'capture')
        .map((l) => l.reference)
        .sort(),
    ).toEqual(attempts[1].steps.map((st) => st.capture_id).sort());
  });

  test('an attempt whose order never commits (an error mid-payment) is reversed by the reconciliation sweep, even calls whose outcome was never written', async () => {
    const real = simulatedProcessor(t.orm.em.fork());
    const calls: string[] = [];
    let captures = 0;
    const crashing = Object.assign(Object.create(real), {
      capture: async (id: string, key: string) => {
        const done = await real.capture(id, key);
        // The processor captured, then the connection broke before we heard back: the journal never saw this capture id.
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
    const previous = useTestModeProcessor(crashing);
    let checkoutId: string;
    try {
      const s = (
        await api.post(
          '/api/v2/checkout',
          checkoutBody([
            ['THERM', 'Thermometer', 2000, 1],
            ['CANDY', 'Candy', 1000, 1],
          ]),
        )
      ).body.data;
      checkoutId = s.checkout_id;
      const res = await api.post(`/api/v2/test-helpers/checkout/${checkoutId}/pay`, { hsa_fsa_card: cards.hsa, card: cards.visa });
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('internal_error');
      // While the attempt is open, another pay of the same checkout is refused (it could charge twice).
      const again = await api.post(`/api/v2/test-helpers/checkout/${checkoutId}/pay`, { hsa_fsa_card: cards.hsa, card: cards.visa });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('payment_in_progress');
    } finally {
      useTestModeProcessor(previous);
    }
    const [orders] = await db().execute(`select count(*)::int as n from orders where checkout_id = ?`, [checkoutId]);
    expect(orders.n).toBe(0);
    const [attempt] = await db().execute<PaymentAttemptRow[]>(`select id, status, steps from payment_attempts where subject_id = ?`, [checkoutId]);
    expect(attempt.status).toBe('calling');
    // Holds were journaled; neither capture id was (the request died first), yet both captures happened.
    expect(attempt.steps.map((st) => [Boolean(st.authorization_id), Boolean(st.capture_id)])).toEqual([
      [true, false],
      [true, false],
    ]);
    const [ledger] = await db().execute(`select count(*)::int as n from processor_ledger where key like ? and operation = 'capture' and ok`, [`${attempt.id}.%`]);
    expect(ledger.n).toBe(2);

    // Not yet abandoned: left alone.
    await t.app.http.jobs.runDue(new Date());
    expect((await db().execute(`select status from payment_attempts where id = ?`, [attempt.id]))[0].status).toBe('calling');

    await db().execute(`update payment_attempts set updated_at = now() - interval '3 minutes' where id = ?`, [attempt.id]);
    const restore = useTestModeProcessor(crashing); // to record the reversal's processor calls
    try {
      await t.app.http.jobs.runDue(new Date());
    } finally {
      useTestModeProcessor(restore);
    }
    expect((await db().execute(`select status from payment_attempts where id = ?`, [attempt.id]))[0].status).toBe('reversed');
    expect(calls.sort()).toEqual(['refund 1000', 'refund 2000']);
    // The checkout can still be paid.
    expect((await api.post(`/api/v2/test-helpers/checkout/${checkoutId}/pay`, { hsa_fsa_card: cards.hsa, card: cards.visa })).status).toBe(200);
  });
});
