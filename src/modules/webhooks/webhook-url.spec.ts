import type { LookupAddress } from 'node:dns';
import { HOSTILE_URLS, PUBLIC_URLS, stubDns } from '../../../test/fixtures/hostile-urls.js';
import {
  addressProblem,
  pinnedLookup,
  setWebhookResolver,
  webhookUrlProblem,
  webhookUrlProblemResolved,
} from './webhook-url.js';

beforeEach(() => setWebhookResolver(stubDns()));
afterAll(() => setWebhookResolver());

test.each([
  ['https://hooks.example.com/receive', false],
  ['http://127.0.0.1:4567/hook', false],
  ['http://localhost:3000/hook', false],
  ['http://[::1]:3000/hook', false],
  ['https://10.0.0.5/hook', false],
  ['https://localtest.me/hook', false],
])('%s is accepted in test mode (CONTRACT: local receivers)', async (url, livemode) => {
  expect(await webhookUrlProblemResolved(url, livemode)).toBeNull();
});

test(`${HOSTILE_URLS.length} hostile URLs are all refused in live mode`, async () => {
  expect(HOSTILE_URLS.length).toBeGreaterThanOrEqual(60);
  const accepted = [];
  for (const url of HOSTILE_URLS) {
    if ((await webhookUrlProblemResolved(url.replace('{port}', '4567'), true)) === null) accepted.push(url);
  }
  expect(accepted).toEqual([]);
});

test.each(PUBLIC_URLS)('%s is accepted in live mode', async (url) => {
  expect(await webhookUrlProblemResolved(url, true)).toBeNull();
});

test.each([
  ['http://hooks.example.com/receive', false, /https/],
  ['http://hooks.example.com/receive', true, /https/],
  ['https://127.0.0.1/hook', true, /public/],
  ['https://printer.local/hook', true, /public/],
  ['https://nxdomain.attacker.example/hook', true, /resolves/],
  ['ftp://example.com/hook', false, /https/],
  ['https://user:pw@example.com/hook', false, /credentials/],
  ['not a url', false, /absolute/],
])('%s is refused (livemode %s) saying why', async (url, livemode, problem) => {
  expect(await webhookUrlProblemResolved(url, livemode)).toMatch(problem);
});

test('the URL-only rule needs no DNS: literals and special names are judged synchronously', () => {
  expect(webhookUrlProblem('https://0x7f000001/', true)).toMatch(/public/);
  expect(webhookUrlProblem('https://[64:ff9b::7f00:1]/', true)).toMatch(/public/);
  expect(webhookUrlProblem('https://8.8.8.8/', true)).toBeNull();
  expect(webhookUrlProblem('https://127.0.0.1.nip.io/', true)).toBeNull(); // only resolution tells
});

test.each([
  ['8.8.8.8', null],
  ['::ffff:8.8.8.8', null],
  ['64:ff9b::808:808', null],
  ['2606:4700:4700::1111', null],
  ['127.0.0.1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::127.0.0.1', 'loopback'],
  ['::7f00:1', 'loopback'],
  ['64:ff9b::a00:1', 'private'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['198.18.0.1', 'reserved'],
  ['fd00::1', 'uniqueLocal'],
])('address %s: %s', (ip, problem) => {
  expect(addressProblem(ip)).toBe(problem);
});

function lookup(host: string, options: { all?: boolean; family?: number } = {}) {
  return new Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[] }>((resolve) =>
    pinnedLookup(host, options, (err, address) => resolve({ err, address })),
  );
}

test('the delivery lookup hands the socket only the vetted addresses, and refuses a private one', async () => {
  expect(await lookup('hooks.example.com')).toEqual({ err: null, address: '93.184.216.34' });
  expect(await lookup('dual.example.com', { all: true })).toEqual({
    err: null,
    address: [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ],
  });
  for (const host of ['localtest.me', 'mixed.attacker.example', 'nat64.attacker.example', 'mapped.attacker.example']) {
    const { err } = await lookup(host, { all: true });
    expect(err?.code).toBe('EADDRNOTALLOWED');
    expect(err?.message).not.toMatch(/\d+\.\d+\.\d+\.\d+|::/);
  }
});

test('DNS rebinding: a name public at registration and loopback at delivery is refused at connect', async () => {
  expect(await webhookUrlProblemResolved('https://rebind.attacker.example/hook', true)).toBeNull();
  const { err } = await lookup('rebind.attacker.example', { all: true });
  expect(err?.code).toBe('EADDRNOTALLOWED');
});
