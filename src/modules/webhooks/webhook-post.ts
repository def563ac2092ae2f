import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { pinnedLookup, webhookUrlProblem } from './webhook-url.js';

/** How much of a receiver's answer an attempt keeps: its first 4 KiB (4,096 bytes), as UTF-8 text. */
export const RESPONSE_BODY_LIMIT = 4096;

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The first RESPONSE_BODY_LIMIT bytes of the answer as text; null when there was no answer. */
  responseBody: string | null;
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
  if (code === 'EPROTO' || /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(code))
    return 'network error: TLS handshake failed';
  return 'network error: connection failed';
}

/**
 * The text of an answer's first bytes: whole UTF-8 characters only (a character cut by the limit is
 * dropped), NUL as U+FFFD (PostgreSQL text cannot hold it).
 */
export function responseText(bytes: Buffer): string {
  return new StringDecoder('utf8').write(bytes.subarray(0, RESPONSE_BODY_LIMIT)).replaceAll('\u0000', '\uFFFD');
}

/**
 * One POST; resolves with the response status and the first RESPONSE_BODY_LIMIT bytes of its body
 * (the rest is read and discarded, so the socket can be reused). Once the status has arrived, a
 * body cut short (timeout, reset) still resolves with what came. Redirects are not followed.
 */
function request(
  url: URL,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  livemode: boolean,
): Promise<{ status: number; body: string }> {
  const pool = livemode ? agents.live : agents.test;
  const agent = (pool as Record<string, http.Agent>)[url.protocol];
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = send(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => resolve({ status: res.statusCode ?? 0, body: responseText(Buffer.concat(chunks)) });
        res.on('data', (chunk: Buffer) => {
          if (kept >= RESPONSE_BODY_LIMIT) return;
          chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - kept));
          kept += Math.min(chunk.length, RESPONSE_BODY_LIMIT - kept);
          if (kept >= RESPONSE_BODY_LIMIT) done();
        });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('error', (err) => (answered ? undefined : reject(err)));
    req.end(body);
  });
}

/**
 * One HTTP POST of an event: 2xx = success; anything else, a timeout, a network error, a
 * redirect, or a URL this mode may not reach (checked again now, addresses included) = failure.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  livemode: boolean,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = webhookUrlProblem(url, livemode);
  if (problem)
    return { ok: false, status: null, error: `refused: the URL ${problem}`, durationMs: elapsed(), responseBody: null };
  try {
    const { status, body: responseBody } = await request(new URL(url), body, headers, timeoutMs, livemode);
    if (status >= 200 && status < 300) return { ok: true, status, error: null, durationMs: elapsed(), responseBody };
    const error =
      status >= 300 && status < 400 ? `HTTP ${status} redirect (redirects are not followed)` : `HTTP ${status}`;
    return { ok: false, status, error, durationMs: elapsed(), responseBody };
  } catch (err) {
    return {
      ok: false,
      status: null,
      error: describeNetworkError(err, timeoutMs),
      durationMs: elapsed(),
      responseBody: null,
    };
  }
}
