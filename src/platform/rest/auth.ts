import type { MikroORM } from '@mikro-orm/postgresql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createContext, lazyChildLog, type Authenticator, type PageAuthorizer, type Principal } from '../context.js';

/**
 * Resolves a request without an Authorization header by a signed-in session (the console's
 * cookie, CSRF-checked on every state-changing request), or null when it carries none. The team
 * module provides it.
 */
export type SessionAuthenticator = (em: EntityManager, req: FastifyRequest, reply: FastifyReply) => Promise<Principal | null>;

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
 * service context (a fresh EntityManager fork, the merchant and mode, the test clock). Without an
 * Authorization header, a route with `pageAuth` also takes the hosted page's capability, and every
 * route a signed-in console session (`sessionAuth`).
 */
export function registerAuth(app: FastifyInstance, orm: MikroORM, authenticate: Authenticator, sessionAuth?: SessionAuthenticator): void {
  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config?.public) return;
    const anonymous = req.headers.authorization === undefined;
    const pageAuth = anonymous ? req.routeOptions.config?.pageAuth : undefined;
    const principal = (pageAuth && (await pageAuth(orm.em, req))) || (anonymous && sessionAuth && (await sessionAuth(orm.em, req, reply))) || (await authenticate(orm.em, req.headers.authorization));
    // A copy per request (the cached principal is shared); the actor gains the request's address.
    req.ctx = createContext(
      orm.em,
      { ...principal, ...(principal.actor && { actor: { ...principal.actor, ip: req.ip } }) },
      req.id,
      lazyChildLog(req.log, { merchant: principal.merchantId, livemode: principal.livemode }),
    );
  });
}
