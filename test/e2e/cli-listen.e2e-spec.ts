import { readdirSync, readFileSync } from 'node:fs';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { NOT_TRIGGERABLE, TRIGGERABLE_EVENTS, trigger } from '../../src/cli/webhook-trigger.js';
import { EVENT_SAMPLES } from '../../src/modules/webhooks/event-samples.js';
import { EVENT_TYPES } from '../../src/modules/webhooks/webhook.schemas.js';
import { verifyWebhook } from '../../src/modules/webhooks/webhook-signature.js';
import type { Client } from '../helpers/http.js';
import { newMerchant, startTestApp, startWithMerchant, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * `npm run cli -- listen` and `trigger`, run as a developer runs them (the built CLI in a child
 * process) against the service on its own port: forwarded events are signed like real deliveries
 * with the session secret the CLI prints, and verify with our verifier and the standardwebhooks package.
 */
const CLI = 'dist/src/cli/cli.js';

let t: TestApp;
let api: Client;
let key: string;
let liveKey: string;
let receiver: Receiver;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  let keys;
  ({ t, api, keys } = await startWithMerchant('CLI listen'));
  key = keys.test_api_key;
  liveKey = keys.live_api_key;
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const child of children) child.kill();
  await receiver.close();
  await t.close();
});

/** Runs the CLI with `args`; the output so far, a way to wait for a line, and its exit. */
function cli(args: string[], via: 'node' | 'npm' = 'node') {
  const child =
    via === 'node'
      ? spawn(process.execPath, [CLI, ...args], { stdio: 'pipe' })
      : spawn('npm', ['run', '-s', 'cli', '--', ...args], { stdio: 'pipe' });
  children.push(child);
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (output.stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (output.stderr += c.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** The first match of `pattern` in stdout, once it appears. */
  const line = async (pattern: RegExp, ms = 20_000): Promise<RegExpExecArray> => {
    for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 25))) {
      const m = pattern.exec(output.stdout);
      if (m) return m;
    }
    throw new Error(`no ${String(pattern)} in stdout:\n${output.stdout}\nstderr:\n${output.stderr}`);
  };
  return { child, output, exit, line };
}

/** Runs `trigger` as the CLI does, printing nothing. */
const runTrigger = (type: string, apiKey = key) =>
  trigger(type, ['--api-key', apiKey, '--api-url', t.url], () => undefined);

test('listen forwards the chosen event types signed with the session secret; trigger order.completed fires one', async () => {
  const listen = cli([
    'listen',
    '--api-key',
    key,
    '--forward-to',
    `${receiver.url}/webhooks`,
    '--events',
    'order.completed,refund.succeeded',
    '--api-url',
    t.url,
  ]);
  const [, secret] = await listen.line(/signing secret for this session is (whsec_\S+)/);
  await listen.line(/Connected to /);
  expect(listen.output.stdout.match(/whsec_/g)).toHaveLength(1); // printed once

  // The CLI's own trigger, as a child process too
  const fired = cli(['trigger', 'order.completed', '--api-key', key, '--api-url', t.url]);
  expect(await fired.exit).toBe(0);
  expect(fired.output.stdout).toMatch(/Trigger succeeded: order\.completed/);

  const [hit] = await receiver.waitFor(1);
  expect(hit.path).toBe('/webhooks');
  expect(hit.body).toMatchObject({
    id: expect.stringMatching(/^evt_/),
    type: 'order.completed',
    data: { status: 'completed', amount: 2000 },
  });
  expect(hit.headers).toMatchObject({
    'x-service-event': 'order.completed',
    'x-service-delivery': expect.stringMatching(/^wd_/),
    'webhook-id': hit.body.id,
    'content-type': 'application/json',
  });
  // Signed exactly like a real delivery: the spec's header (our verifier) and Standard Webhooks (the reference package)
  expect(verifyWebhook(hit.rawBody, hit.headers['x-service-signature'] as string, secret)).toBe(true);
  expect(verifyWebhook(hit.rawBody, hit.headers['x-service-signature'] as string, 'whsec_someoneelse')).toBe(false);
  const headers = Object.fromEntries(Object.entries(hit.headers).map(([k, v]) => [k, String(v)]));
  expect(new Webhook(secret).verify(hit.rawBody, headers)).toEqual(hit.body);
  // The envelope is the events API's
  expect((await api.get(`/api/v2/events/${hit.body.id}`)).body).toMatchObject({
    id: hit.body.id,
    type: 'order.completed',
    created_at: hit.body.created_at,
    data: hit.body.data,
  });
  await listen.line(/order\.completed\s+evt_\S+\s+--> \[200\] POST /);

  // Only the chosen types: the same payment recorded order.created and checkout.completed too
  await runTrigger('refund.succeeded');
  const hits = await receiver.waitFor(3);
  expect(hits.map((h) => h.body.type).sort()).toEqual(['order.completed', 'order.completed', 'refund.succeeded']);
  listen.child.kill('SIGINT');
  expect(await listen.exit).toBe(0);
}, 60_000);

test('listen reconnects when the service restarts and goes on forwarding', async () => {
  receiver.received.length = 0;
  const listen = cli([
    'listen',
    '--api-key',
    key,
    '--forward-to',
    receiver.url,
    '--events',
    'product.created',
    '--api-url',
    t.url,
  ]);
  await listen.line(/Connected to /);
  const port = Number(new URL(t.url).port);
  await t.close();
  await listen.line(/Disconnected .*reconnecting/);
  t = await startTestApp({}, { port });
  await listen.line(/Connected to [^\n]*\n[\s\S]*Connected to /);
  await runTrigger('product.created');
  const [hit] = await receiver.waitFor(1);
  expect(hit.body.type).toBe('product.created');
  listen.child.kill('SIGINT');
  await listen.exit;
}, 60_000);

test('test mode only: a live key is refused by listen and trigger, with a clear message', async () => {
  const listen = cli(['listen', '--api-key', liveKey, '--forward-to', receiver.url, '--api-url', t.url]);
  expect(await listen.exit).toBe(1);
  expect(listen.output.stderr).toMatch(/test mode only/);
  await expect(runTrigger('order.completed', liveKey)).rejects.toThrow(/test mode only/);
  await expect(runTrigger('webhook_endpoint.disabled')).rejects.toThrow(
    /cannot be triggered: it needs an endpoint failing[\s\S]*order\.completed/,
  );
});

test('npm run cli -- listen stops with the signal its supervisor sends npm: no node process is left reconnecting', async () => {
  const target = `${receiver.url}/signals-${Date.now()}`;
  const listen = cli(['listen', '--api-key', key, '--forward-to', target, '--api-url', t.url], 'npm');
  await listen.line(/Connected to /, 60_000);
  const running = () => listCommandLines().filter((line) => line.includes(target));
  expect(running().length).toBeGreaterThan(0);
  listen.child.kill('SIGTERM'); // npm's pid, as `kill $!` after `npm run cli -- listen … &`
  await listen.exit;
  for (let i = 0; i < 100 && running().length; i++) await new Promise((r) => setTimeout(r, 50));
  expect(running()).toEqual([]);
}, 90_000);

/** The command lines of every process on this machine. */
function listCommandLines(): string[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')];
      } catch {
        return [];
      }
    });
}

test('trigger without a type lists the supported types and never echoes the API key', async () => {
  const run = cli(['trigger', '--api-key', key, '--api-url', t.url]);
  expect(await run.exit).toBe(1);
  expect(run.output.stderr).toMatch(/name the event type[\s\S]*supported event types:[\s\S]*order\.completed/);
  expect(run.output.stderr + run.output.stdout).not.toContain(key);
  const stray = await trigger('order.completed', [key, '--api-url', t.url], () => undefined).catch(
    (err: Error) => err.message,
  );
  expect(stray).toMatch(/takes one event type; 1 more argument given \(not shown\)/);
  expect(stray).not.toContain(key);
});

test('every supported trigger makes the service record its event type', async () => {
  const { api: own, keys } = await newMerchant(t, 'Triggers');
  for (const type of TRIGGERABLE_EVENTS) {
    await trigger(type, ['--api-key', keys.test_api_key, '--api-url', t.url], () => undefined);
    const events = await own.get<{ data: { type: string }[] }>(`/api/v2/events?type=${type}`);
    expect([type, events.body.data.length > 0 && events.body.data.every((e) => e.type === type)]).toEqual([type, true]);
  }
  // The spec's event types are all among them
  for (const type of [
    'order.completed',
    'order.failed',
    'order.created',
    'refund.created',
    'refund.succeeded',
    'refund.failed',
    'payment_link.paid',
    'payment_link.cancelled',
    'product.created',
    'subscription.created',
    'subscription.renewed',
    'subscription.payment_failed',
    'subscription.canceled',
    'subscription.resumed',
    'subscription.disputed',
  ])
    expect(TRIGGERABLE_EVENTS).toContain(type);

  // Every type recorded is one an endpoint can subscribe to, and its endpoint-test sample has the shape of the real event.
  const recorded = await own.get<{ data: { type: string; data: Record<string, unknown> }[] }>(
    '/api/v2/events?limit=100',
  );
  for (const event of recorded.body.data) {
    expect(EVENT_TYPES).toContain(event.type);
    expect([event.type, keysDiffer(EVENT_SAMPLES[event.type], event.data)]).toEqual([event.type, null]);
  }
}, 120_000);

/** Where two JSON objects differ in their keys, all the way down (null, arrays and values match anything), or null. */
function keysDiffer(a: unknown, b: unknown, path = ''): string | null {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(a) || !isObject(b)) return null;
  const keys = (o: Record<string, unknown>) => Object.keys(o).sort().join(',');
  if (keys(a) !== keys(b)) return `${path || '.'}: ${keys(a)} vs ${keys(b)}`;
  for (const k of Object.keys(a)) {
    const inner = keysDiffer(a[k], b[k], `${path}.${k}`);
    if (inner) return inner;
  }
  return null;
}

test('every event type an endpoint can subscribe to is triggerable or says why not', () => {
  expect(
    [...TRIGGERABLE_EVENTS, ...Object.keys(NOT_TRIGGERABLE)].filter((type) => type !== 'webhook_endpoint.test').sort(),
  ).toEqual(EVENT_TYPES);
});
