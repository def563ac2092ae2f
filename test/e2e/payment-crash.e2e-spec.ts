import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMerchant } from '../../src/modules/merchants/merchant.service.js';
import { reverseAbandonedAttempts } from '../../src/modules/payments/payment-journal.js';
import { migrate } from '../../src/platform/db/database.js';
import { openOrm } from '../../mikro-orm.config.js';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/platform/db/embedded-postgres.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { client } from '../helpers/http.js';
import { startServiceProcess } from '../helpers/service-process.js';
import { ageOpenAttempts, cloneSessions, killDatabase as killPostgres, midBurst } from '../helpers/crash.js';
import { ledgerAccounting, nothingUnaccounted } from '../helpers/ledger.js';

/**
 * Crash safety of payments: the service is SIGKILLed at random moments of a 300-payment burst,
 * ten times, PostgreSQL too in some rounds. Afterwards every call the (simulated) processor
 * made is accounted for by the service: a capture is either one payment of one completed order
 * with its events, or refunded by reconciliation; a hold is either captured or voided.
 */

const ROUNDS = 10;
const BURST = 300;
const KILL_DATABASE_IN = new Set([3, 6, 9]);
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;

let dataDir: string;
let pgPort: number;
let db: EmbeddedDatabase;
let service: ChildProcess | undefined;

async function startDatabase(): Promise<void> {
  // Durable (fsync and synchronous commit on): a killed PostgreSQL keeps every commit it acknowledged.
  db = await startEmbeddedPostgres({ dataDir, port: pgPort });
}

const killDatabase = () => killPostgres(dataDir);

async function startService(url: string): Promise<string> {
  const started = await startServiceProcess({
    DATABASE_URL: url,
    RUN_JOBS: 'false',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '1000000',
  });
  service = started.child;
  return started.url;
}

/** Ages open attempts past the abandonment threshold and runs reconciliation, as the sweep would two minutes later. */
async function reconcile(url: string): Promise<number> {
  const orm = await openOrm(url, 2);
  try {
    await ageOpenAttempts(orm);
    return await reverseAbandonedAttempts(orm, quiet);
  } finally {
    await orm.close();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-crash-'));
  pgPort = await freePort();
  await startDatabase();
  const orm = await openOrm(db.url, 2);
  await migrate(orm);
  await orm.close();
}, 120_000);

afterAll(async () => {
  service?.kill('SIGKILL');
  await db?.stop().catch(() => undefined);
});

test(`${ROUNDS} rounds of a ${BURST}-payment burst killed at random moments (the database too in some): every processor call is accounted for`, async () => {
  let orm = await openOrm(db.url, 2);
  const merchant = await createMerchant(orm.em.fork(), 'Crash');
  let base = await startService(db.url);
  const api = () => client(base, merchant.test_api_key);
  await api().post('/api/v2/products', {
    name: 'Digital thermometer',
    price: 2000,
    currency: 'USD',
    merchant_product_id: 'THERM',
  });
  const template = (
    await api().post(
      '/api/v2/checkout',
      checkoutBody([
        ['THERM', 'Thermometer', 2000, 1],
        ['CANDY', 'Candy', 1000, 1],
      ]),
    )
  ).body.data.checkout_id;
  let reversed = 0;
  let answered = 0;

  for (let round = 1; round <= ROUNDS; round++) {
    const sessions = await cloneSessions(orm, template, BURST);
    if (round > 1) base = await startService(db.url);
    let next = 0;
    let answeredInRound = 0;
    const burst = Promise.all(
      Array.from({ length: 40 }, async () => {
        while (next < sessions.length) {
          const id = sessions[next++];
          const res = await api()
            .post(`/api/v2/test-helpers/checkout/${id}/pay`, { hsa_fsa_card: cards.hsa, card: cards.visa })
            .catch(() => null);
          if (res?.status === 200) {
            answered++;
            answeredInRound++;
          }
        }
      }),
    );
    await midBurst(() => answeredInRound, BURST);
    if (KILL_DATABASE_IN.has(round)) {
      await orm.close();
      await killDatabase();
    }
    service!.kill('SIGKILL');
    await burst;
    if (KILL_DATABASE_IN.has(round)) {
      await startDatabase();
      orm = await openOrm(db.url, 2);
    }
    reversed += await reconcile(db.url);
  }
  await orm.close();

  orm = await openOrm(db.url, 2);
  try {
    const { problems, paidOrders, captures, holds } = await ledgerAccounting(orm);
    expect(problems).toEqual(nothingUnaccounted);
    expect(paidOrders).toBeGreaterThanOrEqual(answered);
    expect(paidOrders).toBeGreaterThan(0);
    expect(reversed).toBeGreaterThan(0); // the kills did land between a processor call and its order
    console.log(
      `crash rounds: ${paidOrders} orders paid (${answered} answered before a kill), ${reversed} attempts reversed, ${captures} captures and ${holds} holds accounted for`,
    );
  } finally {
    await orm.close();
  }
}, 600_000);
