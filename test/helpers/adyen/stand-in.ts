import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CheckoutBook, serviceError, type Answer } from './checkout.js';
import { DisputeBook, type DisputeEventCode, type DisputeOptions, type StandInDispute } from './disputes.js';
import { Notifier, type NotifyTarget } from './notifications.js';

export { ADYEN_TEST_CARDS } from './cards.js';
export type { AdyenTestCard, Refusal } from './cards.js';
export type { Amount, Modification, PaymentStatus, StandInOrder, StandInPayment, StoredToken } from './checkout.js';
export type { DisputeEventCode, DisputeOptions, DisputeStatus, StandInDispute } from './disputes.js';
export type { Delivery, NotificationItem, NotifyTarget } from './notifications.js';

export interface StandInOptions {
  /** The API key requests must carry in `x-api-key` (anything else answers 401). */
  apiKey: string;
  /** When set, a request for another merchant account answers 403 (Adyen's 901). */
  merchantAccount?: string;
  /** The merchant account's capture setting: `manual` (default, as live mode needs) or `immediate`. */
  captureMode?: 'manual' | 'immediate';
  /** Delays between notification retries (default 50, 100, 200 ms). */
  retryDelaysMs?: number[];
  /** The stand-in's clock (event dates, expiry checks, order expiry). */
  now?: () => Date;
}

/** One request the stand-in answered. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  status: number;
  response: unknown;
  /** Answered from an earlier request with the same Idempotency-Key (nothing done again). */
  replayed: boolean;
  at: number;
}

/**
 * A fault for the next request whose path ends with `path`: the connection drops before or after
 * the request is processed. Behind Prism the client then gets Prism's 500 (FetchError), as it
 * would get a 5xx or a timeout from Adyen: the outcome is unknown to it.
 */
export interface Interruption {
  path: string;
  /** `before`: the connection drops, nothing happens. `after`: processed (state, notifications), the answer is lost. */
  when: 'before' | 'after';
}

const CHECKOUT_BASE = '/v72';
const DISPUTES_BASE = '/ca/services/DisputeService/v30';

/**
 * A stateful stand-in for Adyen's Checkout API v72 and DisputeService v30 (node:http on
 * 127.0.0.1): payments, modifications, orders, tokens and disputes kept as Adyen keeps them,
 * `Idempotency-Key` honoured, signed standard notifications sent back. Test-only: never shipped.
 */
export async function startAdyenStandIn(opts: StandInOptions) {
  const now = opts.now ?? (() => new Date());
  const notifications = new Notifier({ retryDelaysMs: opts.retryDelaysMs });
  let baseUrl = '';
  const checkout = new CheckoutBook(notifications, {
    baseUrl: () => baseUrl,
    captureMode: opts.captureMode ?? 'manual',
    now,
  });
  const disputes = new DisputeBook(checkout, notifications, now);
  const requests: RecordedRequest[] = [];
  const idempotent = new Map<string, Answer>();
  const interruptions: Interruption[] = [];
  const scripted: { path: string; answer: Answer }[] = [];

  const route = (method: string, url: URL, body: Record<string, unknown>): Answer => {
    const path = url.pathname;
    if (path.startsWith(`${CHECKOUT_BASE}/`)) {
      const p = path.slice(CHECKOUT_BASE.length);
      const modification = /^\/payments\/([A-Z0-9]{16})\/(captures|cancels|refunds)$/.exec(p);
      if (method === 'POST' && modification) {
        const [, psp, kind] = modification;
        return kind === 'captures'
          ? checkout.capture(psp, body)
          : kind === 'cancels'
            ? checkout.cancel(psp, body)
            : checkout.refund(psp, body);
      }
      const token = /^\/storedPaymentMethods\/([^/]+)$/.exec(p);
      if (method === 'DELETE' && token) return checkout.disableToken(decodeURIComponent(token[1]), url.searchParams);
      if (method === 'GET' && p === '/storedPaymentMethods') return checkout.listTokens(url.searchParams);
      if (method === 'POST') {
        if (p === '/payments') return checkout.payments_(body);
        if (p === '/payments/details') return checkout.details(body);
        if (p === '/orders') return checkout.createOrder(body);
        if (p === '/orders/cancel') return checkout.cancelOrder(body);
        if (p === '/paymentMethods/balance') return checkout.balance(body);
      }
    } else if (method === 'POST' && path.startsWith(`${DISPUTES_BASE}/`)) {
      const p = path.slice(DISPUTES_BASE.length);
      if (p === '/acceptDispute') return disputes.accept(body);
      if (p === '/defendDispute') return disputes.defend(body);
      if (p === '/retrieveApplicableDefenseReasons') return disputes.defenseReasons(body);
      if (p === '/supplyDefenseDocument') return disputes.supplyDocuments(body);
      if (p === '/deleteDisputeDefenseDocument') return disputes.deleteDocument(body);
    }
    return serviceError(404, '000', `The stand-in has no ${method} ${path}`, 'validation');
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const method = req.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/3ds/redirect')
      return send(res, checkout.redirectPage(url.searchParams.get('token') ?? ''));
    const interruption = interruptions.findIndex((i) => url.pathname.endsWith(i.path));
    const lose = interruption >= 0 ? interruptions.splice(interruption, 1)[0] : undefined;
    if (lose?.when === 'before') return req.socket.destroy();
    let body: Record<string, unknown> = {};
    let answer: Answer | undefined;
    let replayed = false;
    if (raw.trim()) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        answer = serviceError(400, '702', 'Unexpected input: the body is not JSON', 'validation');
      }
    }
    const key = req.headers['idempotency-key'];
    if (!answer && req.headers['x-api-key'] !== opts.apiKey) {
      answer = {
        status: 401,
        body: { status: 401, errorCode: '000', message: 'HTTP Status Response - Unauthorized', errorType: 'security' },
      };
    }
    const account =
      body.merchantAccount ?? body.merchantAccountCode ?? url.searchParams.get('merchantAccount') ?? undefined;
    if (!answer && opts.merchantAccount && account !== undefined && account !== opts.merchantAccount) {
      answer = serviceError(403, '901', 'Invalid Merchant Account', 'security');
    }
    if (!answer && typeof key === 'string' && method === 'POST' && idempotent.has(key)) {
      answer = idempotent.get(key)!;
      replayed = true;
    }
    const script = answer ? -1 : scripted.findIndex((s) => url.pathname.endsWith(s.path));
    if (script >= 0) answer = scripted.splice(script, 1)[0].answer;
    if (!answer) {
      answer = route(method, url, body);
      if (typeof key === 'string' && method === 'POST') idempotent.set(key, answer);
    }
    requests.push({
      method,
      path: url.pathname + url.search,
      headers: req.headers,
      body,
      status: answer.status,
      response: answer.body,
      replayed,
      at: Date.now(),
    });
    if (lose?.when === 'after') return req.socket.destroy();
    send(res, answer);
  };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (e) {
        // A bug of the stand-in: say so loudly rather than answer something Adyen never would.
        console.error('Adyen stand-in failed', e);
        send(
          res,
          serviceError(500, '000', `stand-in error: ${e instanceof Error ? e.message : String(e)}`, 'internal'),
        );
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  baseUrl = url;

  return {
    /** The server's root (the 3-D Secure redirect page lives at /3ds/redirect). */
    url,
    /** Checkout API v72 base URL (append /payments, /orders...), as https://checkout-test.adyen.com/v72. */
    checkoutUrl: `${url}${CHECKOUT_BASE}`,
    /** DisputeService v30 base URL (append /acceptDispute...), as https://ca-test.adyen.com/ca/services/DisputeService/v30. */
    disputesUrl: `${url}${DISPUTES_BASE}`,
    /** Payments by pspReference. */
    payments: checkout.payments,
    /** Adyen orders by pspReference. */
    orders: checkout.orders,
    /** Stored tokens by storedPaymentMethodId. */
    tokens: checkout.tokens,
    /** Disputes by their own pspReference. */
    disputes: disputes.disputes,
    /** Every request answered, in order. */
    requests,
    /** Signed notifications: hold, release, forge, sent, waitFor, idle. */
    notifications,
    /** Where notifications go: the service's `/processor-notifications/adyen`, signed with `hmacKeyHex`. */
    notifyTo(target: string, how: Omit<NotifyTarget, 'url'>): void {
      notifications.setTarget({ url: target, ...how });
    },
    /** Raises a dispute event for a payment and notifies it. */
    dispute(paymentPsp: string, eventCode: DisputeEventCode, options?: DisputeOptions): StandInDispute {
      return disputes.raise(paymentPsp, eventCode, options);
    },
    /** The `threeDSResult` the shopper's browser would post after the challenge (`N`: failed). */
    threeDSResult(authorisationToken: string, transStatus: 'Y' | 'N' = 'Y'): string {
      return checkout.threeDSResult(authorisationToken, transStatus);
    },
    /** The `redirectResult` the issuer page hands back for a payment waiting on a redirect. */
    redirectResult(paymentPsp: string): string {
      const token = checkout.payments.get(paymentPsp)?.pending?.redirectToken;
      if (!token) throw new Error(`payment ${paymentPsp} is not waiting for a redirect`);
      return token;
    },
    /** Loses the next request whose path ends with `path` (before or after processing it). */
    interrupt(next: Interruption): void {
      interruptions.push(next);
    },
    /** Answers the next request whose path ends with `path` with this, doing nothing (an outage, a malformed answer). */
    answerNext(path: string, answer: { status: number; body?: unknown }): void {
      scripted.push({ path, answer });
    },
    async close(): Promise<void> {
      notifications.close();
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

export type AdyenStandIn = Awaited<ReturnType<typeof startAdyenStandIn>>;

function send(res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.body !== undefined) headers['content-type'] = 'application/json';
  res.writeHead(answer.status, headers);
  res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
}
