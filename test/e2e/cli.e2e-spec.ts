import { execFileSync } from 'node:child_process';
import { client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('npm run cli -- merchant create --name NAME prints the merchant and keys as one JSON object', async () => {
  const stdout = execFileSync('npm', ['run', '-s', 'cli', '--', 'merchant', 'create', '--name', 'Acme Pharmacy'], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const created = JSON.parse(stdout);
  expect(Object.keys(created).sort()).toEqual(['id', 'live_api_key', 'name', 'test_api_key', 'webhook_secret']);
  expect(created).toMatchObject({
    id: expect.stringMatching(/^mer_/),
    name: 'Acme Pharmacy',
    test_api_key: expect.stringMatching(/^glm_test_/),
    live_api_key: expect.stringMatching(/^glm_live_/),
    webhook_secret: expect.stringMatching(/^whsec_/),
  });

  const res = await client(t.url, created.test_api_key).post('/api/v2/products', {
    name: 'Bandages',
    price: 399,
    currency: 'USD',
  });
  expect(res.status).toBe(201);
}, 120_000);

test('a missing --name is refused with usage on stderr and a non-zero exit', () => {
  expect(() => execFileSync('npm', ['run', '-s', 'cli', '--', 'merchant', 'create'], { stdio: 'pipe' })).toThrow(
    /usage/,
  );
}, 120_000);

test("user invite prints a link on the service's PUBLIC_URL, not the command's own default", async () => {
  const service = await startTestApp({ PUBLIC_URL: 'https://shop.example.test' });
  const merchant = await service.merchant('Invites');
  const { PUBLIC_URL: _unset, ...env } = process.env;
  const stdout = execFileSync(
    process.execPath,
    [
      'dist/src/cli/cli.js',
      'user',
      'invite',
      '--merchant',
      merchant.id,
      '--email',
      'new.member@example.com',
      '--role',
      'support',
    ],
    {
      encoding: 'utf8',
      env: { ...env, DATABASE_URL: process.env.DATABASE_URL },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await service.close();
  expect(JSON.parse(stdout).setup_url).toMatch(/^https:\/\/shop\.example\.test\/console\/setup\?token=/);
}, 120_000);
