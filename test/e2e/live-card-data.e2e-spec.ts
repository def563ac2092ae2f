import type { MikroORM } from '@mikro-orm/postgresql';
import { submitPathOf } from '../helpers/card-links.js';
import { cards, openCheckout } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { adyenCard, LIVE_SECRETS_KEY, startLiveMode, type LiveMode } from '../helpers/live-mode.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';

/**
 * In live mode no route, log line or table ever holds a full card number (CONTRACT "card
 * data in live mode"). Live flows run through a service process of its own that logs at its most
 * verbose level; afterwards its whole output, every row of every table (the idempotency store
 * included) and every answer it gave are searched for the card numbers the flows used, bare or
 * inside Adyen Web's test values (`test_4111…`): the encrypted fields reach Adyen and nothing else.
 */
const PANS = {
  hsa: '4111110000000054', // the stand-in's HSA/FSA card with a 2000 balance
  visa: '4111111111111111',
  challenged: '4212345678901237', // asks for 3-D Secure
  challengedHsa: '4111110000000062', // an HSA/FSA card asking for 3-D Secure
  waiting: '5555444433331111', // the regular card of a split waiting while the HSA/FSA card's shopper acts
  stored: '5555555555554444',
  raw: cards.visa.number,
};

let live: LiveMode;
let service: ServiceProcess;
let api: Client;
const answers: string[] = [];

beforeAll(async () => {
  live = await startLiveMode([
    ['thermo', 'Digital Thermometer', 1999],
    ['mug', 'Coffee Mug', 1700],
  ]);
  service = await startServiceProcess(
    {
      LOG_LEVEL: 'trace',
      RUN_JOBS: 'false',
      RATE_LIMIT_MAX: '100000',
      SECRETS_KEY: LIVE_SECRETS_KEY,
      ADYEN_CHECKOUT_URL: live.adyen.checkoutUrl,
      ADYEN_DISPUTES_URL: live.adyen.disputesUrl,
    },
    { capture: true, name: 'live service' },
  );
  const plain = client(service.url, live.keys.live_api_key);
  // Every answer is kept to be searched too.
  const keep =
    <A extends unknown[]>(call: (...args: A) => Promise<{ status: number; body: unknown }>) =>
    async (...args: A) => {
      const res = await call(...args);
      answers.push(JSON.stringify(res.body));
      return res;
    };
  api = { ...plain, post: keep(plain.post), get: keep(plain.get) } as Client;
}, 120_000);

afterAll(async () => {
  if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
  await live?.close();
});

const idem = () => ({ 'Idempotency-Key': `card-data-${Math.random().toString(36).slice(2)}` });

async function liveFlows(): Promise<void> {
  // A split checkout: the HSA/FSA card partly authorised, the rest on the regular card.
  const split = await openCheckout(api, [
    ['thermo', 'Digital Thermometer', 1999, 2],
    ['mug', 'Coffee Mug', 1700, 1],
  ]);
  const paid = await api.post(
    `/api/v2/checkout/${split.checkout_id}/payments`,
    { hsa_fsa: adyenCard(PANS.hsa), card: adyenCard(PANS.visa) },
    idem(),
  );
  expect(paid.status).toBe(200);

  // 3-D Secure: the payment waits for the shopper, then /payments/details finishes it.
  const challenged = await openCheckout(api, [['mug', 'Coffee Mug', 1700, 1]]);
  const action = await api.post<{ action: { authorisationToken: string } }>(
    `/api/v2/checkout/${challenged.checkout_id}/payments`,
    { card: adyenCard(PANS.challenged) },
    idem(),
  );
  expect(action.status).toBe(202);
  const threeDSResult = live.adyen.standIn.threeDSResult(action.body.action.authorisationToken, 'Y');
  expect(
    (
      await api.post(
        `/api/v2/checkout/${challenged.checkout_id}/payments/details`,
        { details: { threeDSResult } },
        idem(),
      )
    ).status,
  ).toBe(200);

  // A split whose HSA/FSA card asks for 3-D Secure: the regular card waits, parked, until the shopper acted.
  const parked = await openCheckout(api, [
    ['thermo', 'Digital Thermometer', 1999, 1],
    ['mug', 'Coffee Mug', 1700, 1],
  ]);
  const hsaAction = await api.post<{ action: { authorisationToken: string } }>(
    `/api/v2/checkout/${parked.checkout_id}/payments`,
    { hsa_fsa: adyenCard(PANS.challengedHsa), card: adyenCard(PANS.waiting) },
    idem(),
  );
  expect(hsaAction.status).toBe(202);
  const waitingRow = await live.t.orm.em
    .fork()
    .getConnection()
    .execute<{ state: string }[]>(`select state::text from payment_attempts where subject_id = ?`, [
      parked.checkout_id,
    ]);
  expect(waitingRow[0].state).toMatch(/"sealed"/); // the regular card's encrypted fields, sealed while they wait
  const hsaResult = live.adyen.standIn.threeDSResult(hsaAction.body.action.authorisationToken, 'Y');
  const split3ds = await api.post<{ amounts: { hsa_amount: number; regular_amount: number } }>(
    `/api/v2/checkout/${parked.checkout_id}/payments/details`,
    { details: { threeDSResult: hsaResult } },
    idem(),
  );
  expect(split3ds.status).toBe(200);
  expect(split3ds.body.amounts).toMatchObject({ hsa_amount: 1999, regular_amount: 1700 }); // the sealed card was opened and paid

  // A payment link paid from its hosted page's call (no API key), one card through 3-D Secure.
  const link = (
    await api.post<{ id: string }>(
      '/api/v2/payment-links',
      { amount: 1500, description: 'Consultation', currency: 'USD' },
      idem(),
    )
  ).body;
  const shopper = client(service.url); // a shopper's browser: no API key
  const payer = { email: 'link.payer@example.com', first_name: 'Link', last_name: 'Payer' };
  const linkAction = await shopper.post<{ action: { authorisationToken: string } }>(`/pay/${link.id}/pay`, {
    card: adyenCard(PANS.challenged),
    customer: payer,
  });
  answers.push(JSON.stringify(linkAction.body));
  expect(linkAction.status).toBe(202);
  const linkResult = live.adyen.standIn.threeDSResult(linkAction.body.action.authorisationToken, 'Y');
  const linkPaid = await shopper.post(`/pay/${link.id}/pay/details`, { details: { threeDSResult: linkResult } });
  answers.push(JSON.stringify(linkPaid.body));
  expect(linkPaid.status).toBe(200);
  expect(
    (
      await shopper.post(`/pay/${link.id}/pay`, {
        card: { number: PANS.raw, exp_month: 12, exp_year: 2030, cvc: '123' },
        customer: payer,
      })
    ).status,
  ).toBe(400);

  // A stored card and a subscription charging it.
  const customer = (
    await api.post<{ id: string }>(
      '/api/v2/customers',
      { email: 'card.data@example.com', first_name: 'Card', last_name: 'Data' },
      idem(),
    )
  ).body;
  const pm = await api.post<{ id: string }>(
    `/api/v2/customers/${customer.id}/payment-methods`,
    { card: adyenCard(PANS.stored) },
    idem(),
  );
  expect(pm.status).toBe(201);
  const sub = await api.post(
    '/api/v2/subscriptions',
    {
      customer_id: customer.id,
      payment_method_id: pm.body.id,
      amount_cents: 1500,
      currency: 'USD',
      interval: 'monthly',
    },
    idem(),
  );
  expect(sub.status).toBe(201);

  // A card setup link and a subscription's card-update link, used through their page's submit call.
  const raw = { number: PANS.raw, exp_month: 12, exp_year: 2030, cvc: '123' };
  const submit = async (url: string, body: object) => {
    const res = await shopper.post(submitPathOf(url), body);
    answers.push(JSON.stringify(res.body));
    return res;
  };
  const setup = await api.post<{ url: string }>(
    `/api/v2/customers/${customer.id}/payment-method-setup-links`,
    undefined,
    idem(),
  );
  expect((await submit(setup.body.url, { card: raw })).status).toBe(400);
  expect((await submit(setup.body.url, { card: adyenCard(PANS.visa) })).status).toBe(200);
  const update = await api.post<{ url: string }>(
    `/api/v2/subscriptions/${(sub.body as { id: string }).id}/card-update-link`,
    undefined,
    idem(),
  );
  expect((await submit(update.body.url, { card: adyenCard(PANS.waiting) })).status).toBe(200);

  // A raw card sent with a live key is refused, wherever it is sent.
  const refusedCheckout = await openCheckout(api, [['mug', 'Coffee Mug', 1700, 1]]);
  expect(
    (await api.post(`/api/v2/checkout/${refusedCheckout.checkout_id}/payments`, { card: raw }, idem())).status,
  ).toBe(400);
  expect(
    (
      await api.post(
        `/api/v2/checkout/${refusedCheckout.checkout_id}/payments`,
        { card: { payment_method_data: raw } },
        idem(),
      )
    ).status,
  ).toBe(400); // not Adyen Web's fields
  expect((await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: raw }, idem())).status).toBe(400);
}

/** Every place the service could have kept a value: its whole log, the answers it gave, every row of every table. */
async function everyPlace(): Promise<Map<string, string>> {
  await new Promise((r) => setTimeout(r, 300)); // let the service flush its log lines
  return new Map<string, string>([
    ['log', service.output()],
    ['answers', answers.join('\n')],
    ...(await everyRow(live.t.orm)),
  ]);
}

/** Every row of every table of the service's database, as text. */
async function everyRow(orm: MikroORM): Promise<Map<string, string>> {
  const em = orm.em.fork();
  const tables = await em
    .getConnection()
    .execute<{ schemaname: string; tablename: string }[]>(
      `select schemaname, tablename from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    );
  const rows = new Map<string, string>();
  for (const { schemaname, tablename } of tables) {
    const found = await em
      .getConnection()
      .execute<{ row: string }[]>(`select t::text as row from "${schemaname}"."${tablename}" t`);
    rows.set(`${schemaname}.${tablename}`, found.map((r) => r.row).join('\n'));
  }
  return rows;
}

test('after live payments, 3-D Secure, a stored card, a subscription, card setup and card-update links and refused raw cards, no log line, table or answer holds a card number', async () => {
  await liveFlows();
  const places = await everyPlace();
  expect(places.get('log')).toContain('/payments'); // the requests were logged, at trace level…
  expect(places.get('public.idempotency_keys')).toMatch(/card-data-/); // …the idempotency store holds them…
  expect(places.get('public.processor_calls')).toMatch(/Authorised/); // …and so does the record of every Adyen call
  const leaks: string[] = [];
  for (const [place, text] of places)
    for (const [name, pan] of Object.entries(PANS))
      if (text.includes(pan)) leaks.push(`${place} holds the ${name} card number`);
  expect(leaks).toEqual([]);
}, 120_000);

test("payment_method_data holding a raw card beside Adyen Web's encrypted fields is refused with 400 invalid_request on every pay route, and no log line, table, answer or Adyen call holds it", async () => {
  const pan = '4000020000000000';
  const mixed = {
    payment_method_data: {
      ...adyenCard(PANS.visa).payment_method_data,
      number: pan,
      expiryMonth: '03',
      expiryYear: '2030',
      cvc: '737',
    },
  };
  const checkout = await openCheckout(api, [['mug', 'Coffee Mug', 1700, 1]]);
  const customer = (
    await api.post<{ id: string }>(
      '/api/v2/customers',
      { email: 'mixed.card@example.com', first_name: 'Mixed', last_name: 'Card' },
      idem(),
    )
  ).body;
  const setup = await api.post<{ url: string }>(
    `/api/v2/customers/${customer.id}/payment-method-setup-links`,
    undefined,
    idem(),
  );
  const shopper = client(service.url);
  const refused = [
    await api.post(`/api/v2/checkout/${checkout.checkout_id}/payments`, { card: mixed }, idem()),
    await api.post(`/api/v2/checkout/${checkout.checkout_id}/payments`, { hsa_fsa: mixed }, idem()),
    await api.post(`/api/v2/customers/${customer.id}/payment-methods`, { card: mixed }, idem()),
    await shopper.post(submitPathOf(setup.body.url), { card: mixed }),
  ];
  for (const res of refused) answers.push(JSON.stringify(res.body));
  expect(refused.map((res) => [res.status, (res.body as { error: { code: string; param: string } }).error])).toEqual([
    [400, expect.objectContaining({ code: 'invalid_request', param: 'card.payment_method_data' })],
    [400, expect.objectContaining({ code: 'invalid_request', param: 'hsa_fsa.payment_method_data' })],
    [400, expect.objectContaining({ code: 'invalid_request', param: 'card.payment_method_data' })],
    [400, expect.objectContaining({ code: 'invalid_request', param: 'card.payment_method_data' })],
  ]);
  const places = await everyPlace();
  places.set('Adyen', JSON.stringify(live.adyen.standIn.requests));
  expect([...places].filter(([, text]) => text.includes(pan)).map(([place]) => place)).toEqual([]);
}, 60_000);
