import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { createContext, lazyChildLog, type Authenticator, type PageAuthorizer } from '../context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without an API key (health, OpenAPI, hosted pages). */
    public?: boolean;
    /** Also served, without an API key, to the hosted page this authorises (see `PageAuthorizer`). */
    pageAuth?: PageAuthorizer;
  }
}

/**
 * Checks `Authorization: Bearer` on every route not marked public and gives the request its
 * service context (a fresh EntityManager fork, the merchant and mode, the test clock). A route
 * with `pageAuth` also takes, when no Authorization header is sent, the hosted page's capability.
 */
export function registerAuth(app: FastifyInstance, orm: MikroORM, authenticate: Authenticator): void {
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.public) return;
    const pageAuth = req.headers.authorization === undefined ? req.routeOptions.config?.pageAuth : undefined;
    const principal = (pageAuth && (await pageAuth(orm.em, req))) || (await authenticate(orm.em, req.headers.authorization));
    req.ctx = createContext(orm.em, { ...principal }, req.id, lazyChildLog(req.log, { merchant: principal.merchantId, livemode: principal.livemode }));
  });
}
