import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { FastifyInstance } from 'fastify';
import { isDatabaseUnavailable, type DatabaseHealth } from '../db/database-health.js';
import { databaseUnavailable } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without PostgreSQL (health, metrics, static documents): answered during an outage. */
    withoutDatabase?: boolean;
  }
}

/**
 * While the database is down, every route that needs it answers 503 `service_unavailable` with
 * `Retry-After` at once (no request waits for a connection that cannot come); any request that
 * fails to reach the database makes `health` probe it. Registered before authentication.
 */
export function registerDatabaseGate(app: FastifyInstance, health: DatabaseHealth): void {
  app.addHook('onRequest', (req, _reply, done) => {
    if (!health.available && !req.routeOptions.config?.withoutDatabase) return done(databaseUnavailable());
    done();
  });
  app.addHook('onError', (_req, _reply, err, done) => {
    if (isDatabaseUnavailable(err)) health.suspect(err);
    done();
  });
}

/**
 * The same for GraphQL: a resolver that could not reach the database makes `health` probe it,
 * and a response that has no data because of it is a 503 with `Retry-After`, as on REST.
 */
export function databaseHealthPlugin(health: DatabaseHealth): ApolloServerPlugin {
  return {
    requestDidStart() {
      let unavailable = false;
      return Promise.resolve({
        didEncounterErrors({ errors }) {
          const err = errors.map((e) => unwrapResolverError(e)).find(isDatabaseUnavailable);
          if (err) {
            unavailable = true;
            health.suspect(err);
          }
          return Promise.resolve();
        },
        willSendResponse({ response }) {
          if (unavailable) {
            response.http.headers.set('retry-after', '1');
            if (response.body.kind === 'single' && response.body.singleResult.data == null) response.http.status = 503;
          }
          return Promise.resolve();
        },
      });
    },
  };
}
