import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** One request a receiver got: the raw body as sent (before any JSON parsing) and its headers. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  at: number;
}

/** An answer with a body of its own (instead of `ok`). */
export interface Answer {
  status: number;
  body: string | Buffer;
}

/** How to answer request number `n` (0-based): a status (body `ok`), a status and body, or 'hang' (never answer). */
export type Responder = (
  n: number,
  req: ReceivedWebhook,
  res: ServerResponse,
) => number | Answer | 'hang' | Promise<number | Answer | 'hang'>;

/** A local webhook receiver (node:http on 127.0.0.1:0) recording every request. */
export async function startReceiver(respond: Responder = () => 200) {
  const received: ReceivedWebhook[] = [];
  const sockets = new Set<Socket>();
  let responder = respond;
  /** Records one request and answers it as the responder says. */
  const answer = async (req: IncomingMessage, res: ServerResponse, rawBody: string) => {
    let body: ReceivedWebhook['body'];
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = { id: '', type: '', created_at: '', data: {} };
    }
    const entry = { path: req.url ?? '/', headers: req.headers, rawBody, body, at: Date.now() };
    const n = received.length;
    received.push(entry);
    const reply = await responder(n, entry, res);
    if (reply === 'hang') return;
    const { status, body: text } = typeof reply === 'number' ? { status: reply, body: 'ok' } : reply;
    if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(text);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  let connections = 0;
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** TCP connections accepted so far (whether or not a request followed: a TLS hello counts too). */
    get connections() {
      return connections;
    },
    /** Changes how later requests are answered. */
    respondWith(next: Responder) {
      responder = next;
    },
    /** Waits until `count` requests arrived (or fails after `ms`). */
    async waitFor(count: number, ms = 10_000) {
      const until = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`receiver got ${received.length} requests, expected ${count}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
