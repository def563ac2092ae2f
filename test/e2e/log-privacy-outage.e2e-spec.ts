import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openOrm } from '../../mikro-orm.config.js';
import { createMerchant } from '../../src/modules/merchants/merchant.service.js';
import { migrate } from '../../src/platform/db/database.js';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/platform/db/embedded-postgres.js';
import { address, cards, checkoutBody } from '../helpers/fixtures.js';
import { client } from '../helpers/http.js';
import { stopPostgres } from '../helpers/postgres.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * PostgreSQL stopped and started again under requests that carry customer data: every line the process writes is
 * pino's JSON (no driver or pool printing on its own), and none carries an email, a phone, an
 * address, a hosted page's token or a receipt's signature (SQL that failed is logged without its values).
 */
describe('a database outage', () => {
  let dataDir: string;
  let pgPort: number;
  let db: EmbeddedDatabase | undefined;
  let outage: ServiceProcess | undefined;
  afterAll(async () => {
    if (outage && outage.child.exitCode === null) outage.child.kill('SIGKILL');
    await db?.stop().catch(() => undefined);
  });

  test('writes only JSON log lines, none carrying customer data, tokens or signatures', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-outage-log-'));
    pgPort = await freePort();
    db = await startEmbeddedPostgres({ dataDir, port: pgPort });
    const orm = await openOrm(db.url, 2);
    await migrate(orm);
    const merchant = await createMerchant(orm.em.fork(), 'Outage');
    await orm.close();
    outage = await startServiceProcess(
      { DATABASE_URL: db.url, LOG_LEVEL: 'info', RATE_LIMIT_MAX: '1000000', DB_POOL_MAX: '4' },
      { capture: true },
    );
    const api = client(outage.url, merchant.test_api_key);

    const email = 'outage.person@example.com';
    const phone = '+15125559876';
    const street = '77 Hidden Lane';
    const customer = { email, first_name: 'Olive', last_name: 'Outage', phone };
    const session = (
      await api.post(
        '/api/v2/checkout',
        checkoutBody([['ITEM', 'Bandages', 900, 1]], {
          customer,
          shipping_info: { ...address, address_line_1: street },
        }),
      )
    ).body.data;
    const page = new URL(session.checkout_url);
    const token = page.searchParams.get('token')!;
    const paid = (await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, { card: cards.visa }))
      .body;
    const receipt = new URL(paid.receipt_url);
    const signature = receipt.searchParams.get('signature')!;

    // Clients keep calling with that data through the outage and after it.
    let running = true;
    const calls = Array.from({ length: 4 }, async (_, n) => {
      for (let i = 0; running; i++) {
        await Promise.allSettled([
          api.post('/api/v2/customers', { ...customer, email: `${n}.${i}.${email}` }),
          api.post(
            '/api/v2/checkout',
            checkoutBody([['ITEM', 'Bandages', 900, 1]], {
              customer: { ...customer, email: `${n}.${i}.${email}` },
              shipping_info: { ...address, address_line_1: street },
            }),
          ),
          api.get(`/api/v2/customers?email=${encodeURIComponent(email)}`),
          api.get(`/api/v2/orders?customer_email=${encodeURIComponent(email)}`),
          fetch(`${outage!.url}${page.pathname}${page.search}`),
          fetch(`${outage!.url}${receipt.pathname}${receipt.search}`),
        ]);
      }
    });
    await sleep(1000);
    await stopPostgres(dataDir, 'fast');
    await sleep(3000);
    db = await startEmbeddedPostgres({ dataDir, port: pgPort });
    await sleep(4000);
    running = false;
    await Promise.all(calls);
    await sleep(300); // let the child flush its log lines
    const output = outage.output();

    expect(output).toContain('"statusCode":503'); // the outage was seen…
    for (const needle of [email, encodeURIComponent(email), phone, street, token, signature])
      expect(output).not.toContain(needle); // …without the data
    const lines = output.split('\n').filter((l) => l.trim() !== '');
    const notJson = lines.filter((l) => {
      try {
        const entry = JSON.parse(l) as { level?: unknown; time?: unknown };
        return typeof entry.level !== 'number' || typeof entry.time !== 'number';
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
  }, 120_000);
});
