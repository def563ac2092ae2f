import { client, type Client } from '../helpers/http.js';
import { cards, openCheckout, paidOrder } from '../helpers/fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const TOKEN = 'metrics-test-token-0123456789';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ METRICS_TOKEN: TOKEN });
  await t.reset();
});
afterAll(async () => {
  await t.close();
});

/** One scrape: every sample by `name{labels}` (labels as exposed), and every family's TYPE. */
interface Scrape {
  samples: Map<string, number>;
  types: Map<string, string>;
  text: string;
}

function parse(text: string): Scrape {
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    else if (line && !line.startsWith('#')) {
      const at = line.lastIndexOf(' ');
      samples.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
  }
  return { samples, types, text };
}

async function scrape(
  url = t.url,
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
): Promise<Scrape> {
  const res = await fetch(`${url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await res.text());
}

/** A sample's value (0 when absent: a labelled series appears at its first observation). */
const value = (s: Scrape, series: string) => s.samples.get(series) ?? 0;
const delta = (before: Scrape, after: Scrape, series: string) => value(after, series) - value(before, series);

test('GET /metrics on the API port needs the METRICS_TOKEN bearer: 401 without it or with another', async () => {
  expect((await fetch(`${t.url}/metrics`)).status).toBe(401);
  const wrong = await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer not-the-metrics-token' } });
  expect(wrong.status).toBe(401);
  expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  const m = await t.merchant();
  expect((await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${m.test_api_key}` } })).status).toBe(
    401,
  );
  await scrape();
});

test('without METRICS_TOKEN the API port serves no /metrics', async () => {
  const plain = await startTestApp();
  try {
    const m = await plain.merchant();
    expect(
      (await fetch(`${plain.url}/metrics`, { headers: { authorization: `Bearer ${m.test_api_key}` } })).status,
    ).toBe(404);
  } finally {
    await plain.close();
  }
});

test('METRICS_PORT serves /metrics without a token on a listener of its own (and nothing else there)', async () => {
  const own = await startTestApp({ METRICS_PORT: '0' });
  try {
    const port = own.app.metricsPort();
    expect(port).toBeGreaterThan(0);
    const metrics = `http://127.0.0.1:${port}`;
    const s = await scrape(metrics, {});
    expect(s.types.get('commerce_http_request_duration_seconds')).toBe('histogram');
    expect((await fetch(`${metrics}/api/v2/products`)).status).toBe(404);
    const m = await own.merchant();
    expect((await fetch(`${own.url}/metrics`, { headers: { authorization: `Bearer ${m.test_api_key}` } })).status).toBe(
      404,
    );
  } finally {
    await own.close();
  }
  await expect(fetch(`http://127.0.0.1:${own.app.metricsPort()}/metrics`)).rejects.toThrow();
});

test('scrapes are never rate limited nor counted as requests', async () => {
  const limited = await startTestApp({ METRICS_TOKEN: TOKEN, RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000' });
  try {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${limited.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const s = await scrape(limited.url);
    expect([...s.samples.keys()].filter((k) => k.includes('route="/metrics"'))).toEqual([]);
  } finally {
    await limited.close();
  }
});

test('metric names follow Prometheus conventions: counters end in _total, durations are in seconds, snake_case with one prefix', async () => {
  const s = await scrape();
  const ours = [...s.types].filter(([name]) => name.startsWith('commerce_'));
  expect(ours.length).toBeGreaterThan(15);
  for (const [name, type] of ours) {
    expect(name).toMatch(/^commerce_[a-z][a-z0-9_]*[a-z0-9]$/);
    if (type === 'counter') expect(name).toMatch(/_total$/);
    else expect(name).not.toMatch(/_total$/);
    if (type === 'histogram') expect(name).toMatch(/_seconds$/);
    expect(name).not.toMatch(/_(ms|milliseconds|minutes|hours|bytes_total_bytes)$/);
  }
  // The default process metrics are there too.
  for (const name of [
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_eventloop_lag_seconds',
    'nodejs_heap_size_used_bytes',
  ])
    expect(s.types.has(name)).toBe(true);
});

test('the database gate, the pool and the outbox backlog are read at each scrape', async () => {
  const s = await scrape();
  expect(value(s, 'commerce_database_available')).toBe(1);
  expect(value(s, 'commerce_db_pool_max_connections')).toBe(10);
  expect(s.samples.has('commerce_db_pool_connections{state="in_use"}')).toBe(true);
  expect(s.samples.has('commerce_db_pool_connections{state="idle"}')).toBe(true);
  expect(value(s, 'commerce_db_pool_waiting_requests')).toBe(0);
  for (const name of [
    'commerce_outbox_undispatched_events',
    'commerce_webhook_pending_deliveries',
    'commerce_webhook_oldest_pending_delivery_age_seconds',
    'commerce_outbox_oldest_undispatched_event_age_seconds',
  ])
    expect(s.samples.has(name)).toBe(true);
  expect(s.samples.has('commerce_webhook_dead_letter_deliveries{status="failed"}')).toBe(true);
});

/** `count` payments of a one-item checkout by card (test mode). */
async function pay(api: Client, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const checkout = await openCheckout(api, [['MUG', 'Coffee mug', 1250, 1]]);
    await paidOrder(api, checkout.checkout_id, { card: cards.visa });
  }
}

test('the counters agree with the traffic sent: requests by route template, payments, processor calls, webhook deliveries', async () => {
  const receiver = await startReceiver();
  try {
    const m = await t.merchant('Metered');
    const api = client(t.url, m.test_api_key);
    expect(
      (await api.post('/api/v2/webhook-endpoints', { url: `${receiver.url}/hooks`, events: ['order.created'] })).status,
    ).toBe(201);
    const created = await api.post<{ id: string }>('/api/v2/products', {
      name: 'Thermometer',
      price: 1999,
      currency: 'USD',
    });
    const before = await scrape();

    const N = 7;
    const M = 4;
    for (let i = 0; i < N; i++) expect((await api.get('/api/v2/products')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await api.get(`/api/v2/products/${created.body.id}`)).status).toBe(200);
    expect((await api.get('/api/v2/products/prod_missing')).status).toBe(404);
    await pay(api, M);
    await t.app.http.jobs.runDue(new Date()); // the orders' events become deliveries, each sent once
    expect(receiver.received).toHaveLength(M);
    const after = await scrape();

    const http = (method: string, route: string, status: number) =>
      delta(
        before,
        after,
        `commerce_http_request_duration_seconds_count{method="${method}",route="${route}",status_code="${status}"}`,
      );
    expect(http('GET', '/api/v2/products', 200)).toBe(N);
    expect(http('GET', '/api/v2/products/:id', 200)).toBe(3);
    expect(http('GET', '/api/v2/products/:id', 404)).toBe(1);
    expect(http('POST', '/api/v2/checkout', 201)).toBe(M);
    expect(http('POST', '/api/v2/test-helpers/checkout/:checkout_id/pay', 200)).toBe(M);
    // Raw URLs never become labels: routes are templates.
    const routes = new Set([...after.samples.keys()].map((k) => /route="([^"]*)"/.exec(k)?.[1]).filter(Boolean));
    expect(routes).toContain('/api/v2/products/:id');
    expect([...routes].filter((r) => r!.includes(created.body.id) || r!.includes('prod_missing'))).toEqual([]);
    expect(
      delta(
        before,
        after,
        'commerce_processor_call_duration_seconds_count{processor="simulated",operation="authorize",outcome="ok"}',
      ),
    ).toBe(M);
    expect(delta(before, after, 'commerce_webhook_delivery_attempts_total{outcome="succeeded"}')).toBe(M);
    expect(delta(before, after, 'commerce_webhook_delivery_attempts_total{outcome="failed"}')).toBe(0);
    expect(value(after, 'commerce_webhook_pending_deliveries')).toBe(0);
    expect(value(after, 'commerce_outbox_undispatched_events')).toBe(0);
    expect(delta(before, after, 'commerce_db_statement_duration_seconds_count')).toBeGreaterThan(N + M);
    expect(
      delta(before, after, 'commerce_db_transaction_duration_seconds_count{outcome="commit"}'),
    ).toBeGreaterThanOrEqual(M);
  } finally {
    await receiver.close();
  }
});

test('a refused payment is counted as a refused processor call', async () => {
  const m = await t.merchant('Declined');
  const api = client(t.url, m.test_api_key);
  const before = await scrape();
  const checkout = await openCheckout(api, [['MUG', 'Coffee mug', 1250, 1]]);
  expect(
    (await api.post(`/api/v2/test-helpers/checkout/${checkout.checkout_id}/pay`, { card: cards.declined })).status,
  ).toBe(402);
  const after = await scrape();
  expect(
    delta(
      before,
      after,
      'commerce_processor_call_duration_seconds_count{processor="simulated",operation="authorize",outcome="refused"}',
    ),
  ).toBe(1);
  expect(
    delta(
      before,
      after,
      'commerce_http_request_duration_seconds_count{method="POST",route="/api/v2/test-helpers/checkout/:checkout_id/pay",status_code="402"}',
    ),
  ).toBe(1);
});

test('GraphQL operations are counted by name and outcome', async () => {
  const m = await t.merchant('Graph');
  const api = client(t.url, m.test_api_key);
  const before = await scrape();
  for (let i = 0; i < 3; i++)
    expect((await api.graphql('query Shelf { products(first: 1) { nodes { id } } }')).body.errors).toBeUndefined();
  await api.graphql('{ products(first: 1) { nodes { id } } }');
  expect((await api.graphql('query Broken { products(first: 1) { nodes { nope } } }')).body.errors).toBeDefined();
  const after = await scrape();
  expect(
    delta(before, after, 'commerce_graphql_operations_total{operation="Shelf",type="query",outcome="success"}'),
  ).toBe(3);
  expect(
    delta(before, after, 'commerce_graphql_operations_total{operation="anonymous",type="query",outcome="success"}'),
  ).toBe(1);
  expect(
    delta(before, after, 'commerce_graphql_operations_total{operation="Broken",type="query",outcome="error"}'),
  ).toBe(1);
  expect(delta(before, after, 'commerce_graphql_operation_duration_seconds_count{type="query"}')).toBe(5);
});

test('job runs are counted per job and each job reports its lag behind schedule', async () => {
  const before = await scrape();
  await t.app.http.jobs.start();
  try {
    // Agenda runs every recurring job once at start.
    let after = before;
    const job = 'webhooks.deliver';
    for (
      let i = 0;
      i < 100 &&
      delta(before, after, `commerce_job_runs_total{job="${job}",trigger="scheduled",outcome="success"}`) < 1;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 200));
      after = await scrape();
    }
    expect(delta(before, after, `commerce_job_runs_total{job="${job}",trigger="scheduled",outcome="success"}`)).toBe(1);
    expect(delta(before, after, `commerce_job_run_duration_seconds_count{job="${job}"}`)).toBe(1);
    expect(after.samples.get(`commerce_job_lag_seconds{job="${job}"}`)).toBeGreaterThanOrEqual(0);
  } finally {
    await t.app.http.jobs.stop();
  }
});
