import { eventRetentionSweep, webhookDeliverySweep } from '../../src/modules/webhooks/webhook.jobs.js';
import { processorNotificationRetentionSweep } from '../../src/modules/payments/payment.jobs.js';
import { consoleSessionSweep } from '../../src/modules/team/team.jobs.js';
import type { Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * Retention (issue 26): tables that grow with traffic are bounded. Events (with their deliveries)
 * older than EVENT_RETENTION_DAYS go unless a delivery is still pending; applied processor
 * notifications older than PROCESSOR_NOTIFICATION_RETENTION_DAYS go; expired console sessions go.
 */

let t: TestApp;
let api: Client;
let merchantId: string;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.orm.em.getConnection().execute<T[]>(text, params);

beforeAll(async () => {
  const started = await startWithMerchant('Retention');
  t = started.t;
  api = started.api;
  merchantId = started.keys.id;
});
afterAll(() => t.close());

test('events past 30 days go with their deliveries; one still being delivered stays; recent ones stay', async () => {
  expect((await api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['*'] })).status).toBe(201);
  const old = [];
  for (const name of ['Old gauze', 'Old bandage']) old.push((await api.post('/api/v2/products', { name, price: 100, currency: 'USD' })).body.id);
  await webhookDeliverySweep.run(t.orm, new Date(), quiet); // dispatched: a delivery each, pending after a refused attempt
  const events = await sql<{ id: string }>(`select id from events where merchant_id = ? order by created_at`, [merchantId]);
  expect(events.length).toBeGreaterThanOrEqual(2);
  await sql(`update events set created_at = now() - interval '40 days' where merchant_id = ?`, [merchantId]);
  const [stillPending] = await sql<{ id: string }>(`select event_id as id from webhook_deliveries where merchant_id = ? order by created_at limit 1`, [merchantId]);
  await sql(`update webhook_deliveries set status = 'dead_letter' where merchant_id = ? and event_id <> ?`, [merchantId, stillPending.id]);
  await sql(`update webhook_deliveries set status = 'pending' where event_id = ?`, [stillPending.id]);
  await api.post('/api/v2/products', { name: 'New thermometer', price: 100, currency: 'USD' });
  await webhookDeliverySweep.run(t.orm, new Date(), quiet);

  await eventRetentionSweep.run(t.orm, new Date(), quiet);
  const left = await sql<{ id: string; old: boolean }>(`select id, created_at < now() - interval '30 days' as old from events where merchant_id = ?`, [merchantId]);
  expect(left.filter((e) => e.old).map((e) => e.id)).toEqual([stillPending.id]);
  expect(left.filter((e) => !e.old).length).toBeGreaterThanOrEqual(1);
  const [{ orphans }] = await sql<{ orphans: number }>(`select count(*)::int as orphans from webhook_deliveries d where not exists (select 1 from events e where e.id = d.event_id)`);
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
  expect((await sql<{ id: string }>(`select id from processor_notifications where id like 'pn_%' order by id`)).map((r) => r.id)).toEqual(['pn_old_unapplied', 'pn_recent']);
});

test('expired console sessions go', async () => {
  await sql(`insert into console_sessions (sid, data, expires_at) values ('expired', '{}'::jsonb, now() - interval '1 minute'), ('current', '{}'::jsonb, now() + interval '1 hour')`);
  await consoleSessionSweep.run(t.orm, new Date(), quiet);
  expect((await sql<{ sid: string }>(`select sid from console_sessions where sid in ('expired', 'current')`)).map((r) => r.sid)).toEqual(['current']);
});
