import client from 'prom-client';

/**
 * The service's Prometheus metrics (`GET /metrics`, see metrics-endpoint.ts): one registry per
 * process, Prometheus naming (`commerce_` prefix, counters end in `_total`, durations are
 * histograms in `_seconds`, their `_count` is the number of observations), few buckets and
 * bounded labels (route templates, never raw URLs) so recording stays cheap on the hot paths.
 * The platform defines the metrics; modules record into them, and register samplers (`onScrape`)
 * for what is read at scrape time (the outbox backlog).
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

/** Buckets (seconds) of request-sized work: HTTP requests, GraphQL operations, processor calls, transactions. */
const REQUEST_BUCKETS = [0.005, 0.025, 0.1, 0.5, 2.5, 10];
/** Buckets (seconds) of one SQL statement. */
const STATEMENT_BUCKETS = [0.001, 0.005, 0.025, 0.1, 0.5, 2.5];
/** Buckets (seconds) of one job run. */
const JOB_BUCKETS = [0.1, 1, 10, 60, 300];

export const httpRequestDuration = new client.Histogram({
  name: 'commerce_http_request_duration_seconds',
  help: 'HTTP requests served, by method, route template and status code (the _count is the number of requests).',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});

export const graphqlOperations = new client.Counter({
  name: 'commerce_graphql_operations_total',
  help: 'GraphQL operations executed over HTTP, by operation name (anonymous, or other beyond the first 200 names), type and outcome (success, partial: data with errors, error: no data).',
  labelNames: ['operation', 'type', 'outcome'] as const,
  registers: [registry],
});

export const graphqlOperationDuration = new client.Histogram({
  name: 'commerce_graphql_operation_duration_seconds',
  help: 'GraphQL operations over HTTP, parse to response, by operation type.',
  labelNames: ['type'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});

export const dbStatementDuration = new client.Histogram({
  name: 'commerce_db_statement_duration_seconds',
  help: 'SQL statements sent to PostgreSQL by the request pool (the _count is the number of statements).',
  buckets: STATEMENT_BUCKETS,
  registers: [registry],
});

export const dbTransactionDuration = new client.Histogram({
  name: 'commerce_db_transaction_duration_seconds',
  help: 'Database transactions (begin to commit or rollback), by outcome (commit, rollback).',
  labelNames: ['outcome'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});

export const dbPoolConnections = new client.Gauge({
  name: 'commerce_db_pool_connections',
  help: 'Connections of the request pool to PostgreSQL, by state (in_use, idle).',
  labelNames: ['state'] as const,
  registers: [registry],
});

export const dbPoolWaiting = new client.Gauge({
  name: 'commerce_db_pool_waiting_requests',
  help: 'Units of work waiting for a connection of the request pool.',
  registers: [registry],
});

export const dbPoolMax = new client.Gauge({
  name: 'commerce_db_pool_max_connections',
  help: 'Most connections the request pool opens (DB_POOL_MAX).',
  registers: [registry],
});

export const databaseAvailable = new client.Gauge({
  name: 'commerce_database_available',
  help: '1 while PostgreSQL is reachable; 0 while the database gate answers every request that needs it 503 service_unavailable.',
  registers: [registry],
});

export const admissionRunning = new client.Gauge({
  name: 'commerce_admission_running',
  help: 'Admission-controlled work (payments) running now, by gate.',
  labelNames: ['gate'] as const,
  registers: [registry],
});

export const admissionWaiting = new client.Gauge({
  name: 'commerce_admission_waiting',
  help: 'Admission-controlled work (payments) waiting for a slot, by gate.',
  labelNames: ['gate'] as const,
  registers: [registry],
});

export const admissionRefusals = new client.Counter({
  name: 'commerce_admission_refusals_total',
  help: 'Work refused by an admission gate (answered 429 rate_limit_exceeded with Retry-After), by gate.',
  labelNames: ['gate'] as const,
  registers: [registry],
});

export const jobRuns = new client.Counter({
  name: 'commerce_job_runs_total',
  help: 'Job (sweep) runs in this process, by job, trigger (scheduled, kicked) and outcome (success, failure).',
  labelNames: ['job', 'trigger', 'outcome'] as const,
  registers: [registry],
});

export const jobRunDuration = new client.Histogram({
  name: 'commerce_job_run_duration_seconds',
  help: 'Job (sweep) runs in this process, by job.',
  labelNames: ['job'] as const,
  buckets: JOB_BUCKETS,
  registers: [registry],
});

export const jobLag = new client.Gauge({
  name: 'commerce_job_lag_seconds',
  help: 'How far behind its schedule each recurring job is, across every worker (now minus its next due time; 0 when not overdue).',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const processorCalls = new client.Histogram({
  name: 'commerce_processor_call_duration_seconds',
  help: 'Payment processor calls, by processor (simulated, adyen), operation and outcome (ok, refused, action_required, error) (the _count is the number of calls).',
  labelNames: ['processor', 'operation', 'outcome'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});

export const outboxUndispatchedEvents = new client.Gauge({
  name: 'commerce_outbox_undispatched_events',
  help: 'Events not yet fanned out to webhook deliveries.',
  registers: [registry],
});

export const outboxOldestUndispatchedAge = new client.Gauge({
  name: 'commerce_outbox_oldest_undispatched_event_age_seconds',
  help: 'Age of the oldest event not yet fanned out (0 when none).',
  registers: [registry],
});

export const webhookPendingDeliveries = new client.Gauge({
  name: 'commerce_webhook_pending_deliveries',
  help: 'Webhook deliveries not yet delivered (due now or waiting for a retry).',
  registers: [registry],
});

export const webhookOldestPendingAge = new client.Gauge({
  name: 'commerce_webhook_oldest_pending_delivery_age_seconds',
  help: 'Age of the oldest webhook delivery not yet delivered (0 when none).',
  registers: [registry],
});

export const webhookDeadLetters = new client.Gauge({
  name: 'commerce_webhook_dead_letter_deliveries',
  help: 'Webhook deliveries in the dead letter until replayed or purged, by status (failed: every retry failed; dead_letter: its endpoint was disabled while queued).',
  labelNames: ['status'] as const,
  registers: [registry],
});

export const webhookAttempts = new client.Counter({
  name: 'commerce_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts sent by this process, by outcome (succeeded, failed).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookDeadLettered = new client.Counter({
  name: 'commerce_webhook_dead_lettered_total',
  help: 'Webhook deliveries whose last attempt (by this process) failed: every retry spent, now in the dead letter as failed.',
  registers: [registry],
});

/** Something read when `/metrics` is scraped (pool state, the outbox backlog); it sets its gauges. */
export type Sampler = () => void | Promise<void>;

const samplers = new Map<string, Sampler>();

/**
 * Runs `sampler` before each scrape, under `key`: a later registration under the same key
 * replaces it (one per app). Returns the function that removes it (if it is still the one).
 */
export function onScrape(key: string, sampler: Sampler): () => void {
  samplers.set(key, sampler);
  return () => {
    if (samplers.get(key) === sampler) samplers.delete(key);
  };
}

/** How long a sampler may take before the scrape goes on without it (its gauges keep their last values). */
const SAMPLER_TIMEOUT_MS = 2_000;

/** The exposition: every sampler run (failures and slow ones skipped), then the registry in Prometheus text format. */
export async function renderMetrics(): Promise<string> {
  await Promise.all(
    [...samplers.values()].map((sample) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, SAMPLER_TIMEOUT_MS)));
      return Promise.race([Promise.resolve().then(sample), timeout])
        .catch(() => undefined)
        .finally(() => clearTimeout(timer));
    }),
  );
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
