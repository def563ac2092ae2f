import type { RateLimitOptions } from '@fastify/rate-limit';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import { DomainError, toDomainError } from '../../platform/errors.js';
import { sendError } from '../../platform/rest/error-handler.js';
import { securePage } from '../../platform/rest/page-headers.js';
import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { HttpResult } from '../../platform/rest/routes.js';
import { PAY_ATTEMPTS, payAttemptsExceeded } from '../checkout/checkout-page-token.js';
import type { AdyenWebEnvironment } from '../processor-accounts/processor-account.service.js';
import { adyenWebOrigins } from './card-entry-page.js';
import { renderErrorPage, renderNotFoundPage, type PageOptions } from './hosted-page.js';

/**
 * The Content Security Policy of a hosted page, the one place it is decided. A test-mode page (and
 * every page without card entry) runs only the pages' script and stylesheet, files of this origin
 * (hosted-page-assets.ts: nothing inline), and calls only this origin. A live-mode page with Adyen
 * Web (`adyenWeb`, its environment) adds what Adyen documents Adyen Web needs, and nothing else:
 * - script and style from this origin as well: the card-entry module, Adyen Web's bundle and CSS (no CDN);
 * - frames: the secured card fields from Adyen's checkoutshopper origin, and 3-D Secure 2, whose
 *   device fingerprinting and challenge are the card issuer's pages (any https origin, which is
 *   why Adyen tells payment pages to allow every https frame) reached by a form post (form-action);
 * - calls to Adyen Web's API, its CDN (translations) and its analytics origin (the checkout
 *   attempt id); images stay as they are (https, Adyen's card logos included).
 */
export function hostedPageCsp(adyenWeb?: AdyenWebEnvironment): string {
  if (!adyenWeb) {
    return "default-src 'none'; script-src 'self'; style-src 'self'; img-src https: http: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
  }
  const adyen = adyenWebOrigins(adyenWeb);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    'img-src https: http: data:',
    `connect-src 'self' ${adyen.api} ${adyen.cdn} ${adyen.analytics}`,
    `frame-src ${adyen.api} https:`,
    "form-action 'self' https:",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers of a hosted page (`page`) or of its JSON calls: no caching, no framing, no referrer (the URL holds the token); a page's CSP is `hostedPageCsp`'s. */
export function protect(reply: FastifyReply, page?: { adyenWeb?: AdyenWebEnvironment }): FastifyReply {
  return securePage(reply, page ? hostedPageCsp(page.adyenWeb) : `default-src 'none'; frame-ancestors 'none'`);
}

/** A rendered page: its HTML, and the Adyen Web environment when it takes cards with Adyen Web (live mode). */
export type RenderedPage = string | { html: string; adyenWeb: AdyenWebEnvironment };

/** The hosted page of a not-found or failed lookup (`notFound` renders the first), never JSON and never a stack. */
export function sendErrorPage(
  req: FastifyRequest,
  reply: FastifyReply,
  err: unknown,
  notFound: (opts: PageOptions) => string = renderNotFoundPage,
): FastifyReply {
  const { error, unexpected } = toDomainError(err);
  if (unexpected) req.log.error({ err }, 'hosted checkout page failed');
  if (error.code === 'not_found') return reply.code(404).send(notFound({}));
  return reply.code(unexpected ? 500 : error.status).send(renderErrorPage({ requestId: req.id }));
}

/** The handler of a page: the HTML `render` builds, or the error page (`notFound` for an unknown id or token). */
export function pageHandler<G extends RouteGenericInterface>(
  render: (req: FastifyRequest<G>, orm: MikroORM) => Promise<RenderedPage>,
  notFound?: (opts: PageOptions) => string,
): PublicRoute<G>['handler'] {
  return async (req, reply, orm) => {
    protect(reply, {}).type('text/html; charset=utf-8');
    try {
      const page = await render(req, orm);
      if (typeof page === 'string') return reply.send(page);
      return protect(reply, { adyenWeb: page.adyenWeb }).send(page.html);
    } catch (err) {
      return sendErrorPage(req, reply, err, notFound);
    }
  };
}

/** The handler of the JSON call a page's script makes to pay: `pay`'s answer (an `HttpResult` for a status of its own), or the API's error body. */
export function payHandler<G extends RouteGenericInterface>(
  pay: (req: FastifyRequest<G>, orm: MikroORM) => Promise<unknown>,
): PublicRoute<G>['handler'] {
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

/** The limit on card attempts of a page (`what` names it to the shopper), per page and network: card testing through a leaked link. */
function cardAttemptsLimit(message: (max: number, wait: number) => string): RateLimitOptions {
  return {
    max: PAY_ATTEMPTS.max,
    timeWindow: PAY_ATTEMPTS.windowMs,
    keyGenerator: (req: FastifyRequest) => `pay:${req.ip}:${(req.params as { id: string }).id}`,
    // Said to a shopper: what is limited is this page from this network, not an API key.
    errorResponseBuilder: (_req: FastifyRequest, context: { max: number; ttl: number }) => {
      const wait = Math.max(1, Math.ceil(context.ttl / 1000));
      return new DomainError('rate_limit_exceeded', message(context.max, wait), {
        headers: { 'Retry-After': String(wait) },
      });
    },
  };
}

// Test mode's pay routes (the API's payment routes limit a page's token alike).
export const payRateLimit = cardAttemptsLimit(payAttemptsExceeded);

/** The card setup and card-update pages' submit call: the same limit, said of saving a card. */
export const cardSetupRateLimit = cardAttemptsLimit(
  (max, wait) =>
    `Too many card attempts on this page from your network (at most ${max} a minute). Nothing was saved or charged; wait ${wait} seconds and try again.`,
);
