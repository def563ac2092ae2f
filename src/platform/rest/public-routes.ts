import type { RateLimitOptions } from '@fastify/rate-limit';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';

/**
 * A route outside `/api/v2` that answers without an API key: a hosted page and the call its script
 * makes, the dashboard and its bundle, a signed receipt link. What it may do is what its URL grants
 * (an access token, a link id, a signature), so its handler builds its own context from the ORM
 * and answers in its own format (HTML, a PDF, JSON). Kept out of the OpenAPI document and out of
 * the per-key rate limit.
 */
export interface PublicRoute<G extends RouteGenericInterface = RouteGenericInterface> {
  method: 'GET' | 'POST';
  url: string;
  /** Answers while the database is unreachable (it reads none). */
  withoutDatabase?: boolean;
  /** A limit of its own (public routes have none otherwise), e.g. payment attempts per page and network. */
  rateLimit?: RateLimitOptions;
  handler(req: FastifyRequest<G>, reply: FastifyReply, orm: MikroORM): Promise<unknown>;
}

/** Registers public routes (see `PublicRoute`); `orm` is what their handlers build a context from. */
export function registerPublicRoutes(app: FastifyInstance, orm: MikroORM, routes: PublicRoute[]): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      config: {
        public: true,
        ...(route.withoutDatabase && { withoutDatabase: true }),
        ...(route.rateLimit && { rateLimit: route.rateLimit }),
      },
      schema: { hide: true },
      handler: (req, reply) => route.handler(req, reply, orm),
    });
  }
}
