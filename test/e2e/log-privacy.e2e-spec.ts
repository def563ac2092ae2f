import { cards, checkoutBody } from '../helpers/fixtures.js';
import { client } from '../helpers/http.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * The request log never carries personal data or usable links: customer emails in query strings
 * and the signatures of signed receipt URLs are redacted (the path and the other parameters stay).
 * Through a database outage: log-privacy-outage.e2e-spec.ts (soak tier).
 */
let t: TestApp;
let key: string;
let service: ServiceProcess | undefined;
beforeAll(async () => {
  let keys;
  ({ t, keys } = await startWithMerchant('Quiet logs'));
  key = keys.test_api_key;
});
afterAll(async () => {
  if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
  await t.close();
});

test('query-string emails and receipt signatures are not logged; the requests are', async () => {
  service = await startServiceProcess(
    { RUN_JOBS: 'false', LOG_LEVEL: 'info', RATE_LIMIT_MAX: '100000' },
    { capture: true },
  );
  const base = service.url;
  const api = client(base, key);

  const email = 'private.person@example.com';
  const session = (
    await api.post(
      '/api/v2/checkout',
      checkoutBody([['ITEM', 'Bandages', 900, 1]], { customer: { email, first_name: 'Pat', last_name: 'Private' } }),
    )
  ).body.data;
  const order = (await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, { card: cards.visa })).body;
  const listed = await api.get(`/api/v2/orders?customer_email=${encodeURIComponent(email)}&limit=5`);
  expect(listed.body.data).toHaveLength(1);
  expect((await api.get(`/api/v2/customers?email=${encodeURIComponent(email)}`)).status).toBe(200);
  expect((await api.get(`/api/v2/payment-links?customer_email=${email}`)).status).toBe(200);
  const receipt = new URL(order.receipt_url);
  const signature = receipt.searchParams.get('signature')!;
  expect((await fetch(`${base}${receipt.pathname}${receipt.search}`)).status).toBe(200);
  await new Promise((r) => setTimeout(r, 300)); // let the child flush its log lines
  const output = service.output();

  expect(output).toContain('customer_email=[redacted]'); // the requests were logged…
  expect(output).toContain('limit=5');
  expect(output).toContain(`/receipts/${order.id}.pdf`);
  for (const needle of [email, encodeURIComponent(email), signature]) expect(output).not.toContain(needle); // …without their values
  // Each request's lines carry its id, the one its answer's X-Request-Id names.
  const requestId = listed.headers.get('x-request-id');
  const lines = output.split('\n').filter((l) => l.includes(`"reqId":"${requestId}"`));
  expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['incoming request', 'request completed']);
}, 60_000);
