import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { securePage } from '../../platform/rest/page-headers.js';
import { DomainError, toDomainError } from '../../platform/errors.js';
import { sendError } from '../../platform/rest/error-handler.js';
import { payCheckoutSession } from './checkout-payment.service.js';
import { effectiveStatus, hostedCheckoutContext } from './checkout.service.js';
import { withQuery } from './hosted-page-html.js';
import { renderCheckoutPage, renderErrorPage, renderNotFoundPage } from './hosted-page.js';

interface HostedRoute {
  Params: { id: string };
  Querystring: { token?: unknown };
}

// Public (the access token in the link is the capability) and kept out of the OpenAPI document.
export const routeOptions = { config: { public: true }, schema: { hide: true } };

// Card testing through a leaked link: at most 10 payment attempts a minute per session and address.
export const payRouteOptions = {
  config: {
    public: true,
    rateLimit: {
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
    },
  },
  schema: { hide: true },
};

const tokenOf = (req: FastifyRequest<HostedRoute>): string => (typeof req.query.token === 'string' ? req.query.token : '');

/** Headers of every hosted-page answer: no caching, no framing, no referrer (the URL holds the token). */
export function protect(reply: FastifyReply, nonce?: string): FastifyReply {
  const csp = nonce
    ? `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src https: http: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`
    : `default-src 'none'; frame-ancestors 'none'`;
  return securePage(reply, csp);
}

/** The hosted page of a not-found or failed lookup, never JSON and never a stack. */
export function sendErrorPage(req: FastifyRequest, reply: FastifyReply, err: unknown, nonce: string): FastifyReply {
  const { error, unexpected } = toDomainError(err);
  if (unexpected) req.log.error({ err }, 'hosted checkout page failed');
  if (error.code === 'not_found') return reply.code(404).send(renderNotFoundPage({ nonce }));
  return reply.code(unexpected ? 500 : error.status).send(renderErrorPage({ nonce, requestId: req.id }));
}

/**
 * The hosted checkout page at `checkout_url` (`GET /checkout/:id?token=…`) and the JSON call its
 * script makes to pay (`POST /checkout/:id/pay?token=…`, body `payCheckoutSchema`).
 */
export function registerHostedCheckout(http: FastifyInstance, orm: MikroORM): void {
  http.get<HostedRoute>('/checkout/:id', routeOptions, async (req, reply) => {
    const nonce = randomBytes(18).toString('base64');
    protect(reply, nonce).type('text/html; charset=utf-8');
    try {
      const { ctx, session, merchantName } = await hostedCheckoutContext(orm, req.params.id, tokenOf(req), req.id, req.log);
      const payUrl = `/checkout/${encodeURIComponent(session.id)}/pay?token=${encodeURIComponent(tokenOf(req))}`;
      return reply.send(renderCheckoutPage(session, effectiveStatus(ctx, session), { nonce, payUrl, merchantName }));
    } catch (err) {
      return sendErrorPage(req, reply, err, nonce);
    }
  });

  http.post<HostedRoute>('/checkout/:id/pay', payRouteOptions, async (req, reply) => {
    protect(reply);
    try {
      const { ctx, session } = await hostedCheckoutContext(orm, req.params.id, tokenOf(req), req.id, req.log);
      const outcome = await payCheckoutSession(ctx, session.id, req.body);
      if (outcome.ok) {
        const orderId = outcome.order.id;
        return reply.send({ order_id: orderId, redirect_url: withQuery(session.successUrl, { checkout_id: session.id, order_id: orderId }) });
      }
      return reply.code(outcome.error.status).send({ ...outcome.error.toBody(), redirect_url: withQuery(session.failureUrl, { checkout_id: session.id }) });
    } catch (err) {
      return sendError(req, reply, err);
    }
  });
}
