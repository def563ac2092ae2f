import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';
import { client } from '../helpers/http.js';
import {
  apiKey,
  hmacKey,
  OTHER_KEY,
  processorCli,
  PROCESSOR_CONFIGURATION_QUERY,
  refusedStart,
  SECRETS_KEY,
  setArgs,
} from '../helpers/processor-cli.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * How the built service starts with and without stored processor keys (CONTRACT "Live mode: Adyen
 * is the card processor"): without any it needs no SECRETS_KEY; with some it refuses to start
 * without the SECRETS_KEY that sealed them, and never prints a key. The `processor` commands
 * themselves: processor-configuration.e2e-spec.ts.
 */
let t: TestApp;
let keys: CreatedMerchant;
const services: ServiceProcess[] = [];

beforeAll(async () => {
  ({ t, keys } = await startWithMerchant('Adyen Pharmacy'));
});
afterAll(async () => {
  for (const s of services) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await t.close();
});

test('without a stored configuration and without SECRETS_KEY the service starts as before; nothing is configured', async () => {
  const service = await startServiceProcess({ SECRETS_KEY: '', RUN_JOBS: 'false', LOG_LEVEL: 'warn' });
  services.push(service);
  const api = client(service.url, keys.test_api_key);
  const rest = await api.get('/api/v2/processor_configuration');
  expect(rest.status).toBe(404);
  expect(rest.body).toEqual({ error: { code: 'not_found', message: expect.stringContaining('processor set') } });
  expect((await api.graphql(PROCESSOR_CONFIGURATION_QUERY)).body.data).toEqual({ processorConfiguration: null });
  service.child.kill('SIGKILL');
}, 90_000);

test('with a configuration stored, the service refuses to start without SECRETS_KEY or with another key, and starts with the right one', async () => {
  expect(processorCli(setArgs(keys.id)).status).toBe(0);

  const missing = await refusedStart({ SECRETS_KEY: '' });
  expect(missing.code).toBe(1);
  expect(missing.output).toMatch(
    /failed to start: .*SECRETS_KEY is not set, but 1 merchant processor configuration\(s\) are stored encrypted with it/,
  );

  const wrong = await refusedStart({ SECRETS_KEY: OTHER_KEY });
  expect(wrong.code).toBe(1);
  expect(wrong.output).toContain(`SECRETS_KEY cannot open the processor configuration of merchant ${keys.id}`);

  const malformed = await refusedStart({ SECRETS_KEY: 'xyz' });
  expect(malformed.code).toBe(1);
  expect(malformed.output).toMatch(/SECRETS_KEY: must be exactly 64 hexadecimal characters/);
  const environment = await refusedStart({ SECRETS_KEY, ADYEN_ENVIRONMENT: 'production' });
  expect(environment.code).toBe(1);
  expect(environment.output).toMatch(/ADYEN_ENVIRONMENT: must be test or live/);
  const liveWithoutKey = await refusedStart({ SECRETS_KEY: '', ADYEN_ENVIRONMENT: 'live' });
  expect(liveWithoutKey.code).toBe(1);
  expect(liveWithoutKey.output).toMatch(/SECRETS_KEY: is required when ADYEN_ENVIRONMENT is live/);
  for (const run of [missing, wrong, malformed, environment, liveWithoutKey])
    expect(run.output).not.toMatch(new RegExp(`${SECRETS_KEY}|${OTHER_KEY}|${apiKey.slice(0, 20)}|${hmacKey}`, 'i'));

  const service = await startServiceProcess({
    SECRETS_KEY,
    ADYEN_ENVIRONMENT: 'live',
    RUN_JOBS: 'false',
    LOG_LEVEL: 'warn',
  });
  services.push(service);
  const rest = await client(service.url, keys.live_api_key).get('/api/v2/processor_configuration');
  expect(rest.status).toBe(200);
  expect(rest.body).toMatchObject({ api_key: '****9Zq7', environment: 'live' });
  service.child.kill('SIGKILL');
}, 180_000);
