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
  app.addHook('onRequest', async (req) => {
    if (!health.available && !req.routeOptions.config?.withoutDatabase) throw databaseUnavailable();
  });
  app.addHook('onError', async (_req, _reply, err) => {
    if (isDatabaseUnavailable(err)) health.suspect(err);
  });
}

/**
 * The same for GraphQL: a resolver that could not reach the database makes `health` probe it,
 * and a response that has no data because of it is a 503 with `Retry-After`, as on REST.
 */
export function databaseHealthPlugin(health: DatabaseHealth): ApolloServerPlugin {
  return {
    async requestDidStart() {
      let unavailable = false;
      return {
        async didEncounterErrors({ errors }) {
          const err = errors.map((e) => unwrapResolverError(e)).find(isDatabaseUnavailable);
          if (!err) return;
          unavailable = true;
          health.suspect(err);
        },
        async willSendResponse({ response }) {
          if (!unavailable) return;
          response.http.headers.set('retry-after', '1');
          if (response.body.kind === 'single' && response.body.singleResult.data == null) response.http.status = 503;
        },
      };
    },
  };
}
