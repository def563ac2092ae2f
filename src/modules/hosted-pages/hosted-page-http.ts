import { randomBytes } from 'node:crypto';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import { DomainError, toDomainError } from '../../platform/errors.js';
import { sendError } from '../../platform/rest/error-handler.js';
import { securePage } from '../../platform/rest/page-headers.js';
import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { HttpResult } from '../../platform/rest/routes.js';
import { renderErrorPage, renderNotFoundPage, type PageOptions } from './hosted-page.js';

/** Headers of every hosted-page answer: no caching, no framing, no referrer (the URL holds the token). */
export function protect(reply: FastifyReply, nonce?: string): FastifyReply {
  const csp = nonce
    ? `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src https: http: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`
    : `default-src 'none'; frame-ancestors 'none'`;
  return securePage(reply, csp);
}

/** The hosted page of a not-found or failed lookup (`notFound` renders the first), never JSON and never a stack. */
export function sendErrorPage(req: FastifyRequest, reply: FastifyReply, err: unknown, nonce: string, notFound: (opts: PageOptions) => string = renderNotFoundPage): FastifyReply {
  const { error, unexpected } = toDomainError(err);
  if (unexpected) req.log.error({ err }, 'hosted checkout page failed');
  if (error.code === 'not_found') return reply.code(404).send(notFound({ nonce }));
  return reply.code(unexpected ? 500 : error.status).send(renderErrorPage({ nonce, requestId: req.id }));
}

/** The handler of a page: the HTML `render` builds (its inline style and script carry `nonce`), or the error page (`notFound` for an unknown id or token). */
export function pageHandler<G extends RouteGenericInterface>(
  render: (req: FastifyRequest<G>, orm: MikroORM, nonce: string) => Promise<string>,
  notFound?: (opts: PageOptions) => string,
): PublicRoute<G>['handler'] {
  return async (req, reply, orm) => {
    const nonce = randomBytes(18).toString('base64');
    protect(reply, nonce).type('text/html; charset=utf-8');
    try {
      return reply.send(await render(req, orm, nonce));
    } catch (err) {
      return sendErrorPage(req, reply, err, nonce, notFound);
    }
  };
}

/** The handler of the JSON call a page's script makes to pay: `pay`'s answer (an `HttpResult` for a status of its own), or the API's error body. */
export function payHandler<G extends RouteGenericInterface>(pay: (req: FastifyRequest<G>, orm: MikroORM) => Promise<unknown>): PublicRoute<G>['handler'] {
  return async (req, reply, orm) => {
    protect(reply);
    try {
      const out = await pay(req, orm);
      return out instanceof HttpResult ? reply.code(out.status).send(out.body) : reply.send(out);
    } catch (err) {
      return sendError(req, reply, err);
    }
  };
}

// Card testing through a leaked link: at most 10 payment attempts a minute per page and address.
export const payRateLimit: RateLimitOptions = {
  max: 10,
  timeWindow: 60_000,
  keyGenerator: (req: FastifyRequest) => `pay:${req.ip}:${(req.params as { id: string }).id}`,
  // Said to a shopper: what is limited is this checkout from this network, not an API key.
  errorResponseBuilder: (_req: FastifyRequest, context: { max: number; ttl: number }) => {
    const wait = Math.max(1, Math.ceil(context.ttl / 1000));
    return new DomainError(
      'rate_limit_exceeded',
      `Too many payment attempts for this checkout from your network (at most ${context.max} a minute). Nothing was charged; wait ${wait} seconds and try again.`,
      {
        headers: { 'Retry-After': String(wait) },
      },
    );
  },
};
