import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import rateLimit from '@fastify/rate-limit';
import type { MikroORM } from '@mikro-orm/postgresql';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Config } from './config/config.js';
import { configureLivePayments, EMAIL_SWEEP, publicRoutes, resolvers, restRoutes } from './modules/index.js';
import { consoleSessionAuth, consoleWsSessionAuth, registerConsoleSessions } from './modules/team/console-session.js';
import {
  authenticate,
  forgetAllPrincipals,
  forgetMerchant,
  PRINCIPALS_CHANNEL,
  recordKeyUse,
} from './modules/merchants/merchant.service.js';
import { randomBase62 } from './platform/db/ids.js';
import { DomainError } from './platform/errors.js';
import type { JobRunner } from './platform/jobs/jobs.js';
import { rememberPublicUrl, setPublicUrl } from './platform/links.js';
import type { GraphContext } from './platform/graphql/context.js';
import { noStoreCacheControl } from './platform/graphql/cache-control.js';
import { queryCost } from './platform/graphql/complexity.js';
import { CostBuckets } from './platform/graphql/cost-bucket.js';
import {
  graphqlErrorFormatter,
  httpRequestRules,
  MAX_DOCUMENT_TOKENS,
  noNulInStrings,
} from './platform/graphql/errors.js';
import { registerGraphqlRoute } from './platform/graphql/http.js';
import { combineRequestPlugins } from './platform/graphql/plugins.js';
import { buildGraphSchema } from './platform/graphql/schema.js';
import { configureRetention } from './platform/retention.js';
import { registerGraphqlWs, startLiveEvents } from './platform/pubsub/live-events.js';
import { webhookDeliverySweep } from './modules/webhooks/webhook.jobs.js';
import { DELIVERIES_CHANNEL } from './modules/webhooks/webhook.service.js';
import { registerAuth } from './platform/rest/auth.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './platform/rest/error-handler.js';
import { databaseHealthPlugin, registerDatabaseGate } from './platform/rest/database-gate.js';
import { DatabaseHealth } from './platform/db/database-health.js';
import { registerCsvBodyParser, registerInputGuards, registerJsonBodyParser } from './platform/rest/input-guards.js';
import { registerOpenApi } from './platform/rest/openapi.js';
import { postgresRateLimitStore } from './platform/rest/rate-limit-store.js';
import { registerFavicon } from './platform/rest/favicon.js';
import { registerPublicRoutes } from './platform/rest/public-routes.js';
import { registerRoutes } from './platform/rest/routes.js';
import {
  registerHttpMetrics,
  registerMetricsRoute,
  startMetricsServer,
} from './platform/observability/metrics-endpoint.js';
import { databaseAvailable, onScrape } from './platform/observability/metrics.js';
import { poolSampler } from './platform/observability/db-metrics.js';
import { activeTraceIds } from './platform/observability/spans.js';
import { graphqlMetrics } from './platform/observability/graphql-metrics.js';
import { sampleWebhookBacklog } from './modules/webhooks/webhook-metrics.js';
import { createLogger, requestLogger } from './platform/logging.js';
import { registerProbes } from './platform/rest/probes.js';

export interface App {
  http: FastifyInstance;
  schema: GraphQLSchema;
  apollo: ApolloServer<GraphContext>;
  /** Whether PostgreSQL is reachable, as this process sees it. */
  health: DatabaseHealth;
  /** The port of the metrics listener of its own (METRICS_PORT) once listening; undefined without one. */
  metricsPort(): number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The sweeps runner (test helpers run due work through it). */
    jobs: JobRunner;
  }
}

/** Builds the HTTP service (REST, GraphQL, health, OpenAPI) on an open ORM; does not listen. `log`: the process's logger (one at LOG_LEVEL otherwise). */
export async function buildApp(
  config: Config,
  orm: MikroORM,
  jobs: JobRunner,
  log: FastifyBaseLogger = createLogger(config.LOG_LEVEL),
): Promise<App> {
  const genReqId = () => `req_${randomBase62(20)}`;
  const http = Fastify({
    loggerInstance: log,
    childLoggerFactory: requestLogger,
    genReqId,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    clientErrorHandler: clientErrorHandler(genReqId),
    return503OnClosing: true,
  });
  // Input is validated by the services (one definition shared with GraphQL); route schemas only document.
  http.setValidatorCompiler(() => (data: unknown) => ({ value: data }));
  http.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // While shutting down, answers close their connection so keep-alive clients let the server go.
  let closing = false;
  http.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  http.addHook('onSend', (req, reply, _payload, done) => {
    reply.header('X-Request-Id', req.id);
    // Beside the request id, the trace it belongs to (when tracing): the id to look it up by in the tracing back end.
    const trace = activeTraceIds();
    if (trace) reply.header('X-Trace-Id', trace.traceId);
    if (closing) reply.header('Connection', 'close');
    done();
  });

  setPublicUrl(config.publicUrl);
  configureRetention(config);
  configureLivePayments(config);
  http.decorate('jobs', jobs);
  registerErrorHandling(http);
  const health = new DatabaseHealth(orm.config.get('clientUrl'), http.log);
  // API keys' last use reaches the database once a minute (and at shutdown), never per request.
  const writeKeyUse = () =>
    recordKeyUse(orm.em.fork()).catch((err: unknown) => http.log.warn({ err }, 'could not record API key use'));
  const keyUseTimer = setInterval(() => void writeKeyUse(), 60_000).unref();
  http.addHook('onClose', async () => {
    clearInterval(keyUseTimer);
    if (health.available) await writeKeyUse();
    health.close();
  });
  registerHttpMetrics(http);
  registerDatabaseGate(http, health);
  const metricsPort = observe(http, config, orm, health);
  registerJsonBodyParser(http);
  registerCsvBodyParser(http);
  registerInputGuards(http);
  await registerConsoleSessions(http, orm);
  await rememberPublicUrl(orm.em.fork(), config.publicUrl);
  registerAuth(http, orm, authenticate, consoleSessionAuth);
  // Public pages are not limited per key; those that need a limit (paying) declare their own. The
  // others get no limiter at all (rather than an allow-list consulted on every request).
  http.addHook('onRoute', (route) => {
    if (route.config?.public && !route.config.rateLimit) route.config = { ...route.config, rateLimit: false };
  });
  await http.register(rateLimit, {
    hook: 'preHandler',
    store: postgresRateLimitStore(orm),
    max: (req) => req.ctx?.principal.rateLimit?.max ?? config.RATE_LIMIT_MAX,
    timeWindow: (req) => req.ctx?.principal.rateLimit?.windowMs ?? config.RATE_LIMIT_WINDOW_MS,
    keyGenerator: (req) => req.ctx?.principal.keyId ?? req.ip,
    errorResponseBuilder: (req, context) => {
      const wait = Math.max(1, Math.ceil(context.ttl / 1000));
      const own = req.ctx?.principal.rateLimit;
      return new DomainError(
        'rate_limit_exceeded',
        own
          ? own.message(context.max, wait)
          : `Too many requests: at most ${context.max} per ${context.after} per API key. Retry after ${Math.ceil(context.ttl / 1000)} s.`,
        {
          headers: { 'Retry-After': String(wait) },
        },
      );
    },
  });
  await registerOpenApi(http, config.publicUrl);

  if (config.METRICS_TOKEN) registerMetricsRoute(http, config.METRICS_TOKEN);

  registerFavicon(http);
  registerPublicRoutes(http, orm, publicRoutes);
  registerRoutes(http, restRoutes);

  // LISTEN: events reach websocket subscribers of every process; new events and retries prompt delivery.
  const live = await startLiveEvents(http, orm, {
    listenUrl: config.DATABASE_LISTEN_URL,
    hintChannels: ['events', DELIVERIES_CHANNEL, 'emails'],
    // A new event needs its fan-out (and the sends it made); a retry or a replay, a whole run; a new email, its send.
    onHint: (channel) =>
      channel === 'emails'
        ? jobs.kick(EMAIL_SWEEP, 'prompt')
        : jobs.kick(webhookDeliverySweep.name, channel === DELIVERIES_CHANNEL ? 'run' : 'prompt'),
    channels: { [PRINCIPALS_CHANNEL]: forgetMerchant },
    // A key revoked or a test clock moved elsewhere may have gone unheard: keys are looked up afresh.
    onMissed: forgetAllPrincipals,
  });
  // A dropped LISTEN connection is the first sign of a database restart; its return reconnects at once.
  live.listener.onLost((err) => health.suspect(err));
  health.onAvailable(() => live.listener.reconnectNow());
  // Liveness and the database, checked over the LISTEN connection (never queued behind the pool),
  // or over a probe connection of its own while that one reconnects.
  http.get(
    '/healthz',
    { config: { public: true, withoutDatabase: true }, schema: { hide: true } },
    async (_req, reply) => {
      const up = health.available && (live.listener.connected ? await live.listener.ping() : await health.probe());
      if (up) return { status: 'ok', database: 'ok' };
      health.suspect();
      return reply.code(503).header('Retry-After', '1').send({ status: 'unavailable', database: 'unreachable' });
    },
  );
  registerProbes(http, orm, health, live.listener);
  const schema = await buildGraphSchema(resolvers, live.pubSub);
  const apollo = new ApolloServer<GraphContext>({
    schema,
    introspection: config.GRAPHQL_INTROSPECTION,
    formatError: graphqlErrorFormatter(http.log),
    // One request listener for all of ours (Apollo awaits each listener at every stage); no federation trace.
    plugins: combineRequestPlugins([
      graphqlMetrics(),
      queryCost(new CostBuckets(orm, config.GRAPHQL_COST_BUCKET, config.GRAPHQL_COST_RESTORE_RATE, http.log)),
      httpRequestRules(),
      databaseHealthPlugin(health),
      ...noStoreCacheControl(),
      ApolloServerPluginInlineTraceDisabled(),
    ]),
    validationRules: [noNulInStrings],
    parseOptions: { maxTokens: MAX_DOCUMENT_TOKENS },
    includeStacktraceInErrorResponses: false,
  });
  await apollo.start();
  registerGraphqlRoute(http, apollo, schema);
  registerGraphqlWs(http, schema, orm, authenticate, consoleWsSessionAuth(http, orm));

  return { http, schema, apollo, health, metricsPort };
}

/**
 * What `/metrics` reads when scraped (the pool, the database gate, the outbox backlog, read only
 * while the database is reachable), and the metrics listener of its own (METRICS_PORT), which
 * starts and stops with the service.
 */
function observe(
  http: FastifyInstance,
  config: Config,
  orm: MikroORM,
  health: DatabaseHealth,
): () => number | undefined {
  const stop = [
    onScrape('db-pool', poolSampler(orm)),
    onScrape('database', () => databaseAvailable.set(health.available ? 1 : 0)),
    onScrape('outbox', () => (health.available ? sampleWebhookBacklog(orm) : undefined)),
  ];
  let server: Server | undefined;
  let port: number | undefined;
  if (config.METRICS_PORT !== undefined) {
    const wanted = config.METRICS_PORT;
    // At ready (awaited by listen), so the port is known once the service listens.
    http.addHook('onReady', async () => {
      server = await startMetricsServer(wanted, config.HOST);
      port = (server.address() as AddressInfo).port;
      http.log.info({ port }, 'metrics listener started');
    });
  }
  http.addHook('onClose', async () => {
    for (const off of stop) off();
    if (server) await new Promise((resolve) => server!.close(resolve));
  });
  return () => port;
}
