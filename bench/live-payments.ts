/**
 * `npm run bench` (part 4): the checkout pay flow in live mode, through the Adyen adapter, against
 * the test-mode flow through the simulated processor, on one service.
 *
 * Starts the built service with `ADYEN_CHECKOUT_URL` pointing at the Adyen stand-in of the tests
 * (`test/helpers/adyen`, in this process, sending its signed notifications back to the service),
 * creates a merchant and its Adyen configuration with the CLI, then alternates rounds of the same
 * flow in each mode: create a split checkout, pay it with `POST /api/v2/checkout/{id}/payments`
 * (an HSA/FSA card and a card). Prints flows/s and the service's CPU ms per flow of each mode, and
 * the live/test ratio of CPU per flow (the adapter may cost at most 20% more).
 *
 * Env: BENCH_ROUNDS (5), BENCH_SECONDS (5 per run), BENCH_CONNECTIONS (20), BENCH_CPU_PROF
 * (directory: profile the service with --cpu-prof), BENCH_MODES (`test,live`).
 */
import { execFileSync } from 'node:child_process';
import { startAdyenStandIn } from '../test/helpers/adyen/stand-in.js';
import { cpuMs, formatTable, sqlCount, startService } from './common.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const MODES = (process.env.BENCH_MODES ?? 'test,live').split(',') as Mode[];
const SECRETS_KEY = 'b'.repeat(64);
const API_KEY = 'AQE_bench_api_key_0001';
const MERCHANT_ACCOUNT = 'BenchPharmacyECOM';
const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';

type Mode = 'test' | 'live';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n: number, digits = 0) => n.toFixed(digits);

/** What each mode's page posts: the contract's test cards, or Adyen Web's payment_method_data (Adyen's test values). */
const adyenCard = (number: string) => ({
  payment_method_data: {
    type: 'scheme',
    encryptedCardNumber: `test_${number}`,
    encryptedExpiryMonth: 'test_03',
    encryptedExpiryYear: 'test_2030',
    encryptedSecurityCode: 'test_737',
  },
});
const payBodies: Record<Mode, string> = {
  test: JSON.stringify({
    hsa_fsa: { number: '4111110000000013', exp_month: 12, exp_year: 2030, cvc: '123' },
    card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' },
  }),
  live: JSON.stringify({ hsa_fsa: adyenCard('4111110000000013'), card: adyenCard('4111111111111111') }),
};

function checkoutBody(i: number): string {
  return JSON.stringify({
    reference_id: `live_bench_${i}_${Math.random().toString(36).slice(2, 8)}`,
    customer: { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', phone: '+15125550100' },
    line_items: [
      { product_id: 'THERM', name: 'Digital thermometer', price: 1999, quantity: 1, currency: 'USD' },
      { product_id: 'MUG', name: 'Coffee mug', price: 1250, quantity: 1, currency: 'USD' },
    ],
    shipping_info: { address_line_1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    success_url: 'https://shop.example.com/thanks',
    failure_url: 'https://shop.example.com/cart',
  });
}

/** `clients` concurrent shoppers for `seconds`: flows/s, the service's CPU ms per flow, p50 of the pay step. */
async function flows(base: string, key: string, mode: Mode, pid: number, seconds: number, clients: number) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  let done = 0;
  let n = 0;
  const failures = new Map<string, number>();
  const pay: number[] = [];
  const sqlBefore = await sqlCount(base);
  const before = cpuMs(pid);
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const created = (await (
          await fetch(`${base}/api/v2/checkout`, { method: 'POST', headers, body: checkoutBody(n++) })
        ).json()) as { data?: { checkout_id: string } };
        if (!created.data) {
          failures.set('create', (failures.get('create') ?? 0) + 1);
          continue;
        }
        const t0 = performance.now();
        const paid = await fetch(`${base}/api/v2/checkout/${created.data.checkout_id}/payments`, {
          method: 'POST',
          headers,
          body: payBodies[mode],
        });
        const text = await paid.text();
        if (paid.status === 200) {
          done++;
          pay.push(performance.now() - t0);
        } else {
          const what = `pay ${paid.status} ${/"code":"([a-z_]+)"/.exec(text)?.[1] ?? ''}`;
          failures.set(what, (failures.get(what) ?? 0) + 1);
        }
      }
    }),
  );
  const after = cpuMs(pid);
  const statements = (await sqlCount(base)) - sqlBefore;
  return {
    sqlPerFlow: statements / Math.max(done, 1),
    perSecond: done / seconds,
    cpuPerFlow: (after.process - before.process) / Math.max(done, 1),
    payP50: median(pay),
    failed: [...failures].map(([k, v]) => `${k} x${v}`).join(', '),
  };
}

async function main(): Promise<void> {
  const adyen = await startAdyenStandIn({
    apiKey: API_KEY,
    merchantAccount: MERCHANT_ACCOUNT,
    retryDelaysMs: [200, 1000, 5000],
  });
  const cpuProf = process.env.BENCH_CPU_PROF;
  const service = await startService(
    { SECRETS_KEY, ADYEN_CHECKOUT_URL: adyen.checkoutUrl },
    cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [],
  );
  try {
    const cli = (args: string[]) =>
      execFileSync(process.execPath, ['dist/src/cli/cli.js', ...args], {
        env: { ...process.env, DATABASE_URL: service.databaseUrl, SECRETS_KEY, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
    const merchant = JSON.parse(cli(['merchant', 'create', '--name', 'Live Bench Pharmacy'])) as {
      id: string;
      test_api_key: string;
      live_api_key: string;
    };
    cli([
      'processor',
      'set',
      '--merchant',
      merchant.id,
      '--provider',
      'adyen',
      '--merchant-account',
      MERCHANT_ACCOUNT,
      '--api-key',
      API_KEY,
      '--client-key',
      'test_BENCHCLIENTKEY',
      '--hmac-key',
      HMAC_KEY,
    ]);
    if (!process.env.BENCH_NO_NOTIFICATIONS)
      adyen.notifyTo(`${service.base}/processor-notifications/adyen`, { hmacKeyHex: HMAC_KEY });
    const keys: Record<Mode, string> = { test: merchant.test_api_key, live: merchant.live_api_key };
    for (const mode of ['test', 'live'] as const) {
      for (const [id, name, price] of [
        ['THERM', 'Digital thermometer', 1999],
        ['MUG', 'Coffee mug', 1250],
      ] as const) {
        const res = await fetch(`${service.base}/api/v2/products`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keys[mode]}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name, price, currency: 'USD', merchant_product_id: id }),
        });
        if (res.status !== 201) throw new Error(`product ${id} (${mode}): ${res.status} ${await res.text()}`);
      }
      await flows(service.base, keys[mode], mode, service.pid, 1, 4); // warm-up
    }

    const runs: Record<Mode, Awaited<ReturnType<typeof flows>>[]> = { test: [], live: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate which mode goes first, so drift on the machine falls on both.
      for (const mode of round % 2 ? MODES : [...MODES].reverse()) {
        const f = await flows(service.base, keys[mode], mode, service.pid, DURATION, CONNECTIONS);
        runs[mode].push(f);
        process.stdout.write(
          `round ${round}  pay flow ${mode.padEnd(4)} (${CONNECTIONS} clients)  ${fmt(f.perSecond, 1)} flows/s  CPU/flow ${fmt(f.cpuPerFlow, 1)} ms  SQL/flow ${fmt(f.sqlPerFlow, 1)}  p50 pay ${fmt(f.payP50)} ms${f.failed ? `  failed ${f.failed}` : ''}\n`,
        );
      }
    }
    if (!process.env.BENCH_NO_NOTIFICATIONS) await adyen.notifications.idle();
    const cpu = (mode: Mode) => median(runs[mode].map((r) => r.cpuPerFlow));
    // Each round's live run over the same round's test run: drift of the machine between rounds
    // (other work on its two cores) falls on both halves of a pair, so the pairs' median is the figure.
    const pairs = runs.live
      .map((r, i) => r.cpuPerFlow / (runs.test[i]?.cpuPerFlow ?? NaN))
      .filter((x) => Number.isFinite(x));
    const ratio = median(pairs);
    const rows = MODES.map((mode) => [
      mode === 'test' ? 'test mode (simulated processor)' : 'live mode (Adyen adapter, stand-in)',
      fmt(median(runs[mode].map((r) => r.perSecond)), 1),
      fmt(cpu(mode), 1),
      fmt(median(runs[mode].map((r) => r.payP50))),
      fmt(median(runs[mode].map((r) => r.sqlPerFlow)), 1),
    ]);
    process.stdout.write(
      `\n${formatTable(['checkout create + POST /payments (split)', 'flows/s', 'service CPU ms/flow', 'p50 pay ms', 'SQL/flow'], rows)}\n`,
    );
    process.stdout.write(`live / test CPU per flow, round by round: ${pairs.map((x) => fmt(x, 2)).join(' ')}\n`);
    process.stdout.write(
      `live / test CPU per flow (median of the rounds): ${fmt(ratio, 2)} (target <= 1.20: ${ratio <= 1.2 ? 'met' : 'NOT met'})\n`,
    );
  } finally {
    await service.stop();
    await adyen.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
