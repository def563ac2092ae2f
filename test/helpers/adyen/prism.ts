import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';

/** A Prism proxy checking every request and answer against an Adyen OpenAPI document. */
export interface PrismProxy {
  /** Where the client sends its calls: the spec's server path included (`http://127.0.0.1:PORT/v72`). */
  url: string;
  /** Every request or response that broke the document (severity error), as `METHOD /path: where what`. */
  violations(): string[];
  /** Calls Prism could not forward (the upstream dropped or refused the connection): Prism answered 500. */
  upstreamFailures(): string[];
  /** Forgets the violations and warnings seen so far. */
  clearViolations(): void;
  /** What Prism only warns about (not counted as violations). */
  warnings(): string[];
  close(): Promise<void>;
}

interface PrismViolation {
  location?: string[];
  severity?: string;
  code?: string | number;
  message?: string;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
  'proxy-connection',
]);

/**
 * A front that sends calls through the run's `prism proxy <specFile> … --errors` (test/prisms.mjs)
 * on to `upstreamUrl` (a test file's stand-in), and reads what Prism found.
 *
 * Why the front: Prism routes a request by its path against the document's `paths` only; the
 * path of the document's server (`https://checkout-test.adyen.com/v72` → `/v72`) is ignored
 * unless the request names the server in a `__server` query parameter, so `POST /v72/payments`
 * answers 404 NO_PATH_MATCHED while `POST /payments` is matched. When forwarding, Prism appends
 * the request path to the upstream URL. The front therefore takes calls at
 * `http://127.0.0.1:PORT/v72/...` exactly as Adyen would, strips `/v72` and hands `/payments` to
 * Prism, which passes it on to the stand-in's `checkoutUrl` (which ends in `/v72`). So the service
 * is given `ADYEN_CHECKOUT_URL=<this url>` (e.g. `http://127.0.0.1:PORT/v72`), the same shape
 * as Adyen's own base URL, and the adapter appends `/payments` etc. to it.
 *
 * The front also reads what Prism found: the `sl-violations` header Prism adds to every answer
 * with a finding, and Prism's own error answers (`application/problem+json` with a
 * `https://stoplight.io/prism/errors#…` type: 422 for a request that breaks the schema, which is
 * then never forwarded; 500 VIOLATIONS for a response that does; 404 for an unknown route).
 */
export async function startPrismProxy(specFile: string, upstreamUrl: string): Promise<PrismProxy> {
  const servers = (JSON.parse(readFileSync(specFile, 'utf8')) as { servers?: { url: string }[] }).servers;
  const basePath = servers?.[0] ? new URL(servers[0].url).pathname.replace(/\/$/, '') : '';
  // The run's Prism for this document (test/prisms.mjs, started by global setup); its upstream is a
  // router that sends each call on to the stand-in named by `x-test-upstream`.
  const prismUrl = (JSON.parse(process.env.TEST_PRISM_URLS ?? '{}') as Record<string, string>)[path.basename(specFile)];
  if (!prismUrl)
    throw new Error(
      `no Prism for ${path.basename(specFile)}: run the tests through jest (test/global-setup.mjs starts it)`,
    );

  const errors: string[] = [];
  const warnings: string[] = [];
  const upstreamFailures: string[] = [];

  /** Records what Prism said about one exchange. */
  const record = (what: string, status: number, headers: Headers, body: string) => {
    const header = headers.get('sl-violations');
    if (header) {
      for (const v of JSON.parse(header) as PrismViolation[]) {
        const line = `${what}: ${(v.location ?? []).join('.')} ${v.message ?? ''}`.trim();
        (v.severity === 'Error' ? errors : warnings).push(line);
      }
    }
    if ((headers.get('content-type') ?? '').includes('application/problem+json')) {
      let problem: { type?: string; title?: string; detail?: string; validation?: PrismViolation[] } = {};
      try {
        problem = JSON.parse(body) as typeof problem;
      } catch {
        // not JSON: reported as is below
      }
      const details = (problem.validation ?? [])
        .map((v) => `${(v.location ?? []).join('.')} ${v.message ?? ''}`)
        .join('; ');
      const line =
        `${what}: ${status} ${problem.type ?? ''} ${problem.title ?? body} ${problem.detail ?? ''} ${details}`.trim();
      // Prism's own findings are violations; an upstream that dropped the connection (FetchError,
      // e.g. the stand-in's `interrupt`) reaches the client as a 500 and is no schema matter.
      if (!(problem.type ?? '').startsWith('https://stoplight.io/prism/errors#')) upstreamFailures.push(line);
      else if (!header) errors.push(line);
    }
  };

  const forward = async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://front');
    const what = `${req.method} ${url.pathname}`;
    if (!url.pathname.startsWith(`${basePath}/`)) {
      errors.push(`${what}: outside the document's server path ${basePath}`);
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not under ${basePath}`);
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    let answer: Response;
    try {
      headers.set('x-test-upstream', upstreamUrl);
      const target = `${prismUrl}${url.pathname.slice(basePath.length)}${url.search}`;
      answer = await fetch(target, {
        method: req.method,
        headers,
        body: raw.length > 0 ? raw.toString('utf8') : undefined,
        redirect: 'manual',
      });
    } catch (e) {
      errors.push(`${what}: prism unreachable: ${e instanceof Error ? e.message : String(e)}`);
      res.writeHead(502).end();
      return;
    }
    const body = await answer.text();
    record(what, answer.status, answer.headers, body);
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
    });
    res.writeHead(answer.status, out).end(body);
  };

  const sockets = new Set<Socket>();
  const front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void forward(req, res, Buffer.concat(chunks)));
  });
  front.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const address = front.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    violations: () => [...errors],
    warnings: () => [...warnings],
    upstreamFailures: () => [...upstreamFailures],
    clearViolations() {
      errors.length = 0;
      warnings.length = 0;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => front.close(r));
    },
  };
}
