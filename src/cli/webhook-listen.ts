import { parseArgs } from 'node:util';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { prefixedId } from '../platform/db/ids.js';
import { toEventEnvelope } from '../platform/events/events.service.js';
import { deliveryHeaders } from '../modules/webhooks/webhook-delivery.service.js';
import { postWebhook } from '../modules/webhooks/webhook-post.js';
import { newWebhookSecret } from '../modules/webhooks/webhook.service.js';
import { apiBase, requireTestKey } from './api-options.js';
import { LISTEN_USAGE } from './usage.js';

export { LISTEN_USAGE };

/** A forwarded event's request timeout: a real delivery's. */
const FORWARD_TIMEOUT_MS = 10_000;

const EVENTS_SUBSCRIPTION =
  'subscription Listen($types: [String!]) { events(types: $types) { eventId type livemode createdAt data } }';

interface StreamedEvent {
  eventId: string;
  type: string;
  livemode: boolean;
  createdAt: string;
  data: Record<string, unknown>;
}

/**
 * `listen`: subscribes to the merchant's live events over graphql-ws (reconnecting when the
 * socket drops) and POSTs each to `--forward-to` as the service delivers a webhook: the same
 * envelope and headers (`X-Service-Signature`, the Standard Webhooks trio, `X-Service-Event`,
 * `X-Service-Delivery`), signed with a secret made for this session and printed once. Runs until
 * interrupted; a refused key ends it with exit code 1.
 */
export async function listen(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      'api-key': { type: 'string' },
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      'api-url': { type: 'string' },
    },
    strict: true,
  });
  const key = requireTestKey('listen', values['api-key'], LISTEN_USAGE);
  const forwardTo = values['forward-to'];
  if (!forwardTo || !/^https?:\/\//.test(forwardTo))
    throw new Error(`listen: --forward-to must be an http(s) URL\nusage:\n  ${LISTEN_USAGE}`);
  const types = values.events
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const base = apiBase(values['api-url']);
  const secret = newWebhookSecret();
  const out = (line: string) => process.stdout.write(`${line}\n`);

  const client = createClient({
    url: `${base.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    lazy: false,
    // Reconnect for as long as it takes (a restart of the service); a refused key (4401) is never retried.
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    on: {
      connected: () =>
        out(
          `Connected to ${base}; forwarding ${types?.length ? types.join(', ') : 'every event type'} to ${forwardTo}`,
        ),
      closed: (event) => {
        const code = (event as { code?: number }).code;
        if (code !== 4401 && code !== 1000) out(`Disconnected (${code ?? 'no code'}); reconnecting…`);
      },
    },
  });

  out(`Your webhook signing secret for this session is ${secret} (verify the forwarded requests with it)`);

  const forward = async (e: StreamedEvent) => {
    if (e.livemode) return; // the key is a test key; never forward a live event
    const body = JSON.stringify(
      toEventEnvelope({ id: e.eventId, type: e.type, createdAt: new Date(e.createdAt), data: e.data }),
    );
    const outcome = await postWebhook(
      forwardTo,
      body,
      deliveryHeaders({ id: e.eventId, type: e.type }, prefixedId('wd'), body, [secret]),
      FORWARD_TIMEOUT_MS,
      false,
    );
    out(
      `${new Date().toISOString()}  ${e.type}  ${e.eventId}  --> ${outcome.ok ? `[${outcome.status}]` : `failed: ${outcome.error}`} POST ${forwardTo}`,
    );
  };

  return new Promise<number>((resolve) => {
    const stop = (code: number) => {
      unsubscribe();
      void client.dispose();
      resolve(code);
    };
    const unsubscribe = client.subscribe<{ events: StreamedEvent }>(
      { query: EVENTS_SUBSCRIPTION, variables: { types: types?.length ? types : null } },
      {
        next: (message) => {
          if (message.errors?.length)
            process.stderr.write(`listen: ${message.errors.map((e) => e.message).join('; ')}\n`);
          if (message.data) void forward(message.data.events);
        },
        error: (err) => {
          const code = (err as { code?: number }).code;
          process.stderr.write(
            code === 4401
              ? 'listen: the service refused the API key\n'
              : `listen: ${err instanceof Error ? err.message : JSON.stringify(err)}\n`,
          );
          stop(1);
        },
        complete: () => stop(0),
      },
    );
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop(0));
  });
}
