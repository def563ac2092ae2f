import { eventRetentionSweep, webhookDeliverySweep } from '../../src/modules/webhooks/webhook.jobs.js';
import {
  paymentRecordsRetentionSweep,
  processorNotificationRetentionSweep,
} from '../../src/modules/payments/payment.jobs.js';
import { consoleSessionSweep } from '../../src/modules/team/team.jobs.js';
import { recordTestEvent } from '../helpers/events.js';
import { client, type Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * Retention: tables that grow with traffic are bounded. Events (with their deliveries)
 * older than EVENT_RETENTION_DAYS go unless a delivery is still pending; applied processor
 * notifications older than PROCESSOR_NOTIFICATION_RETENTION_DAYS go; failed and reversed payment
 * attempts and the processors' call logs (but for the payments' own authorisations) go after their
 * days; expired console sessions go. Age is always real time, never a test clock's.
 */

let t: TestApp;
let api: Client;
let merchantId: string;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.orm.em.getConnection().execute<T[]>(text, params);

beforeAll(async () => {
  const started = await startWithMerchant('Retention');
  t = started.t;
  api = started.api;
  merchantId = started.keys.id;
});
afterAll(() => t.close());

test('events past 30 days go with their deliveries; one still being delivered stays; recent ones stay', async () => {
  expect((await api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['*'] })).status).toBe(
    201,
  );
  const old = [];
  for (const name of ['Old gauze', 'Old bandage'])
    old.push((await api.post('/api/v2/products', { name, price: 100, currency: 'USD' })).body.id);
  await webhookDeliverySweep.run(t.orm, new Date(), quiet); // dispatched: a delivery each, pending after a refused attempt
  const events = await sql<{ id: string }>(`select id from events where merchant_id = ? order by created_at`, [
    merchantId,
  ]);
  expect(events.length).toBeGreaterThanOrEqual(2);
  await sql(
    `update events set created_at = now() - interval '40 days', dispatched_at = now() - interval '40 days' where merchant_id = ?`,
    [merchantId],
  );
  const [stillPending] = await sql<{ id: string }>(
    `select event_id as id from webhook_deliveries where merchant_id = ? order by created_at limit 1`,
    [merchantId],
  );
  await sql(`update webhook_deliveries set status = 'dead_letter' where merchant_id = ? and event_id <> ?`, [
    merchantId,
    stillPending.id,
  ]);
  await sql(`update webhook_deliveries set status = 'pending' where event_id = ?`, [stillPending.id]);
  await api.post('/api/v2/products', { name: 'New thermometer', price: 100, currency: 'USD' });
  await webhookDeliverySweep.run(t.orm, new Date(), quiet);

  await eventRetentionSweep.run(t.orm, new Date(), quiet);
  const left = await sql<{ id: string; old: boolean }>(
    `select id, created_at < now() - interval '30 days' as old from events where merchant_id = ?`,
    [merchantId],
  );
  expect(left.filter((e) => e.old).map((e) => e.id)).toEqual([stillPending.id]);
  expect(left.filter((e) => !e.old).length).toBeGreaterThanOrEqual(1);
  const [{ orphans }] = await sql<{ orphans: number }>(
    `select count(*)::int as orphans from webhook_deliveries d where not exists (select 1 from events e where e.id = d.event_id)`,
  );
  expect(orphans).toBe(0);
  // reads go on as before
  expect((await api.get('/api/v2/events?limit=10')).status).toBe(200);
});

test('applied processor notifications past their retention go; unapplied ones stay whatever their age', async () => {
  const insert = (id: string, days: number, applied: boolean) =>
    sql(
      `insert into processor_notifications (id, merchant_id, provider, psp_reference, event_code, success, event_date, item, received_at, applied_at)
       values (?, ?, 'adyen', ?, 'AUTHORISATION', true, now(), '{}'::jsonb, now() - make_interval(days => ?), ${applied ? 'now()' : 'null'})`,
      [id, merchantId, id, days],
    );
  await insert('pn_old_applied', 800, true);
  await insert('pn_old_unapplied', 800, false);
  await insert('pn_recent', 10, true);
  await processorNotificationRetentionSweep.run(t.orm, new Date(), quiet);
  expect(
    (await sql<{ id: string }>(`select id from processor_notifications where id like 'pn_%' order by id`)).map(
      (r) => r.id,
    ),
  ).toEqual(['pn_old_unapplied', 'pn_recent']);
});

test('expired console sessions go', async () => {
  await sql(
    `insert into console_sessions (sid, data, expires_at) values ('expired', '{}'::jsonb, now() - interval '1 minute'), ('current', '{}'::jsonb, now() + interval '1 hour')`,
  );
  await consoleSessionSweep.run(t.orm, new Date(), quiet);
  expect(
    (await sql<{ sid: string }>(`select sid from console_sessions where sid in ('expired', 'current')`)).map(
      (r) => r.sid,
    ),
  ).toEqual(['current']);
});

test('a test-mode event dated years ahead by its test clock goes once 30 days of real time have passed', async () => {
  const ahead = await t.merchant('Clock far ahead');
  expect(
    (await client(t.url, ahead.test_api_key).post('/api/v2/test-helpers/advance-clock', { seconds: 3480 * 86_400 }))
      .status,
  ).toBe(200);
  const [{ offset }] = await sql<{ offset: string }>(
    `select test_clock_offset_ms as offset from merchants where id = ?`,
    [ahead.id],
  );
  const oldId = await recordTestEvent(
    t,
    ahead.id,
    'order.completed',
    { id: 'ord_old' },
    { clockOffsetMs: Number(offset) },
  );
  const recentId = await recordTestEvent(
    t,
    ahead.id,
    'order.completed',
    { id: 'ord_recent' },
    { clockOffsetMs: Number(offset) },
  );
  await webhookDeliverySweep.run(t.orm, new Date(), quiet); // dispatched (no endpoint: no delivery)
  // The first was recorded (and dispatched) 40 real days ago; both carry the clock's date, years ahead.
  await sql(`update events set dispatched_at = now() - interval '40 days' where id = ?`, [oldId]);
  expect(
    (
      await sql<{ ahead: boolean }>(
        `select bool_and(created_at > now() + interval '3000 days') as ahead from events where merchant_id = ?`,
        [ahead.id],
      )
    )[0].ahead,
  ).toBe(true);
  await eventRetentionSweep.run(t.orm, new Date(), quiet);
  expect(
    (await sql<{ id: string }>(`select id from events where merchant_id = ?`, [ahead.id])).map((e) => e.id),
  ).toEqual([recentId]);
});

test('failed and reversed payment attempts past their retention go; succeeded, open and recent ones stay', async () => {
  const insert = (id: string, status: string, days: number) =>
    sql(
      `insert into payment_attempts (id, merchant_id, livemode, subject_id, status, steps, created_at, updated_at)
       values (?, ?, false, ?, ?, '[]'::jsonb, now() - make_interval(days => ?), now() - make_interval(days => ?))`,
      [id, merchantId, `cs_${id}`, status, days, days],
    );
  await insert('pa_old_failed', 'failed', 100);
  await insert('pa_old_reversed', 'reversed', 100);
  await insert('pa_old_succeeded', 'succeeded', 100);
  await insert('pa_old_calling', 'calling', 100);
  await insert('pa_recent_failed', 'failed', 10);
  await paymentRecordsRetentionSweep.run(t.orm, new Date(), quiet);
  expect(
    (
      await sql<{ id: string }>(
        `select id from payment_attempts where merchant_id = ? and (id like 'pa_old_%' or id like 'pa_recent_%') order by id`,
        [merchantId],
      )
    ).map((r) => r.id),
  ).toEqual(['pa_old_calling', 'pa_old_succeeded', 'pa_recent_failed']);
});

test('processor call logs past their retention go, but for the successful authorisations and charges captures and refunds read', async () => {
  const call = (key: string, operation: string, ok: boolean, days: number) =>
    sql(
      `insert into processor_calls (key, merchant_id, operation, ok, psp_reference, result, created_at, updated_at)
       values (?, ?, ?, ?, ?, '{}'::jsonb, now() - make_interval(days => ?), now() - make_interval(days => ?))`,
      [key, merchantId, operation, ok, `psp_${key}`, days, days],
    );
  await call('pc_old_authorize', 'authorize', true, 400);
  await call('pc_old_charge', 'charge', true, 400);
  await call('pc_old_declined', 'authorize', false, 400);
  await call('pc_old_capture', 'capture', true, 400);
  await call('pc_old_refund', 'refund', true, 400);
  await call('pc_recent_capture', 'capture', true, 10);
  const ledger = (key: string, days: number) =>
    sql(
      `insert into processor_ledger (key, operation, ok, result, created_at) values (?, 'capture', true, '{}'::jsonb, now() - make_interval(days => ?))`,
      [key, days],
    );
  await ledger('pl_old', 400);
  await ledger('pl_recent', 10);
  await paymentRecordsRetentionSweep.run(t.orm, new Date(), quiet);
  expect(
    (await sql<{ key: string }>(`select key from processor_calls where key like 'pc_%' order by key`)).map(
      (r) => r.key,
    ),
  ).toEqual(['pc_old_authorize', 'pc_old_charge', 'pc_recent_capture']);
  expect(
    (await sql<{ key: string }>(`select key from processor_ledger where key like 'pl_%' order by key`)).map(
      (r) => r.key,
    ),
  ).toEqual(['pl_recent']);
});
