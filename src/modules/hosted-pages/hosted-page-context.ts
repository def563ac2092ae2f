import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { systemContext, withEm, type Log, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { CheckoutSession } from '../checkout/checkout-session.entity.js';
import { PaymentMethodSetupLink } from '../customers/payment-method-setup-link.entity.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { PaymentLink } from '../payment-links/payment-link.entity.js';

/** What a hosted page acts in: the context of the merchant and mode it belongs to, and who is being paid. */
export interface PageContext {
  ctx: ServiceContext;
  merchantName: string;
}

/** A context on `em` (the page's own fork) in the merchant and mode of `owner`, on the merchant's test clock. */
async function contextOf(
  em: EntityManager,
  owner: { merchant: { id: string }; livemode: boolean },
  requestId: string,
  log: Log,
): Promise<PageContext> {
  const merchant = await em.findOneOrFail(Merchant, owner.merchant.id);
  const ctx = systemContext(em, merchant.id, owner.livemode, Number(merchant.testClockOffsetMs), log);
  return { ctx: withEm(ctx, em, requestId), merchantName: merchant.name };
}

/** A row a hosted page finds by id and the access token in its URL. */
interface TokenOwner {
  id: string;
  accessToken: string;
  merchant: { id: string };
  livemode: boolean;
}

/** The context of the `entity` row with this id and access token, or 404 as `what`: a wrong token is as unknown as a wrong id. */
async function tokenContext<T extends TokenOwner>(
  orm: MikroORM,
  entity: EntityName<T>,
  what: string,
  id: string,
  token: string,
  requestId: string,
  log: Log,
): Promise<PageContext & { row: T }> {
  if (typeof token !== 'string' || token.length < 16) throw DomainError.notFound(what, id);
  const em = orm.em.fork();
  const row = await em.findOne(entity, { id, accessToken: token } as FilterQuery<T>);
  if (!row) throw DomainError.notFound(what, id);
  return { ...(await contextOf(em, row, requestId, log)), row };
}

/** The context a hosted checkout page acts in: found by session id and the link's access token, in the session's merchant and mode. */
export async function hostedCheckoutContext(
  orm: MikroORM,
  id: string,
  token: string,
  requestId: string,
  log: Log,
): Promise<PageContext & { session: CheckoutSession }> {
  const { row: session, ...page } = await tokenContext(
    orm,
    CheckoutSession,
    'checkout session',
    id,
    token,
    requestId,
    log,
  );
  return { ...page, session };
}

/**
 * The context a payment link's hosted page acts in: found by the link id alone (the id in the
 * shared URL is the capability to pay), in the link's merchant and mode, with its checkout.
 */
export async function hostedPaymentLinkContext(
  orm: MikroORM,
  id: string,
  requestId: string,
  log: Log,
): Promise<PageContext & { link: PaymentLink; session: CheckoutSession }> {
  if (!/^plink_[0-9A-Za-z]{24}$/.test(id)) throw DomainError.notFound('payment link', id);
  const em = orm.em.fork();
  const link = await em.findOne(PaymentLink, { id });
  if (!link) throw DomainError.notFound('payment link', id);
  const page = await contextOf(em, link, requestId, log);
  const session = await em.findOneOrFail(CheckoutSession, { id: link.checkoutId });
  return { ...page, link, session };
}

/** The context a card setup (or card-update) link's page acts in: found by link id and its access token, in the link's merchant and mode. */
export async function hostedSetupLinkContext(
  orm: MikroORM,
  id: string,
  token: string,
  requestId: string,
  log: Log,
): Promise<PageContext & { link: PaymentMethodSetupLink }> {
  const { row: link, ...page } = await tokenContext(
    orm,
    PaymentMethodSetupLink,
    'payment method setup link',
    id,
    token,
    requestId,
    log,
  );
  return { ...page, link };
}
