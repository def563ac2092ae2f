import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/** A graphql-ws client to the test app (`connectionParams.authorization` when `apiKey` is given). */
export function wsClient(
  baseUrl: string,
  apiKey?: string,
  extra: { onClosed?: (event: unknown) => void } = {},
): Client {
  return createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: apiKey ? { authorization: `Bearer ${apiKey}` } : undefined,
    retryAttempts: 0,
    lazy: true,
    on: { closed: (event) => extra.onClosed?.(event) },
  });
}

/** An `Event` of the graph, as the streams and the `events` query give it: pick the fields the query selects. */
export interface EventNode {
  id: string;
  eventId: string;
  type: string;
  livemode: boolean;
  createdAt: string;
  cursor: string;
  data: Record<string, unknown>;
}

/** Subscribes and collects every `data` message (name its shape: `collect<{ events: Pick<EventNode, 'type'> }>(…)`); `done` resolves with the error or completion. */
export function collect<T = unknown>(client: Client, query: string, variables?: Record<string, unknown>) {
  const messages: T[] = [];
  const errors: unknown[] = [];
  let unsubscribe = () => undefined as void;
  const done = new Promise<void>((resolve) => {
    unsubscribe = client.subscribe<T>(
      { query, variables },
      {
        next: (m) => {
          if (m.errors) errors.push(m.errors);
          if (m.data) messages.push(m.data);
        },
        error: (err) => {
          errors.push(err);
          resolve();
        },
        complete: () => resolve(),
      },
    );
  });
  return {
    messages,
    errors,
    done,
    unsubscribe: () => unsubscribe(),
    /** Waits until `count` messages arrived (or fails after `ms`). */
    async waitFor(count: number, ms = 10_000) {
      const until = Date.now() + ms;
      while (messages.length < count) {
        if (Date.now() > until)
          throw new Error(`got ${messages.length} messages, expected ${count}; errors: ${JSON.stringify(errors)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return messages;
    },
  };
}

/**
 * Subscriptions carry no acknowledgement: record probe events the subscription lets through until
 * one arrives, so the test knows the server is listening; `forget` then drops the probes.
 */
export async function untilLive(
  sub: ReturnType<typeof collect>,
  probe: () => Promise<unknown>,
  opts: { forget?: boolean } = {},
): Promise<void> {
  const until = Date.now() + 10_000;
  while (sub.messages.length === 0) {
    if (Date.now() > until) throw new Error(`subscription never went live: ${JSON.stringify(sub.errors)}`);
    await probe();
    await new Promise((r) => setTimeout(r, 50));
  }
  if (opts.forget) {
    await new Promise((r) => setTimeout(r, 100));
    sub.messages.length = 0;
  }
}
