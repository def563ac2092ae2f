import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../errors.js';
import { httpRequestDuration, METRICS_CONTENT_TYPE, renderMetrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Not counted in the HTTP metrics (the metrics route itself). */
    unmetered?: boolean;
  }
}

/**
 * Records every HTTP request answered (`commerce_http_request_duration_seconds`) by method, route
 * template (`/api/v2/products/:id`; `unmatched` for a 404 of no route) and status code. Fastify
 * times the request itself (`reply.elapsedTime`): one hook, one observation per request.
 */
export function registerHttpMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions;
    if (!route.config?.unmetered)
      httpRequestDuration.observe(
        { method: req.method, route: route.url ?? 'unmatched', status_code: reply.statusCode },
        reply.elapsedTime / 1000,
      );
    done();
  });
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics` on the API port for a scraper that presents `Authorization: Bearer <token>`
 * (METRICS_TOKEN); 401 otherwise. Public to API key authentication and the rate limit, served
 * during a database outage, and not counted in the HTTP metrics.
 */
export function registerMetricsRoute(app: FastifyInstance, token: string): void {
  const expected = digest(`Bearer ${token}`);
  app.get(
    '/metrics',
    { config: { public: true, withoutDatabase: true, unmetered: true }, schema: { hide: true } },
    async (req, reply) => {
      const presented = req.headers.authorization;
      if (!presented || !timingSafeEqual(digest(presented), expected)) {
        throw new DomainError('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.', {
          headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
        });
      }
      return reply.type(METRICS_CONTENT_TYPE).send(await renderMetrics());
    },
  );
}

/**
 * A listener of its own (METRICS_PORT) answering `GET /metrics` without a token: for a port that
 * only the scraper reaches (not published beside the API). Anything else is 404.
 */
export async function startMetricsServer(port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res
        .writeHead(404, { 'Content-Type': 'text/plain' })
        .end('Not found: the metrics listener serves GET /metrics only.\n');
      return;
    }
    renderMetrics().then(
      (text) => res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE }).end(text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
