import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../../src/config/config.js';
import { configureLivePayments } from '../../src/modules/index.js';
import { createMerchant } from '../../src/modules/merchants/merchant.service.js';
import { applyProcessorNotifications } from '../../src/modules/payments/adyen/adyen-notifications.js';
import { reverseAbandonedAttempts } from '../../src/modules/payments/payment-journal.js';
import { setProcessorAccount } from '../../src/modules/processor-accounts/processor-account.service.js';
import { migrate } from '../../src/platform/db/database.js';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/platform/db/embedded-postgres.js';
import { openOrm } from '../../mikro-orm.config.js';
import { startAdyen, type AdyenHarness } from '../helpers/adyen/index.js';
import { adyenAccounting, nothingUnknown } from '../helpers/adyen-ledger.js';
import { ageOpenAttempts, cloneSessions, killDatabase, midBurst } from '../helpers/crash.js';
import { checkoutBody } from '../helpers/fixtures.js';
import { client } from '../helpers/http.js';
import {
  ADYEN_API_KEY,
  ADYEN_HMAC_KEY,
  ADYEN_MERCHANT_ACCOUNT,
  LIVE_SECRETS_KEY,
  adyenCard,
} from '../helpers/live-mode.js';
import { startServiceProcess } from '../helpers/service-process.js';

/**
 * Crash safety of live payments: the service paying through Adyen (the stand-in behind
 * Prism, which lives in this process and survives) is SIGKILLed at random moments of a burst of
 * split payments, PostgreSQL too in one round. Adyen keeps notifying a service that is down, as it
 * does for days, so the restarted service receives what it missed. Afterwards reconciliation and the
 * notifications account for every call Adyen answered: zero unknown processor calls.
 */

const ROUNDS = 4;
const BURST = 60;
const KILL_DATABASE_IN = new Set([2]);
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dataDir: string;
let pgPort: number;
let db: EmbeddedDatabase;
let adyen: AdyenHarness;
let service: ChildProcess | undefined;

const startDatabase = async () => {
  db = await startEmbeddedPostgres({ dataDir, port: pgPort });
};

/**
 * Starts the service in live mode and points Adyen's notifications at it: a notification that
 * failed while the service was down is retried at its new address (as Adyen retries the one
 * address configured for the merchant; the port is new after each restart, the target moves with it).
 */
async function startService(): Promise<string> {
  const started = await startServiceProcess({
    DATABASE_URL: db.url,
    RUN_JOBS: 'false',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '1000000',
    SECRETS_KEY: LIVE_SECRETS_KEY,
    ADYEN_CHECKOUT_URL: adyen.checkoutUrl,
    ADYEN_DISPUTES_URL: adyen.disputesUrl,
  });
  service = started.child;
  adyen.standIn.notifyTo(`${started.url}/processor-notifications/adyen`, { hmacKeyHex: ADYEN_HMAC_KEY });
  return started.url;
}

/** Applies what Adyen notified (the notification sweep) until it has delivered everything and nothing is left to apply (a minute at most). */
async function applyNotifications(orm: MikroORM): Promise<number> {
  let applied = 0;
  const until = Date.now() + 60_000;
  for (let idle = 0; idle < 2 && Date.now() < until;) {
    await adyen.standIn.notifications.idle();
    const n = await applyProcessorNotifications(orm, quiet);
    applied += n;
    const [{ left }] = await orm.em
      .fork()
      .getConnection()
      .execute<{ left: number }[]>(
        `select count(*)::int as left from processor_notifications where applied_at is null`,
      );
    if (n === 0 && left === 0) idle++;
    else if (n === 0) await sleep(500); // a notification waiting for its retry
  }
  return applied;
}

/** The reconciliation sweep, run as if minutes had passed. */
async function reconcile(orm: MikroORM): Promise<number> {
  await ageOpenAttempts(orm);
  return reverseAbandonedAttempts(orm, quiet);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-crash-live-'));
  pgPort = await freePort();
  await startDatabase();
  const orm = await openOrm(db.url, 2);
  await migrate(orm);
  await orm.close();
  // Notifications a dead service misses are retried over ~16 s (Adyen: days).
  adyen = await startAdyen({
    apiKey: ADYEN_API_KEY,
    merchantAccount: ADYEN_MERCHANT_ACCOUNT,
    retryDelaysMs: [200, 500, 1000, 2000, 4000, 8000],
  });
  // Reconciliation and the notification sweep run in this process: it reaches Adyen as the service does.
  configureLivePayments(
    loadConfig({
      SECRETS_KEY: LIVE_SECRETS_KEY,
      ADYEN_CHECKOUT_URL: adyen.checkoutUrl,
      ADYEN_DISPUTES_URL: adyen.disputesUrl,
    }),
  );
}, 120_000);

afterAll(async () => {
  service?.kill('SIGKILL');
  await adyen?.close();
  await db?.stop().catch(() => undefined);
});

test(`${ROUNDS} rounds of a ${BURST}-payment live burst killed at random moments (the database too in one): every call Adyen answered is accounted for`, async () => {
  let orm = await openOrm(db.url, 4);
  const merchant = await createMerchant(orm.em.fork(), 'Live crash');
  await setProcessorAccount(orm.em.fork(), merchant.id, {
    provider: 'adyen',
    merchant_account: ADYEN_MERCHANT_ACCOUNT,
    api_key: ADYEN_API_KEY,
    client_key: 'test_CLIENTKEY1234567890',
    hmac_key: ADYEN_HMAC_KEY,
  });
  let base = await startService();
  const live = () => client(base, merchant.live_api_key);
  await live().post('/api/v2/products', {
    name: 'Digital thermometer',
    price: 2000,
    currency: 'USD',
    merchant_product_id: 'THERM',
  });
  const template = (
    await live().post(
      '/api/v2/checkout',
      checkoutBody([
        ['THERM', 'Thermometer', 2000, 1],
        ['CANDY', 'Candy', 1000, 1],
      ]),
    )
  ).body.data.checkout_id;
  const split = { hsa_fsa: adyenCard('4111110000000013'), card: adyenCard('4111111111111111') };
  // One payment first: Prism's first request is slow, and the burst should not be the one to pay for it.
  const [first] = await cloneSessions(orm, template, 1);
  expect((await live().post(`/api/v2/checkout/${first}/payments`, split)).status).toBe(200);
  let reversed = 0;
  let answered = 0;
  let notified = 0;

  for (let round = 1; round <= ROUNDS; round++) {
    const sessions = await cloneSessions(orm, template, BURST);
    let next = 0;
    let answeredInRound = 0;
    const burst = Promise.all(
      Array.from({ length: 12 }, async () => {
        while (next < sessions.length) {
          const res = await live()
            .post(`/api/v2/checkout/${sessions[next++]}/payments`, split)
            .catch(() => null);
          if (res?.status === 200) {
            answered++;
            answeredInRound++;
          }
        }
      }),
    );
    await midBurst(() => answeredInRound, BURST);
    const killDb = KILL_DATABASE_IN.has(round);
    if (killDb) {
      await orm.close();
      await killDatabase(dataDir);
    }
    service!.kill('SIGKILL');
    await burst;
    if (killDb) {
      await startDatabase();
      orm = await openOrm(db.url, 4);
    }
    // Back up at once (Adyen's retries reach it), then the sweeps: reconciliation, the notifications, reconciliation again.
    base = await startService();
    reversed += await reconcile(orm);
    notified += await applyNotifications(orm);
    reversed += await reconcile(orm);
    notified += await applyNotifications(orm);
  }

  try {
    const { problems, counts, paidOrders, adyenOrders } = await adyenAccounting(orm, adyen.standIn);
    const retried = adyen.standIn.notifications.sent.filter((d) => d.accepted && d.attempt > 1).length;
    console.log(
      `live crash rounds: ${paidOrders} orders paid (${answered} answered before a kill), ${reversed} attempts reversed, ${notified} notifications applied (${retried} accepted on a retry); ` +
        `Adyen authorised ${counts.authorised} payments in ${adyenOrders} orders: ${counts.paid} paid, ${counts.cancelled} cancelled, ${counts.refunded} refunded`,
    );
    expect(problems).toEqual(nothingUnknown);
    expect(adyen.violations()).toEqual([]);
    expect(paidOrders).toBeGreaterThanOrEqual(answered + 1);
    expect(reversed).toBeGreaterThan(0); // the kills did land between an Adyen call and its order
  } finally {
    await orm.close();
  }
}, 300_000);
