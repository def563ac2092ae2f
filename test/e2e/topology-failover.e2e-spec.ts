import 'reflect-metadata';
import { openOrm } from '../../mikro-orm.config.js';
import { createMerchant, type CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { client, type ApiResponse } from '../helpers/http.js';
import { describeUnless, pgbouncerMissing, startPgBouncer, type PgBouncer } from '../helpers/pgbouncer.js';
import { replicationMissing, startReplicatedCluster, type ReplicatedCluster } from '../helpers/postgres-cluster.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';

/**
 * A failover under load: a primary and a synchronous streaming standby (`pg_basebackup -R`,
 * Debian's PostgreSQL 15), 2 API processes and a worker through PgBouncer in transaction mode
 * (LISTEN through the same PgBouncer in session mode), 12 clients each opening a checkout and
 * paying it under an Idempotency-Key, retrying a 503 under the same key after its Retry-After.
 * The primary is stopped immediately, the standby promoted, PgBouncer repointed. Every answer
 * that is not a success is a 503 with Retry-After, nothing acknowledged is lost, every payment
 * cut by the failover is paid within 5 s of the promoted standby answering, no process exits,
 * and every process is ready again (its listener hearing) on the new primary.
 */

const CLIENTS = 12;
/**
 * From the primary's stop to the promotion: the time a failover takes to decide (tens of seconds
 * in practice). A payment cut by the stop holds its key and its attempt until their leases lapse,
 * 5 s after their last renewal (at most 5 s after the stop): after an outage of 2 s or more, a
 * retry is paid within 5 s of the database answering; after a much shorter one, within 5 s of the stop.
 */
const OUTAGE_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cluster: ReplicatedCluster;
let bouncer: PgBouncer;
let merchant: CreatedMerchant;
const processes: (ServiceProcess & { name: string; exits: (number | null)[] })[] = [];

interface Answer {
  what: 'checkout' | 'pay';
  at: number;
  status: number;
  retryAfter: string | null;
  body?: unknown;
}

describeUnless(pgbouncerMissing ?? replicationMissing)(
  'failover: the primary stopped under load, the standby promoted, PgBouncer repointed',
  () => {
    beforeAll(async () => {
      cluster = await startReplicatedCluster('commerce');
      // server_login_retry = 1: PgBouncer tries the (repointed) server again within a second, as the README advises.
      bouncer = await startPgBouncer(cluster.primary.port, { server_login_retry: 1 }, { sessionPooled: ['commerce'] });
      const env = {
        DATABASE_URL: bouncer.url('commerce'),
        DATABASE_LISTEN_URL: bouncer.url('commerce_session'),
        LOG_LEVEL: 'error',
        RATE_LIMIT_MAX: '1000000',
        DB_POOL_MAX: '5',
      };
      for (const name of ['api 1', 'api 2', 'worker']) {
        // One after another: the first migrates the new cluster (the others would wait on its lock).
        const started = await startServiceProcess(
          { ...env, RUN_JOBS: String(name === 'worker') },
          { capture: true, probe: '/readyz', name, timeoutMs: 90_000 },
        );
        const p = { ...started, name, exits: [] as (number | null)[] };
        started.child.on('exit', (code) => p.exits.push(code));
        processes.push(p);
      }
      const orm = await openOrm(bouncer.url('commerce'), 2);
      try {
        merchant = await createMerchant(orm.em.fork(), 'Failover');
      } finally {
        await orm.close();
      }
    }, 150_000);

    afterAll(async () => {
      for (const p of processes) p.child.kill('SIGKILL');
      await bouncer?.stop();
      await cluster?.close();
    });

    test('nothing acknowledged is lost, every failure is a 503 with Retry-After, a cut payment retried under its key is paid within 5 s of the database answering, no process exits', async () => {
      const apis = processes.slice(0, 2);
      const answers: Answer[] = [];
      const acknowledged: { id: string; at: number }[] = [];
      const cut: { checkoutId: string; cutAt: number; paidAt?: number }[] = [];
      let running = true;

      const timed = async (what: Answer['what'], call: () => Promise<ApiResponse>): Promise<ApiResponse> => {
        const res = await call().catch((err: Error) => ({
          status: 0,
          headers: new Headers(),
          body: `${err.message} (${(err.cause as Error | undefined)?.message ?? ''})`,
        }));
        const ok = res.status >= 200 && res.status < 300;
        answers.push({
          what,
          at: Date.now(),
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          ...(!ok && res.status !== 503 && { body: res.body as unknown }),
        });
        return res;
      };
      const waitRetryAfter = (res: ApiResponse) => sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);

      const clients = Array.from({ length: CLIENTS }, async (_, i) => {
        while (running) {
          const created = await timed('checkout', () =>
            client(apis[i % 2].url, merchant.test_api_key).post(
              '/api/v2/checkout',
              checkoutBody([['THERM', 'Thermometer', 2000, 1]]),
            ),
          );
          if (created.status !== 201) {
            if (created.status === 503) await waitRetryAfter(created);
            continue;
          }
          const checkoutId = created.body.data.checkout_id as string;
          const cutPayment: (typeof cut)[number] = { checkoutId, cutAt: 0 };
          // Paid on the other process; each retry, under the same key, on the next one.
          for (let attempt = 0; ; attempt++) {
            const api = client(apis[(i + 1 + attempt) % 2].url, merchant.test_api_key);
            const paid = await timed('pay', () =>
              api.post(
                `/api/v2/test-helpers/checkout/${checkoutId}/pay`,
                { card: cards.visa },
                { 'Idempotency-Key': `pay-${checkoutId}` },
              ),
            );
            if (paid.status === 200) {
              acknowledged.push({ id: paid.body.id, at: Date.now() });
              if (cutPayment.cutAt) cutPayment.paidAt = Date.now();
              break;
            }
            if (paid.status !== 503) break; // recorded: the test fails on it
            if (!cutPayment.cutAt) cut.push(Object.assign(cutPayment, { cutAt: Date.now() }));
            if (Date.now() - cutPayment.cutAt > 30_000) break; // never paid: the test fails on it
            await waitRetryAfter(paid);
          }
        }
      });

      await sleep(3000);
      const beforeStop = acknowledged.length;
      const stoppedAt = Date.now();
      await cluster.primary.stop('immediate');
      await sleep(OUTAGE_MS);
      await cluster.standby.promote();
      // The database answers: the promoted standby takes a write.
      while (
        !(await cluster.standby.query('select not pg_is_in_recovery() as primary').then(
          ([r]) => r.primary === true,
          () => false,
        ))
      )
        await sleep(20);
      const answeredAt = Date.now();
      await bouncer.repoint(cluster.standby.port);
      const repointedAt = Date.now();
      await sleep(5000);
      running = false;
      await Promise.all(clients);

      // Every answer that is not a success is a 503 with Retry-After.
      const wrong = answers.filter((a) => (a.status < 200 || a.status >= 300) && !(a.status === 503 && a.retryAfter));
      expect(wrong).toEqual([]);
      const unavailable = answers.filter((a) => a.status === 503);
      expect(unavailable.length).toBeGreaterThan(0);

      // Every payment cut by the failover was paid under its key, within 5 s of the database answering.
      expect(cut.length).toBeGreaterThan(0);
      expect(cut.filter((c) => c.paidAt === undefined)).toEqual([]);
      const paidAfter = cut.map((c) => c.paidAt! - answeredAt);
      expect(paidAfter.filter((ms) => ms > 5000)).toEqual([]);
      const firstSuccess =
        Math.min(...answers.filter((a) => a.status >= 200 && a.status < 300 && a.at >= answeredAt).map((a) => a.at)) -
        answeredAt;

      // Nothing acknowledged is lost: every order is on the promoted standby, and readable through the service.
      const ids = acknowledged.map((a) => a.id);
      const rows = await cluster.standby.query<{ id: string }>(
        `select id from orders where id in (${ids.map((id) => `'${id}'`).join(',')})`,
        'commerce',
      );
      expect(ids.filter((id) => !rows.some((r) => r.id === id))).toEqual([]);
      const api = client(apis[0].url, merchant.test_api_key);
      const unreadable: { id: string; status: number }[] = [];
      for (const id of ids) {
        const { status } = await api.get(`/api/v2/orders/${id}`);
        if (status !== 200) unreadable.push({ id, status });
      }
      expect(unreadable).toEqual([]);

      // No process exited or logged an error (an unexpected one: a database outage is a warning), and each is ready on the new primary, its listener hearing through PgBouncer again.
      expect(processes.map((p) => ({ name: p.name, exits: p.exits }))).toEqual(
        processes.map((p) => ({ name: p.name, exits: [] })),
      );
      expect(
        processes.flatMap((p) =>
          p
            .output()
            .split('\n')
            .filter((line) => /^\{"level":(50|60)/.test(line)),
        ),
      ).toEqual([]);
      for (const p of processes) {
        let ready = await fetch(`${p.url}/readyz`);
        for (let n = 0; ready.status !== 200 && n < 50; n++) {
          await sleep(100);
          ready = await fetch(`${p.url}/readyz`);
        }
        expect({ name: p.name, status: ready.status, body: await ready.json() }).toEqual({
          name: p.name,
          status: 200,
          body: expect.objectContaining({ listener: 'hearing' }),
        });
      }

      console.log(
        `failover: ${answers.length} answers, ${unavailable.length} of them 503; ${acknowledged.length} orders acknowledged (${beforeStop} before the stop); ` +
          `promoted standby answered ${answeredAt - stoppedAt} ms after the stop, PgBouncer repointed ${repointedAt - answeredAt} ms later; ` +
          `first success ${firstSuccess} ms after the database answered; ${cut.length} payments cut, paid ${Math.min(...paidAfter)}–${Math.max(...paidAfter)} ms after it answered`,
      );
    }, 90_000);
  },
);
