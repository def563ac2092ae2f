import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, webhookUrlProblem } from './webhook-url.js';

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

// Keep-alive pools per mode. Live mode's sockets are opened through pinnedLookup only, so a
// pooled socket is always connected to an address that was vetted when it was opened.
const agents = {
  live: { 'https:': new https.Agent({ keepAlive: true, lookup: pinnedLookup }) },
  test: { 'https:': new https.Agent({ keepAlive: true }), 'http:': new http.Agent({ keepAlive: true }) },
};

/**
 * What an attempt's `error` says about a failed connection: a fixed phrase per kind of failure,
 * never the underlying message (it would name internal addresses and ports to the API caller).
 */
export function describeNetworkError(err: unknown, timeoutMs: number): string {
  const e = err as Error & { code?: string; cause?: { code?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  const code = e.code ?? e.cause?.code ?? '';
  if (code === 'EADDRNOTALLOWED') return 'refused: the host resolves to a private or reserved address';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'network error: host not found';
  if (code === 'ECONNREFUSED') return 'network error: connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'network error: connection reset';
  if (code === 'EPROTO' || /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(code)) return 'network error: TLS handshake failed';
  return 'network error: connection failed';
}

/** One POST; resolves with the response status (the body is discarded). Redirects are not followed. */
function request(url: URL, body: string, headers: Record<string, string>, timeoutMs: number, livemode: boolean): Promise<number> {
  const pool = livemode ? agents.live : agents.test;
  const agent = (pool as Record<string, http.Agent>)[url.protocol];
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) }, signal: AbortSignal.timeout(timeoutMs) }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * One HTTP POST of an event: 2xx = success; anything else, a timeout, a network error, a
 * redirect, or a URL this mode may not reach (checked again now, addresses included) = failure.
 */
export async function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs: number, livemode: boolean): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = webhookUrlProblem(url, livemode);
  if (problem) return { ok: false, status: null, error: `refused: the URL ${problem}`, durationMs: elapsed() };
  try {
    const status = await request(new URL(url), body, headers, timeoutMs, livemode);
    if (status >= 200 && status < 300) return { ok: true, status, error: null, durationMs: elapsed() };
    const error = status >= 300 && status < 400 ? `HTTP ${status} redirect (redirects are not followed)` : `HTTP ${status}`;
    return { ok: false, status, error, durationMs: elapsed() };
  } catch (err) {
    return { ok: false, status: null, error: describeNetworkError(err, timeoutMs), durationMs: elapsed() };
  }
}
