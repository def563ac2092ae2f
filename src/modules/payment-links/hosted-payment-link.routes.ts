import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from '../../platform/rest/error-handler.js';
import { payRouteOptions, protect, routeOptions, sendErrorPage } from '../checkout/hosted-checkout.routes.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { payPaymentLink } from './payment-link-payment.service.js';
import { linkCancelHref, linkSuccessRedirect, renderPaymentLinkPage } from './payment-link-page.js';
import { paymentLinkUrl } from './payment-link.resource.js';
import { effectiveLinkStatus, hostedPaymentLinkContext } from './payment-link.service.js';

interface LinkRoute {
  Params: { id: string };
  Querystring: { client_reference_id?: unknown };
}

const referenceOf = (req: FastifyRequest<LinkRoute>): string | undefined => (typeof req.query.client_reference_id === 'string' ? req.query.client_reference_id : undefined);

/**
 * A payment link's `url` (`GET /pay/:id`, `?client_reference_id=` kept) and the JSON call its
 * script makes to pay (`POST /pay/:id/pay`): the checkout page's second entry point.
 */
export function registerHostedPaymentLinks(http: FastifyInstance, orm: MikroORM): void {
  http.get<LinkRoute>('/pay/:id', routeOptions, async (req, reply) => {
    const nonce = randomBytes(18).toString('base64');
    protect(reply, nonce).type('text/html; charset=utf-8');
    try {
      const { ctx, link, session } = await hostedPaymentLinkContext(orm, req.params.id, req.id, req.log);
      const reference = referenceOf(req);
      const payUrl = `/pay/${encodeURIComponent(link.id)}/pay${reference !== undefined ? `?client_reference_id=${encodeURIComponent(reference)}` : ''}`;
      const merchantName = (await ctx.em.findOne(Merchant, link.merchant.id))?.name; // in the identity map already: no query
      return reply.send(renderPaymentLinkPage(link, session, effectiveLinkStatus(ctx, link), { nonce, payUrl, merchantName }));
    } catch (err) {
      return sendErrorPage(req, reply, err, nonce);
    }
  });

  http.post<LinkRoute>('/pay/:id/pay', payRouteOptions, async (req, reply) => {
    protect(reply);
    try {
      const { ctx, link } = await hostedPaymentLinkContext(orm, req.params.id, req.id, req.log);
      const { outcome } = await payPaymentLink(ctx, link.id, req.body, referenceOf(req));
      if (outcome.ok) return reply.send({ order_id: outcome.order.id, redirect_url: linkSuccessRedirect(link, outcome.order.id, paymentLinkUrl(link.id)) });
      const cancel = linkCancelHref(link);
      return reply.code(outcome.error.status).send({ ...outcome.error.toBody(), ...(cancel && { redirect_url: cancel }) });
    } catch (err) {
      return sendError(req, reply, err);
    }
  });
}
