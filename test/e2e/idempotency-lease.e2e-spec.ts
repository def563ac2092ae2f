import type { ChildProcess } from 'node:child_process';
import { cards, openCheckout } from '../helpers/fixtures.js';
import { client } from '../helpers/http.js';
import { startServiceProcess } from '../helpers/service-process.js';
import { startWithMerchant, type MerchantClient, type TestApp } from '../helpers/test-app.js';

/**
 * An `Idempotency-Key` claim and a payment attempt live as long as the request that holds them:
 * when the process paying dies mid-payment, a retry under the same key (on another process) takes
 * both over once they lapse, within seconds, instead of answering 409 for a minute or more.
 */

let t: TestApp;
let m: MerchantClient;
let holder: ChildProcess | undefined;

beforeAll(async () => {
  const started = await startWithMerchant('Lease');
  t = started.t;
  m = started;
});

afterAll(async () => {
  holder?.kill('SIGKILL');
  await t.close();
});

/** As if the connection was cut as the order committed: its answer never stored, the claim lapsed. */
const loseAnswer = (key: string) =>
  t.orm.em
    .fork()
    .getConnection()
    .execute(
      `update idempotency_keys set response_status = 0, response_body = null, locked_at = now() - interval '10 seconds' where merchant_id = ? and key = ?`,
      [m.keys.id, key],
    );

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a retry under the key of a payment whose process died mid-payment is paid within seconds, and the dead attempt is reversed', async () => {
  const session = await openCheckout(m.api, [['THERM', 'Thermometer', 2000, 1]]);
  const other = await startServiceProcess({
    DATABASE_URL: process.env.DATABASE_URL!,
    RUN_JOBS: 'false',
    LOG_LEVEL: 'silent',
  });
  holder = other.child;
  const key = `pay-${session.checkout_id}`;
  const pay = (url: string) =>
    client(url, m.keys.test_api_key).post(
      `/api/v2/test-helpers/checkout/${session.checkout_id}/pay`,
      { card: cards.visa },
      { 'Idempotency-Key': key },
    );

  // The processor's books are locked, so the first payment stops mid-way: key claimed, attempt open.
  const db = t.orm.em.fork().getConnection();
  const lock = await db.getKnex().client.acquireConnection();
  try {
    await lock.query('begin');
    await lock.query('lock table processor_ledger in share mode');
    void pay(other.url).catch(() => undefined);
    for (let i = 0; i < 100; i++) {
      const [open] = await db.execute(
        `select count(*)::int as n from payment_attempts where subject_id = ? and status = 'calling'`,
        [session.checkout_id],
      );
      if (open.n === 1) break;
      await sleep(100);
    }
    holder.kill('SIGKILL');
    await new Promise((r) => holder!.once('exit', r));
  } finally {
    await lock.query('rollback');
    await db.getKnex().client.releaseConnection(lock);
  }

  const retriedAt = Date.now();
  let retry = await pay(t.url);
  while (retry.status === 409 && Date.now() - retriedAt < 10_000) retry = await pay(t.url);
  expect({ status: retry.status, code: retry.body?.error?.code }).toEqual({ status: 200, code: undefined });
  const attempts = await db.execute<{ status: string }[]>(
    `select status from payment_attempts where subject_id = ? order by created_at`,
    [session.checkout_id],
  );
  expect(attempts.map((a) => a.status)).toEqual(['reversed', 'succeeded']);
  // And the key now replays that order.
  const replay = await pay(t.url);
  expect({ status: replay.status, replayed: replay.headers.get('idempotent-replayed'), id: replay.body.id }).toEqual({
    status: 200,
    replayed: 'true',
    id: retry.body.id,
  });
}, 120_000);

test('a retry under the key of a payment whose order committed but whose answer was lost (a failover cut the connection) gets that order, not "already paid"', async () => {
  const session = await openCheckout(m.api, [['THERM', 'Thermometer', 2000, 1]]);
  const key = `pay-${session.checkout_id}`;
  const pay = (k: string) =>
    m.api.post(
      `/api/v2/test-helpers/checkout/${session.checkout_id}/pay`,
      { card: cards.visa },
      { 'Idempotency-Key': k },
    );
  const first = await pay(key);
  expect(first.status).toBe(200);
  // As if the connection was cut as the order committed: its answer never stored, the claim lapsed.
  await loseAnswer(key);
  const retry = await pay(key);
  expect({ status: retry.status, id: retry.body.id, replayed: retry.headers.get('idempotent-replayed') }).toEqual({
    status: 200,
    id: first.body.id,
    replayed: null,
  });
  expect((await pay(key)).headers.get('idempotent-replayed')).toBe('true');
  // Another request (another key) finds the checkout paid.
  const other = await pay(`other-${session.checkout_id}`);
  expect({ status: other.status, code: other.body.error?.code }).toEqual({ status: 400, code: 'invalid_state' });
});

test('a payment link paid under a key whose answer was lost: the retry under that key gets its order, another key "already paid"', async () => {
  const link = (
    await m.api.post('/api/v2/payment-links', {
      amount: 2000,
      description: 'Digital thermometer',
      currency: 'USD',
      customer: { email: 'pat@example.com', first_name: 'Pat', last_name: 'Lee' },
    })
  ).body;
  expect(link.id).toMatch(/^plink_/);
  const key = `pay-${link.id}`;
  const pay = (k: string) =>
    m.api.post(`/api/v2/test-helpers/payment-links/${link.id}/pay`, { card: cards.visa }, { 'Idempotency-Key': k });
  const first = await pay(key);
  expect(first.status).toBe(200);
  await loseAnswer(key);
  const retry = await pay(key);
  expect({ status: retry.status, id: retry.body.id, replayed: retry.headers.get('idempotent-replayed') }).toEqual({
    status: 200,
    id: first.body.id,
    replayed: null,
  });
  const other = await pay(`other-${link.id}`);
  expect({ status: other.status, code: other.body.error?.code }).toEqual({ status: 400, code: 'invalid_state' });
  expect(
    (await m.api.get(`/api/v2/orders?limit=100`)).body.data.filter(
      (o: { payment_link_id: string }) => o.payment_link_id === link.id,
    ),
  ).toHaveLength(1);
});
