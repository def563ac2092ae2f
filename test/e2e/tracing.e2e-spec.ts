import { createServer, type Server } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** A span as OTLP/HTTP JSON carries it (the fields these tests read). */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

const SERVER = 2;

/** An OTLP/HTTP receiver (JSON encoding) keeping every span exported to it. */
async function startOtlpReceiver(): Promise<{ url: string; spans: Span[]; server: Server }> {
  const spans: Span[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { scopeSpans: { spans: Span[] }[] }[];
        };
        for (const r of body.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, spans, server };
}

const attribute = (span: Span, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : String(v.intValue));
};

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let service: ServiceProcess;
let child: ChildProcess;
let api: Client;

beforeAll(async () => {
  t = await startTestApp();
  // Empty tables: a processor configuration an earlier file stored (sealed with its SECRETS_KEY) would stop the process from starting.
  await t.reset();
  receiver = await startOtlpReceiver();
  service = await startServiceProcess(
    {
      RUN_JOBS: 'false',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'commerce-test',
    },
    { capture: true },
  );
  child = service.child;
  api = client(service.url, (await t.merchant('Traced')).test_api_key);
}, 90_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  await new Promise((r) => (child?.exitCode === null ? child.on('exit', r) : r(null)));
  await new Promise((r) => receiver?.server.close(r));
  await t.close();
});

/** The spans of trace `traceId` once `done` holds for them (the exporter sends in batches). */
async function traceOf(traceId: string, done: (spans: Span[]) => boolean): Promise<Span[]> {
  for (let i = 0; i < 100; i++) {
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    if (done(spans)) return spans;
    await new Promise((r) => setTimeout(r, 100));
  }
  return receiver.spans.filter((s) => s.traceId === traceId);
}

/** `span`'s ancestors in `spans`, nearest first (every one must be there: the tree is whole). */
function ancestors(spans: Span[], span: Span): Span[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain: Span[] = [];
  for (let parent = span.parentSpanId; parent;) {
    const next = byId.get(parent);
    if (!next) throw new Error(`span ${span.name}: parent ${parent} is not in the trace`);
    chain.push(next);
    parent = next.parentSpanId;
  }
  return chain;
}

test('a payment is one trace: the HTTP request, the route, its SQL and the processor call in one tree; the response names the trace', async () => {
  const checkout = await api.post('/api/v2/checkout', checkoutBody([['MUG', 'Coffee mug', 1250, 1]]));
  expect(checkout.status).toBe(201);
  const paid = await api.post(`/api/v2/test-helpers/checkout/${checkout.body.data.checkout_id}/pay`, {
    card: cards.visa,
  });
  expect(paid.status).toBe(200);
  const traceId = paid.headers.get('x-trace-id')!;
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(traceId).not.toBe('0'.repeat(32));

  const isProcessor = (s: Span) => s.name === 'processor authorize';
  const isRoot = (s: Span) => s.kind === SERVER && !s.parentSpanId;
  const spans = await traceOf(traceId, (all) => all.some(isProcessor) && all.some(isRoot));
  const root = spans.find(isRoot)!;
  expect(root).toBeDefined();
  expect(attribute(root, 'http.method') ?? attribute(root, 'http.request.method')).toBe('POST');

  const processor = spans.find(isProcessor)!;
  expect(attribute(processor, 'payment.processor')).toBe('simulated');
  const up = ancestors(spans, processor);
  expect(up.at(-1)).toBe(root);
  // Between them, the route of Fastify's instrumentation (its handler span names the route template).
  const route = up.find(
    (s) => attribute(s, 'http.route') === '/api/v2/test-helpers/checkout/:checkout_id/pay' && s !== root,
  );
  expect(route).toBeDefined();

  // The SQL of the request (and of the simulated processor's books) hangs in the same tree.
  const sql = spans.filter(
    (s) => attribute(s, 'db.system') === 'postgresql' || attribute(s, 'db.system.name') === 'postgresql',
  );
  expect(sql.length).toBeGreaterThan(0);
  for (const statement of sql) expect(ancestors(spans, statement).at(-1)).toBe(root);
  expect(sql.some((s) => ancestors(spans, s).includes(processor))).toBe(true);
  expect(sql.some((s) => ancestors(spans, s).includes(route!))).toBe(true);
});

test('a GraphQL request is one trace: HTTP, the GraphQL operation, its SQL', async () => {
  const res = await api.graphql('query Shelf { products(first: 1) { nodes { id } } }');
  expect(res.status).toBe(200);
  const traceId = res.headers.get('x-trace-id')!;
  const isOperation = (s: Span) => s.name.startsWith('query') || attribute(s, 'graphql.operation.name') === 'Shelf';
  const spans = await traceOf(
    traceId,
    (all) => all.some(isOperation) && all.some((s) => s.kind === SERVER && !s.parentSpanId),
  );
  const root = spans.find((s) => s.kind === SERVER && !s.parentSpanId)!;
  const operation = spans.find(isOperation)!;
  expect(operation).toBeDefined();
  expect(ancestors(spans, operation).at(-1)).toBe(root);
  const sql = spans.filter(
    (s) => attribute(s, 'db.system') === 'postgresql' || attribute(s, 'db.system.name') === 'postgresql',
  );
  expect(sql.some((s) => ancestors(spans, s).includes(operation))).toBe(true);
});

test("every log line of a request carries its trace and span ids, the response's X-Trace-Id beside X-Request-Id", async () => {
  const res = await api.get('/api/v2/products');
  expect(res.status).toBe(200);
  const requestId = res.headers.get('x-request-id')!;
  const traceId = res.headers.get('x-trace-id')!;
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  let lines: { reqId?: string; trace_id?: string; span_id?: string }[] = [];
  for (let i = 0; i < 50 && lines.length < 2; i++) {
    lines = service
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { reqId?: string; trace_id?: string; span_id?: string })
      .filter((l) => l.reqId === requestId);
    if (lines.length < 2) await new Promise((r) => setTimeout(r, 100));
  }
  expect(lines.length).toBeGreaterThanOrEqual(2); // request received, request completed
  for (const line of lines) {
    expect(line.trace_id).toBe(traceId);
    expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
  }
});

test('without OTEL_* variables nothing is traced: no X-Trace-Id header', async () => {
  const m = await t.merchant('Untraced');
  const res = await client(t.url, m.test_api_key).get('/api/v2/products');
  expect(res.status).toBe(200);
  expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  expect(res.headers.get('x-trace-id')).toBeNull();
});
