import { execFileSync } from 'node:child_process';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';
import { client } from '../helpers/http.js';
import {
  apiKey,
  clientKey,
  hmacKey,
  OTHER_KEY,
  processorCli,
  processorCliAsync,
  PROCESSOR_CONFIGURATION_QUERY as GQL,
  SECRETS_KEY,
  setArgs,
} from '../helpers/processor-cli.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * A merchant's processor configuration (CONTRACT "Live mode: Adyen is the card processor"):
 * `processor set` stores the keys sealed with SECRETS_KEY and prints them masked; REST and
 * GraphQL read the masked view; the plaintext keys are in no column, log line or output. How the
 * service starts with and without stored keys: processor-start.e2e-spec.ts (soak tier).
 */
let t: TestApp;
let keys: CreatedMerchant;
const services: ServiceProcess[] = [];
/** Everything every `processor` command printed (stdout and stderr). */
let cliOutput = '';

beforeAll(async () => {
  ({ t, keys } = await startWithMerchant('Adyen Pharmacy'));
});
afterAll(async () => {
  for (const s of services) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await t.close();
});

/** `processor …`, its output kept for the last test. */
function cli(args: string[], env?: Record<string, string>) {
  const run = processorCli(args, env);
  cliOutput += run.stdout + run.stderr;
  return run;
}

test('npm run cli -- processor set prints the configuration as JSON with the API and HMAC keys masked to their last 4', async () => {
  const stdout = execFileSync('npm', ['run', '-s', 'cli', '--', 'processor', ...setArgs(keys.id)], {
    encoding: 'utf8',
    env: { ...process.env, SECRETS_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cliOutput += stdout;
  const printed = JSON.parse(stdout);
  expect(printed).toEqual({
    provider: 'adyen',
    merchant_account: 'AdyenPharmacyECOM',
    api_key: '****9Zq7',
    client_key: clientKey,
    hmac_key: '****A056',
    live_url_prefix: null,
    environment: 'test',
    updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
  });

  // Both key modes of the merchant read it, through REST and GraphQL, masked the same way.
  for (const key of [keys.test_api_key, keys.live_api_key]) {
    const api = client(t.url, key);
    const rest = await api.get('/api/v2/processor_configuration');
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(printed);
    const gql = await api.graphql(GQL);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.processorConfiguration).toEqual({
      provider: 'ADYEN',
      merchantAccount: 'AdyenPharmacyECOM',
      apiKey: '****9Zq7',
      clientKey,
      hmacKey: '****A056',
      liveUrlPrefix: null,
      environment: 'TEST',
      updatedAt: printed.updated_at,
    });
  }

  // Another merchant sees none: 404 in the spec's error shape, null in the graph.
  const other = await t.merchant('No Processor Yet');
  const api = client(t.url, other.test_api_key);
  const rest = await api.get('/api/v2/processor_configuration');
  expect(rest.status).toBe(404);
  expect(rest.body.error.code).toBe('not_found');
  expect((await api.graphql(GQL)).body.data.processorConfiguration).toBeNull();
}, 180_000);

test('processor set again replaces the configuration (one row per merchant); processor show prints it', async () => {
  const replaced = cli(
    setArgs(keys.id, {
      'merchant-account': 'AdyenPharmacyNEW',
      'api-key': 'AQEnewkey-xyz-0000-WXYZ',
      'hmac-key': 'ab'.repeat(32),
      'live-url-prefix': '1797a841fbb37ca7-AdyenDemo',
    }),
  );
  expect(replaced.stderr).toBe('');
  expect(replaced.status).toBe(0);
  const view = JSON.parse(replaced.stdout);
  expect(view).toMatchObject({
    merchant_account: 'AdyenPharmacyNEW',
    api_key: '****WXYZ',
    hmac_key: '****abab',
    live_url_prefix: '1797a841fbb37ca7-AdyenDemo',
  });
  const rows = await t.orm.em.getConnection().execute('select merchant_id from processor_accounts');
  expect(rows).toEqual([{ merchant_id: keys.id }]);
  expect((await client(t.url, keys.test_api_key).get('/api/v2/processor_configuration')).body).toEqual(view);

  const shown = cli(['show', '--merchant', keys.id]);
  expect(shown.status).toBe(0);
  expect(JSON.parse(shown.stdout)).toEqual(view);
  const none = cli(['show', '--merchant', 'mer_doesnotexist']);
  expect(none.status).toBe(1);
  expect(none.stderr).toMatch(/has no processor configuration/);

  // Back to the first keys for the tests below.
  expect(cli(setArgs(keys.id)).status).toBe(0);
}, 60_000);

test('invalid input is refused on stderr with exit code 1, naming the field and never echoing a key', async () => {
  const refused: [Record<string, string>, RegExp, Record<string, string>?][] = [
    [{ provider: 'stripe' }, /provider must be one of: adyen/],
    [{ 'merchant-account': '   ' }, /merchant_account must not be empty/],
    [{ 'merchant-account': 'M'.repeat(81) }, /merchant_account must be at most 80 characters/],
    [{ 'api-key': '' }, /api_key must be at least 8 characters/],
    [{ 'client-key': 'pub_V2VsbDEyMzQ1' }, /client_key must start with test_ or live_/],
    [{ 'hmac-key': hmacKey.slice(1) }, /hmac_key must be an even-length hexadecimal string of 32 to 128 characters/],
    [{ 'hmac-key': `${hmacKey.slice(2)}zz` }, /hmac_key must be an even-length hexadecimal/],
    [{ 'hmac-key': 'ab'.repeat(15) }, /hmac_key must be an even-length hexadecimal/],
    [{ 'hmac-key': 'ab'.repeat(65) }, /hmac_key must be an even-length hexadecimal/],
    [{ 'live-url-prefix': 'evil.example/x' }, /live_url_prefix must contain only letters, digits and hyphens/],
    [{}, /client_key must start with live_ when ADYEN_ENVIRONMENT is live/, { SECRETS_KEY, ADYEN_ENVIRONMENT: 'live' }],
    [
      { 'client-key': 'live_V2VsbDEyMzQ1' },
      /live_url_prefix is required when ADYEN_ENVIRONMENT is live/,
      { SECRETS_KEY, ADYEN_ENVIRONMENT: 'live' },
    ],
    [{}, /SECRETS_KEY is not set/, { SECRETS_KEY: '' }],
    [{}, /SECRETS_KEY: must be exactly 64 hexadecimal characters/, { SECRETS_KEY: 'not-a-key' }],
    [{}, /SECRETS_KEY is not the key the stored processor configurations were sealed with/, { SECRETS_KEY: OTHER_KEY }],
    [{ merchant: 'mer_doesnotexist' }, /No such merchant: 'mer_doesnotexist'/],
  ];
  // All at once (none of them may write anything).
  const runs = await Promise.all(refused.map(([over, , env]) => processorCliAsync(setArgs(keys.id, over), env)));
  refused.forEach(([over, message], i) => {
    const run = runs[i];
    cliOutput += run.stdout + run.stderr;
    expect({ over, status: run.status, stdout: run.stdout }).toEqual({ over, status: 1, stdout: '' });
    expect(run.stderr).toMatch(message);
  });
  // A value without its option (it may be a key) is refused without being repeated.
  const stray = cli([...setArgs(keys.id), 'AQEstray-secret-value']);
  expect(stray.status).toBe(1);
  expect(stray.stderr).toMatch(/unexpected argument/);
  expect(stray.stderr).not.toContain('AQEstray-secret-value');
  const missing = cli(['set', '--provider', 'adyen']);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toMatch(/--merchant is required/);
  // Nothing above changed what is stored.
  expect(JSON.parse(cli(['show', '--merchant', keys.id]).stdout)).toMatchObject({
    merchant_account: 'AdyenPharmacyECOM',
    api_key: '****9Zq7',
  });
}, 120_000);

test('the plaintext API key and HMAC key are in no column, no service log line and no command output', async () => {
  const service = await startServiceProcess(
    { SECRETS_KEY, RUN_JOBS: 'false', LOG_LEVEL: 'trace', SQL_DEBUG: 'true' },
    { capture: true },
  );
  services.push(service);
  const api = client(service.url, keys.test_api_key);
  expect((await api.get('/api/v2/processor_configuration')).status).toBe(200);
  expect((await api.graphql(GQL)).body.data.processorConfiguration.apiKey).toBe('****9Zq7');
  await new Promise((r) => setTimeout(r, 300)); // let the child flush its log lines
  const logs = service.output();
  expect(logs).toMatch(/processor_accounts/); // the reads were logged (SQL_DEBUG)…

  const [{ rows }] = await t.orm.em
    .getConnection()
    .execute<{ rows: string }[]>(`select string_agg(p::text, ' ') as rows from processor_accounts p`);
  expect(rows).toContain('AdyenPharmacyECOM');
  expect(rows).toContain(clientKey);
  const hmacBytes = Buffer.from(hmacKey, 'hex');
  for (const [where, text] of [
    ['processor_accounts', rows],
    ['service logs', logs],
    ['CLI output', cliOutput],
  ] as const) {
    for (const secret of [
      apiKey,
      apiKey.slice(0, 24),
      hmacKey,
      hmacKey.toLowerCase(),
      hmacBytes.toString('base64'),
      hmacBytes.toString('base64url'),
      Buffer.from(apiKey).toString('base64url').slice(0, 24),
    ]) {
      expect({ where, found: text.includes(secret) }).toEqual({ where, found: false });
    }
  }
  expect(cliOutput).toContain('****9Zq7'); // …and the commands printed what they may
  service.child.kill('SIGKILL');
}, 120_000);
