/**
 * The entry point (`npm start`, `node dist/src/main.js`): tracing first, when the `OTEL_*`
 * variables ask for it (its instrumentations must hook fastify, pg and graphql before they are
 * imported), then the service (server.ts).
 */
import { startTracing } from './platform/observability/tracing.js';

try {
  await startTracing();
} catch (err) {
  process.stderr.write(`failed to start tracing: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
}
await import('./server.js');
