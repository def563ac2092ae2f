/** The hosted checkout page's routes over plain HTTP: rendering, states, the pay call, escaping, headers. */
import { escapeHtml } from '../../src/modules/hosted-pages/hosted-page-html.js';
import { checkoutBody, cards } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { inlineCode } from '../helpers/inline-code.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;
let anon: Client;

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  api = client(t.url, (await t.merchant()).test_api_key);
  anon = client(t.url);
  for (const [ref, name, price] of [
    ['THERM', 'Digital thermometer', 1999],
    ['CANDY', 'Chocolate candy bar', 250],
    ['VIT', 'Daily multivitamin', 1299],
  ] as const) {
    expect(
      (await api.post('/api/v2/products', { name, price, currency: 'USD', merchant_product_id: ref })).status,
    ).toBe(201);
  }
});
afterAll(() => t.close());

/** Creates a checkout through the API; returns the session and its page path (with the token). */
async function createCheckout(
  items: [string, string, number, number][],
  extra: Record<string, unknown> = {},
  using = api,
) {
  const res = await using.post('/api/v2/checkout', checkoutBody(items, extra));
  expect(res.status).toBe(201);
  const session = res.body.data;
  const url = new URL(session.checkout_url);
  return { session, path: `${url.pathname}${url.search}`, token: url.searchParams.get('token')! };
}

async function getPage(path: string) {
  const res = await fetch(`${t.url}${path}`);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const payPath = (path: string) => path.replace('?', '/pay?');

describe('GET /checkout/:id (the page)', () => {
  test('a split checkout renders the items, badges, amounts, split and both card sections without an API key', async () => {
    const { session, path } = await createCheckout(
      [
        ['THERM', 'Digital thermometer', 1999, 2],
        ['CANDY', 'Chocolate candy bar', 250, 1],
      ],
      { shipping: 500, tax: 120, discount: 100 },
    );
    expect(session.type).toBe('split');
    const page = await getPage(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const h = page.text;
    expect(h).toMatch(/^<!doctype html>/);
    expect(h).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(h).toContain('<main id="main">');
    expect(h).toContain('Digital thermometer');
    expect(h).toContain('Qty 2 × $19.99');
    expect(h).toContain('$39.98');
    expect(h).toContain('Chocolate candy bar');
    expect(h.match(/class="badge badge-eligible">HSA\/FSA eligible</g)).toHaveLength(1);
    const { amounts } = session;
    const money = (c: number) => `$${(c / 100).toFixed(2)}`;
    for (const [label, value] of [
      ['Subtotal', money(amounts.subtotal)],
      ['Shipping', '$5.00'],
      ['Tax', '$1.20'],
      ['Discount', '−$1.00'],
      ['HSA/FSA eligible', money(amounts.hsa_amount)],
      ['Regular (not eligible)', money(amounts.regular_amount)],
    ]) {
      expect(h).toContain(`<dt>${label}</dt><dd>${value}</dd>`);
    }
    expect(h).toContain(`<dd class="total">${money(amounts.total)}</dd>`);
    expect(h).toContain(`Pay ${money(amounts.total)}`);
    // Card entry: HSA/FSA card for the eligible part, a regular card for the rest, or one card for all.
    expect(h).toMatch(/<fieldset id="hsa_fsa_card" data-label="HSA\/FSA card" >/);
    expect(h).toMatch(/<fieldset id="card" data-label="Regular card" >/);
    expect(h).toContain('id="method-card" name="method" value="card"');
    expect(h).not.toContain('id="lmn"');
    // Every input has a label, card inputs have autocomplete and a numeric keyboard.
    const ids = [...h.matchAll(/<(?:input|textarea) [^>]*id="([^"]+)"/g)].map((m) => m[1]);
    for (const id of ids) expect(h).toContain(`<label for="${id}">`);
    for (const slot of ['card', 'hsa_fsa_card']) {
      expect(h).toMatch(new RegExp(`id="${slot}-number"[^>]*inputmode="numeric" autocomplete="cc-number"`));
      expect(h).toMatch(new RegExp(`id="${slot}-exp_month"[^>]*autocomplete="cc-exp-month"`));
      expect(h).toMatch(new RegExp(`id="${slot}-exp_year"[^>]*autocomplete="cc-exp-year"`));
      expect(h).toMatch(
        new RegExp(`id="${slot}-cvc"[^>]*autocomplete="cc-csc"[^>]*aria-describedby="${slot}-cvc-error"`),
      );
    }
    expect(h).toContain('<div id="form-error" class="error-summary" role="alert"');
    expect(h).toContain(
      `href="${session.failure_url}?checkout_id=${session.checkout_id}">Cancel and return to the store</a>`,
    );
    expect(h).toContain('Test mode:');
  });

  test('a regular checkout offers only the card; an eligible one hides the regular card until chosen', async () => {
    const regular = await getPage((await createCheckout([['CANDY', 'Chocolate candy bar', 250, 2]])).path);
    expect(regular.text).toMatch(/<fieldset id="card" data-label="Card" >/);
    expect(regular.text).not.toContain('id="hsa_fsa_card"');
    expect(regular.text).not.toContain('<fieldset id="method">');
    expect(regular.text).not.toContain('class="badge badge-eligible"');

    const eligible = await getPage((await createCheckout([['THERM', 'Digital thermometer', 1999, 1]])).path);
    expect(eligible.text).toMatch(/<fieldset id="hsa_fsa_card" data-label="HSA\/FSA card" >/);
    expect(eligible.text).toMatch(/<fieldset id="card" data-label="Regular card" hidden disabled>/);
    expect(eligible.text).toContain('One regular card for everything ($19.99)');
  });

  test('an item requiring a letter of medical necessity shows the badge and the questionnaire', async () => {
    const { session, path } = await createCheckout([['VIT', 'Daily multivitamin', 1299, 1]]);
    expect(session.requires_lmn).toBe(true);
    const h = (await getPage(path)).text;
    expect(h).toContain('class="badge badge-lmn">Needs a letter of medical necessity<');
    expect(h).toContain('<fieldset id="lmn" data-label="Letter of medical necessity">');
    expect(h).toContain('data-requires-lmn="true"');
    for (const id of ['lmn-condition', 'lmn-recommended_by_provider', 'lmn-provider_name', 'lmn-attestation'])
      expect(h).toContain(`<label for="${id}">`);
  });

  test('an unknown id, a wrong token and a missing token answer the same friendly 404 page', async () => {
    const { session, token } = await createCheckout([['THERM', 'Digital thermometer', 1999, 1]]);
    for (const path of [
      `/checkout/cs_doesnotexist?token=${token}`,
      `/checkout/${session.checkout_id}?token=${'x'.repeat(32)}`,
      `/checkout/${session.checkout_id}`,
      `/checkout/${session.checkout_id}?token=${token}&token=${token}`,
    ]) {
      const page = await getPage(path);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('<h1 id="notice-title">Checkout not found</h1>');
      expect(page.text).not.toMatch(/"error"|DomainError|at .*\.js|cs_doesnotexist/);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  test('a paid session shows "already paid" with a link to success_url', async () => {
    const { session, path } = await createCheckout([['THERM', 'Digital thermometer', 1999, 1]]);
    const paid = await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, {
      hsa_fsa_card: cards.hsa,
    });
    expect(paid.status).toBe(200);
    const page = await getPage(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('This checkout is already paid');
    expect(page.text).toContain(
      `href="https://shop.example.com/thanks?checkout_id=${session.checkout_id}&amp;order_id=${paid.body.id}"`,
    );
    expect(page.text).not.toContain('<form');
  });

  test('an expired session shows "expired" with a link to failure_url, and cannot be paid', async () => {
    const other = client(t.url, (await t.merchant('Clock Merchant')).test_api_key);
    const { session, path } = await createCheckout([['X1', 'Gift card', 1000, 1]], {}, other);
    expect((await other.post('/api/v2/test-helpers/advance-clock', { seconds: 86401 })).status).toBe(200);
    const page = await getPage(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('This checkout has expired');
    expect(page.text).toContain(`href="https://shop.example.com/cart?checkout_id=${session.checkout_id}"`);
    expect(page.text).not.toContain('<form');
    const pay = await anon.post(payPath(path), { card: cards.visa });
    expect(pay.status).toBe(400);
    expect(pay.body.error).toMatchObject({ code: 'invalid_state', param: 'checkout_id' });
  });

  test('merchant and customer text is escaped: a <script> item name is rendered as text', async () => {
    const { path } = await createCheckout([['EVIL', '<script>alert(1)</script>', 100, 1]], {
      customer: { email: 'x@example.com', first_name: '"><img src=x onerror=alert(1)>', last_name: "O'Brien & Co" },
      failure_url: 'https://shop.example.com/cart?a=1&b="2"',
    });
    const h = (await getPage(path)).text;
    expect(h).toContain('<p class="item-name">&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(h).not.toContain('<script>alert(1)');
    expect(h).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt; O&#39;Brien &amp; Co');
    expect(h).not.toContain('<img src=x');
    expect(h).toMatch(/href="https:\/\/shop\.example\.com\/cart\?a=1&amp;b=%222%22&amp;checkout_id=cs_\w+"/);
    // The only script on the page is ours, a file of our origin.
    expect(h.match(/<script/g)).toHaveLength(1);
    expect(h).toContain('<script type="module" src="/hosted-page/hosted-page.js"></script>');
    expect(escapeHtml(`<a href="x" onclick='y'>&\`</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;',
    );
  });

  test("security headers: a CSP of this origin's files only (no inline script or style, none on the page), no framing, no referrer, no caching", async () => {
    const { session, path } = await createCheckout([['THERM', 'Digital thermometer', 1999, 1]]);
    const link = await api.post('/api/v2/payment-links', { amount: 4200, description: 'Deposit', currency: 'usd' });
    expect(link.status).toBe(201);
    const customer = await api.post('/api/v2/customers', { email: 'csp@example.com', first_name: 'C', last_name: 'S' });
    const setup = await api.post(`/api/v2/customers/${customer.body.id}/payment-method-setup-links`);
    expect(setup.status).toBe(201);
    const pages = {
      checkout: { path, script: 'hosted-page.js' },
      'payment link': { path: new URL(link.body.url as string).pathname, script: 'hosted-page.js' },
      'card setup': {
        path: new URL(setup.body.url as string).pathname + new URL(setup.body.url as string).search,
        script: 'hosted-page.js',
      },
      'not found': { path: `/checkout/${session.checkout_id}`, script: 'token-restore.js' },
    };
    for (const [name, { path: at, script }] of Object.entries(pages)) {
      const page = await getPage(at);
      expect([name, page.status]).toEqual([name, name === 'not found' ? 404 : 200]);
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src https: http: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      );
      expect([name, inlineCode(page.text)]).toEqual([name, []]);
      expect(page.text).toContain('<link rel="stylesheet" href="/hosted-page/hosted-page.css">');
      expect(page.text).toContain(`<script type="module" src="/hosted-page/${script}"></script>`);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    }
    // The check finds inline code where there is some.
    expect(
      inlineCode('<style>p{}</style><p style="x"><b onclick="y"><script>z()</script><script src="/a.js">w()</script>'),
    ).toHaveLength(5);
    expect(
      inlineCode('<script type="application/json" id="c">{"a":1}</script><script type="module" src="/a.js"></script>'),
    ).toEqual([]);
    const openapi = await api.get('/api/v2/openapi.json');
    expect(Object.keys(openapi.body.paths).filter((p) => p.startsWith('/checkout'))).toEqual([]);
  });

  test("the pages' script and stylesheet are served from our origin with their content type, revalidated, never sniffed; no other file", async () => {
    for (const [file, type, part] of [
      ['hosted-page.js', 'text/javascript; charset=utf-8', 'pay-form'],
      ['token-restore.js', 'text/javascript; charset=utf-8', 'page-token:'],
      ['hosted-page.css', 'text/css; charset=utf-8', '.error-summary'],
    ]) {
      const res = await fetch(`${t.url}/hosted-page/${file}`);
      expect([file, res.status, res.headers.get('content-type')]).toEqual([file, 200, type]);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toContain(part);
    }
    for (const file of ['hosted-page.ts', 'other.js', '..%2Fpackage.json'])
      expect((await fetch(`${t.url}/hosted-page/${file}`)).status).toBe(404);
  });
});

describe('POST /checkout/:id/pay (what the page script sends)', () => {
  test('success answers the order id and success_url with checkout_id and order_id', async () => {
    const { session, path } = await createCheckout(
      [
        ['THERM', 'Digital thermometer', 2000, 1],
        ['CANDY', 'Chocolate candy bar', 1000, 1],
      ],
      { success_url: 'https://shop.example.com/thanks?cart=9' },
    );
    const res = await anon.post(payPath(path), { hsa_fsa_card: cards.hsa, card: cards.visa });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      order_id: expect.stringMatching(/^ord_/),
      redirect_url: `https://shop.example.com/thanks?cart=9&checkout_id=${session.checkout_id}&order_id=${res.body.order_id}`,
    });
    const order = await api.get(`/api/v2/orders/${res.body.order_id}`);
    expect(order.body).toMatchObject({
      status: 'completed',
      checkout_id: session.checkout_id,
      payments: [
        { payment_method: 'hsa_fsa_card', amount: 2000 },
        { payment_method: 'card', amount: 1000 },
      ],
    });
    const again = await anon.post(payPath(path), { card: cards.visa });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_state');
  });

  test('a decline answers 402 with the error body and failure_url; nothing is paid and the number is not echoed', async () => {
    const { session, path } = await createCheckout([
      ['THERM', 'Digital thermometer', 2000, 1],
      ['CANDY', 'Chocolate candy bar', 1000, 1],
    ]);
    const res = await anon.post(payPath(path), { hsa_fsa_card: cards.hsa, card: cards.declined });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      error: {
        code: 'card_declined',
        message: expect.stringContaining('declined'),
        param: 'card',
        details: { decline_code: 'card_declined', payment_method: 'card', order_id: expect.stringMatching(/^ord_/) },
      },
      redirect_url: `https://shop.example.com/cart?checkout_id=${session.checkout_id}`,
    });
    expect(JSON.stringify(res.body)).not.toContain(cards.declined.number);
    const status = await api.get(`/api/v2/checkout/${session.checkout_id}`);
    expect(status.body.data.status).toBe('open');
  });

  test('validation errors keep the spec error shape, name the field and never echo the number', async () => {
    const { path } = await createCheckout([
      ['THERM', 'Digital thermometer', 2000, 1],
      ['CANDY', 'Chocolate candy bar', 1000, 1],
    ]);
    const luhn = await anon.post(payPath(path), {
      hsa_fsa_card: cards.hsa,
      card: { ...cards.visa, number: '4242424242424241' },
    });
    expect(luhn.status).toBe(422);
    expect(luhn.body).toEqual({
      error: {
        code: 'validation_error',
        message: expect.any(String),
        param: 'card.number',
        details: [{ field: 'card.number', message: expect.stringContaining('Luhn') }],
      },
    });
    expect(JSON.stringify(luhn.body)).not.toContain('4242424242424241');

    const missing = await anon.post(payPath(path), { hsa_fsa_card: { number: cards.hsa.number }, card: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'card.cvc',
      'card.exp_month',
      'card.exp_year',
      'card.number',
      'hsa_fsa_card.cvc',
      'hsa_fsa_card.exp_month',
      'hsa_fsa_card.exp_year',
    ]);

    const onlyHsa = await anon.post(payPath(path), { hsa_fsa_card: cards.hsa });
    expect(onlyHsa.status).toBe(422);
    expect(onlyHsa.body.error.param).toBe('card');

    const unknown = await anon.post(payPath(path), { card: cards.visa, tip: 100 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([{ field: 'tip', message: 'is not a recognised field' }]);

    const badJson = await anon.post(payPath(path), '{"card":', { 'content-type': 'application/json' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.error.code).toBe('invalid_request');

    // A form posted without the script is refused, not parsed (card numbers never reach a log or the URL).
    const form = await anon.post(payPath(path), `card.number=${cards.visa.number}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    expect(JSON.stringify(form.body)).not.toContain(cards.visa.number);
  });

  test('a wrong token or unknown id is a JSON 404 not_found', async () => {
    const { session, token } = await createCheckout([['THERM', 'Digital thermometer', 1999, 1]]);
    const wrong = await anon.post(`/checkout/${session.checkout_id}/pay?token=${'y'.repeat(32)}`, { card: cards.visa });
    expect(wrong.status).toBe(404);
    expect(wrong.body.error.code).toBe('not_found');
    const unknown = await anon.post(`/checkout/cs_nope/pay?token=${token}`, { card: cards.visa });
    expect(unknown.status).toBe(404);
  });

  test('items needing a letter of medical necessity: the questionnaire is required with the HSA/FSA card and goes to a clinician', async () => {
    const { path } = await createCheckout([['VIT', 'Daily multivitamin', 1299, 1]]);
    const without = await anon.post(payPath(path), { hsa_fsa_card: cards.hsa });
    expect(without.status).toBe(422);
    expect(without.body.error.param).toBe('lmn');
    const unanswered = await anon.post(payPath(path), {
      hsa_fsa_card: cards.hsa,
      lmn: { recommended_by_provider: false, attestation: false },
    });
    expect(unanswered.status).toBe(422);
    expect(unanswered.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'lmn.attestation',
      'lmn.condition',
      'lmn.recommended_by_provider',
    ]);
    const ok = await anon.post(payPath(path), {
      hsa_fsa_card: cards.hsa,
      lmn: { condition: 'Vitamin D deficiency', recommended_by_provider: true, attestation: true },
    });
    expect(ok.status).toBe(200);
    const order = await api.get(`/api/v2/orders/${ok.body.order_id}`);
    expect(order.body).toMatchObject({
      status: 'processing',
      payment_status: 'authorized',
      lmn_review: { status: 'pending' },
      lmn: { items: ['VIT'], letter_id: null },
    });
    const review = await api.get(`/api/v2/lmn-reviews/${order.body.lmn_review.id}`);
    expect(review.body.answers).toMatchObject({ condition: 'Vitamin D deficiency' });
  });
});

test('payment attempts through one link are limited per address (card testing)', async () => {
  const rl = await startTestApp();
  try {
    const m = client(rl.url, (await rl.merchant('Limited pay')).test_api_key);
    const s = (await m.post('/api/v2/checkout', checkoutBody([['X', 'Gift card', 1000, 1]]))).body.data;
    const payPath = new URL(s.checkout_url).pathname + '/pay' + new URL(s.checkout_url).search;
    const statuses: number[] = [];
    // Limits count per fixed one-minute window: keep the 11 attempts inside one.
    if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
    for (let i = 0; i < 11; i++)
      statuses.push(
        (
          await client(rl.url).post(payPath, {
            card: { number: '4000000000000002', exp_month: 12, exp_year: 2030, cvc: '123' },
          })
        ).status,
      );
    expect(statuses.slice(0, 10).every((st) => st === 402)).toBe(true);
    expect(statuses[10]).toBe(429);
  } finally {
    await rl.close();
  }
});
