import type { MikroORM } from '@mikro-orm/postgresql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createContext, lazyChildLog, type Authenticator, type PageAuthorizer, type Principal } from '../context.js';

/**
 * Resolves a request without an Authorization header by a signed-in session (the console's
 * cookie, CSRF-checked on every state-changing request), or null when it carries none. The team
 * module provides it.
 */
export type SessionAuthenticator = (
  em: EntityManager,
  req: FastifyRequest,
  reply: FastifyReply,
) => Promise<Principal | null>;

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
export function registerAuth(
  app: FastifyInstance,
  orm: MikroORM,
  authenticate: Authenticator,
  sessionAuth?: SessionAuthenticator,
): void {
  // A copy per request (the cached principal is shared); the actor gains the request's address.
  const attach = (req: FastifyRequest, principal: Principal) => {
    req.ctx = createContext(
      orm.em,
      { ...principal, ...(principal.actor && { actor: { ...principal.actor, ip: req.ip } }) },
      req.id,
      lazyChildLog(req.log, { merchant: principal.merchantId, livemode: principal.livemode }),
    );
  };
  const anonymousPrincipal = async (req: FastifyRequest, reply: FastifyReply): Promise<Principal> => {
    const pageAuth = req.routeOptions.config?.pageAuth;
    return (
      (pageAuth && (await pageAuth(orm.em, req))) ||
      (sessionAuth && (await sessionAuth(orm.em, req, reply))) ||
      authenticate(orm.em, undefined)
    );
  };
  // Callback style, not async: a request with a cached API key (nearly all) is authenticated without a promise.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.routeOptions.config?.public) return done();
    let principal: Principal | Promise<Principal>;
    try {
      principal =
        req.headers.authorization === undefined
          ? anonymousPrincipal(req, reply)
          : authenticate(orm.em, req.headers.authorization);
    } catch (err) {
      return done(err as Error);
    }
    if (!(principal instanceof Promise)) {
      attach(req, principal);
      return done();
    }
    principal
      .then((found) => attach(req, found))
      .then(
        () => done(),
        (err: Error) => done(err),
      );
  });
}
