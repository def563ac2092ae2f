import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import type { Client } from '../helpers/http.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

/**
 * The documentation's signature check, run as written against real deliveries: the plain HMAC
 * function of the README (or docs/) and the `standardwebhooks` package, both with the endpoint's
 * secret, and during a rotation with either secret. No document imports a package that does not
 * exist (the service is not published to npm).
 */
const docs = [
  'README.md',
  ...(readdirSync('docs', { recursive: true }) as string[])
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f)),
];
const text = docs.map((f) => readFileSync(f, 'utf8')).join('\n');

let t: TestApp;
let api: Client;
let dir: string;
beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
  ({ api } = await newMerchant(t, 'Hooks'));
  dir = await mkdtemp(path.join(tmpdir(), 'verify-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

type Verify = (
  rawBody: string | Buffer,
  header: string | undefined,
  secrets: string[],
  toleranceSeconds?: number,
) => boolean;

/** The documented `verifyServiceSignature`, taken from its js block and imported as a module. */
async function documentedVerify(): Promise<Verify> {
  const block = [...text.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((code) => code.includes('function verifyServiceSignature'));
  expect(block).toBeDefined();
  const file = path.join(dir, 'verify.mjs');
  await writeFile(file, `${block}\nexport { verifyServiceSignature };\n`);
  return ((await import(pathToFileURL(file).href)) as { verifyServiceSignature: Verify }).verifyServiceSignature;
}

test('no document imports the service as an npm package', () => {
  expect(text).not.toMatch(/from ['"]health-commerce['"]/);
});

test('the documented HMAC function and standardwebhooks verify a real delivery, before and during a secret rotation; a changed body fails', async () => {
  const verify = await documentedVerify();
  const receiver = await startReceiver();
  try {
    const created = await api.post<{ id: string; secret: string }>('/api/v2/webhook-endpoints', {
      url: `${receiver.url}/hooks`,
      events: ['order.completed'],
    });
    expect(created.status).toBe(201);
    const { id, secret } = created.body;
    expect((await api.post(`/api/v2/webhook-endpoints/${id}/test`, { type: 'order.completed' })).status).toBe(200);
    const first = receiver.received.at(-1)!;
    const header = first.headers['x-service-signature'] as string;
    expect(verify(first.rawBody, header, [secret])).toBe(true);
    expect(verify(Buffer.from(first.rawBody), header, [secret])).toBe(true);
    expect(verify(`${first.rawBody} `, header, [secret])).toBe(false);
    expect(verify(first.rawBody, header, ['whsec_someoneelse0000000000000000000'])).toBe(false);
    expect(verify(first.rawBody, header, [secret], -1)).toBe(false);
    expect(new Webhook(secret).verify(first.rawBody, first.headers as Record<string, string>)).toMatchObject({
      type: 'order.completed',
    });

    const rotated = await api.post<{ secret: string }>(`/api/v2/webhook-endpoints/${id}/rotate-secret`, {});
    expect((await api.post(`/api/v2/webhook-endpoints/${id}/test`, { type: 'order.completed' })).status).toBe(200);
    const second = receiver.received.at(-1)!;
    for (const s of [secret, rotated.body.secret]) {
      expect(verify(second.rawBody, second.headers['x-service-signature'] as string, [s])).toBe(true);
      expect(new Webhook(s).verify(second.rawBody, second.headers as Record<string, string>)).toMatchObject({
        type: 'order.completed',
      });
    }
  } finally {
    await receiver.close();
  }
});
