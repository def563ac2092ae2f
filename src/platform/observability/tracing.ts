import { enableSpans } from './spans.js';

/**
 * OpenTelemetry tracing, configured only through the standard `OTEL_*` variables and off when
 * none asks for it: on when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 * is set, or `OTEL_TRACES_EXPORTER` names an exporter (`otlp`, `console`, …); `OTEL_SDK_DISABLED=true`
 * turns it off. Off, nothing of the SDK is even loaded. On, the SDK (exporter, sampler, resource,
 * propagators: all from `OTEL_*`) traces HTTP, Fastify, pg and GraphQL, plus our spans of job runs
 * and processor calls (spans.ts).
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER;
  if (exporter) return exporter.split(',').some((e) => e.trim() && e.trim() !== 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

let shutdown: (() => Promise<void>) | undefined;

/**
 * Starts tracing if the environment asks for it. Must run before the instrumented modules
 * (fastify, pg, graphql) are imported: the entry point (main.ts) awaits it, then imports the
 * service. ESM imports are hooked through `import-in-the-middle`, for the instrumented modules only.
 */
export async function startTracing(): Promise<void> {
  if (!tracingRequested()) return;
  const { register } = await import('node:module');
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const [
    { NodeSDK },
    { HttpInstrumentation },
    { PgInstrumentation },
    { GraphQLInstrumentation },
    { FastifyOtelInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-graphql'),
    import('@fastify/otel'),
  ]);
  process.env.OTEL_SERVICE_NAME ??= 'commerce-api';
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation(),
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
      // Statements' text without their values (the instrumentation never records parameters).
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      // Resolvers of plain fields would drown a trace in spans: only what resolves through our code (a field with a resolver).
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  enableSpans();
  shutdown = () => sdk.shutdown();
}

/** Flushes and stops tracing (at shutdown: the last spans are exported). */
export async function stopTracing(): Promise<void> {
  await shutdown?.().catch(() => undefined);
  shutdown = undefined;
}
