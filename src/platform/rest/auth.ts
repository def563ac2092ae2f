import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { createContext, type Principal } from '../context.js';
import { authenticate } from '../../modules/merchants/merchant.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without an API key (health, OpenAPI, hosted pages). */
    public?: boolean;
  }
}

/** A short cache of key hash → principal so each request does not pay a query for its key. */
const CACHE_MS = 30_000;

/**
 * Checks `Authorization: Bearer` on every route not marked public and gives the request its
 * service context (a fresh EntityManager fork, the merchant and mode, the test clock).
 */
export function registerAuth(app: FastifyInstance, orm: MikroORM): void {
  const cache = new Map<string, { principal: Principal; until: number }>();
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.public) return;
    const header = req.headers.authorization;
    const hit = header ? cache.get(header) : undefined;
    let principal: Principal;
    if (hit && hit.until > Date.now()) {
      principal = hit.principal;
    } else {
      principal = await authenticate(orm.em, header);
      if (cache.size > 10_000) cache.clear();
      cache.set(header!, { principal, until: Date.now() + CACHE_MS });
    }
    req.ctx = createContext(orm.em, principal, req.id, req.log.child({ merchant: principal.merchantId, livemode: principal.livemode }));
  });
}
