import { expireDueRows } from '../../platform/jobs/expiry.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import { LockMode, wrap, type EntityDictionary, type FilterQuery, type RequiredEntityData } from '@mikro-orm/core';
import { scope, type Log, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { insertTogether, queryRows } from '../../platform/db/sql.js';
import { newEvent, recordEvent } from '../../platform/events/events.service.js';
import { createdRange, paginate, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { assertWebhookUrl } from '../webhooks/webhook-url.js';
import { readProductsByMerchantIds } from '../products/product.read-model.js';
import { iiasCategoryOf } from '../products/product-eligibility.js';
import { checkoutType, pricedLines, splitAmounts } from './checkout-amounts.js';
import type { Address } from '../shared/address.js';
import { CheckoutSession, type CheckoutCustomer, type CheckoutLineItem } from './checkout-session.entity.js';
import { toCheckoutResource } from './checkout.resource.js';
import { createCheckoutSchema } from './checkout.schemas.js';

/** Sessions can be paid for 24 hours. */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Matches line items to catalog products by merchant_product_id (one query); unmatched items pass through as regular. */
async function matchLineItems(
  ctx: ServiceContext,
  items: {
    product_id: string;
    name: string;
    image_url?: string | null;
    price: number;
    quantity: number;
    currency: string;
  }[],
): Promise<CheckoutLineItem[]> {
  const ids = [...new Set(items.map((i) => i.product_id))];
  const products = await readProductsByMerchantIds(ctx, ids);
  const byRef = new Map(products.map((p) => [p.merchantProductId!, p]));
  const inactive = items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => byRef.get(item.product_id)?.status === 'inactive');
  if (inactive.length) {
    throw new DomainError(
      'validation_error',
      `Invalid request: ${inactive.length} line item(s) refer to inactive products`,
      {
        param: `line_items.${inactive[0].index}.product_id`,
        details: inactive.map(({ item, index }) => ({
          field: `line_items.${index}.product_id`,
          message: `product '${item.product_id}' is inactive and cannot be sold`,
        })),
      },
    );
  }
  return items.map((item) => {
    const product = byRef.get(item.product_id);
    return {
      product_id: item.product_id,
      name: item.name,
      image_url: item.image_url ?? null,
      price: item.price,
      quantity: item.quantity,
      currency: item.currency,
      matched_product_id: product?.id ?? null,
      hsa_fsa_eligible: product?.hsaFsaEligible ?? false,
      requires_lmn: product?.requiresLmn ?? false,
      iias_category: product ? iiasCategoryOf(product) : null,
    };
  });
}

/** What a checkout session is made of, whoever opens it (the checkout API, a payment link). */
export type CheckoutSessionDraft = Omit<
  RequiredEntityData<CheckoutSession>,
  'merchant' | 'livemode' | 'createdAt' | 'updatedAt'
>;

/** A new session of the caller's merchant and mode (the one place one is built), in the caller's unit of work unless `persist` is false. */
export function addCheckoutSession(
  ctx: ServiceContext,
  at: Date,
  draft: CheckoutSessionDraft,
  persist = true,
): CheckoutSession {
  return ctx.em.create(CheckoutSession, { ...draft, ...scope(ctx), createdAt: at, updatedAt: at }, { persist });
}

/** Closes an open session its owner cancelled (a payment link): it can no longer be paid. Locks the session (after the owner's lock). */
export async function closeCheckoutSession(ctx: ServiceContext, id: string, at: Date): Promise<void> {
  const session = await ctx.em.findOne(CheckoutSession, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (session?.status === 'open') {
    session.status = 'expired';
    session.updatedAt = at;
  }
}

/** Creates a checkout session: matches items, decides the type and the HSA/FSA split, expires in 24 h. */
export async function createCheckoutSession(ctx: ServiceContext, body: unknown): Promise<CheckoutSession> {
  const input = parseInput(createCheckoutSchema, requireObject(body, 'bad_request'), 'validation_error', 'bad_request');
  if (input.metadata.webhook_url !== undefined)
    await assertWebhookUrl(ctx.principal.livemode, input.metadata.webhook_url, 'metadata.webhook_url');
  const lineItems = await matchLineItems(ctx, input.line_items);
  const priced = pricedLines(lineItems);
  const now = ctx.now();
  const session = addCheckoutSession(
    ctx,
    now,
    {
      referenceId: input.reference_id,
      type: checkoutType(priced),
      customer: {
        email: input.customer.email,
        first_name: input.customer.first_name,
        last_name: input.customer.last_name,
        phone: input.customer.phone ?? null,
      },
      shippingInfo: input.shipping_info,
      billingInfo: input.billing_info ?? input.shipping_info,
      lineItems,
      amounts: splitAmounts(priced, { shipping: input.shipping, tax: input.tax, discount: input.discount }),
      currency: input.line_items[0].currency,
      successUrl: input.success_url,
      failureUrl: input.failure_url,
      metadata: input.metadata,
      paymentType: input.payment_type,
      subscription: input.subscription ?? null,
      expiresAt: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
    },
    false,
  );
  // The session and its event in one statement.
  await insertTogether(ctx.em, [
    session,
    newEvent(ctx, 'checkout.created', toCheckoutResource(session), { webhookUrl: webhookUrlOf(session) }),
  ]);
  return session;
}

/** The checkout's own `metadata.webhook_url`, if any. */
export function webhookUrlOf(session: CheckoutSession): string | null {
  return typeof session.metadata.webhook_url === 'string' ? session.metadata.webhook_url : null;
}

/** Where an order's events also go: its checkout's `metadata.webhook_url`, if any. */
export async function webhookUrlForOrder(
  ctx: ServiceContext,
  order: { checkoutId: string | null },
): Promise<string | null> {
  if (!order.checkoutId) return null;
  const session = await ctx.em.findOne(CheckoutSession, { id: order.checkoutId, ...scope(ctx) });
  return session ? webhookUrlOf(session) : null;
}

/** One session of the caller's by id, every column (the read `getCheckoutSession` maps onto the entity). */
const SESSION_BY_ID = 'select * from checkout_sessions where id = $1 and merchant_id = $2 and livemode = $3';

/**
 * Loads one session of the caller (`true`: locked for the caller's transaction; `'fresh'`: read
 * again even if this context has it), or 404 `not_found`. Unlocked, it is one statement on the pg
 * driver merged into the context's identity map (`em.findOne` builds a query and hydrates through
 * the query builder: about three times the CPU on the pay path), with what `findOne` does around
 * it: this context's pending session changes flushed first, and a session it already holds kept
 * as it is (`'fresh'`: refreshed from the row).
 */
export async function getCheckoutSession(
  ctx: ServiceContext,
  id: string,
  read: boolean | 'fresh' = false,
): Promise<CheckoutSession> {
  if (read === true) {
    const locked = await ctx.em.findOne(
      CheckoutSession,
      { id, ...scope(ctx) },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!locked) throw DomainError.notFound('checkout session', id, 'checkout_id');
    return locked;
  }
  await ctx.em.tryFlush(CheckoutSession, {});
  const [row] = await queryRows<EntityDictionary<CheckoutSession>>(ctx, {
    name: 'checkout_session_by_id',
    text: SESSION_BY_ID,
    values: [id, ctx.principal.merchantId, ctx.principal.livemode],
  });
  if (!row) throw DomainError.notFound('checkout session', id, 'checkout_id');
  const held = read === 'fresh' ? undefined : ctx.em.getUnitOfWork().getById<CheckoutSession>(CheckoutSession.name, id);
  return held && wrap(held).isInitialized() ? held : ctx.em.map(CheckoutSession, row);
}

/** The status a session has at the caller's clock (an open session past its expiry is expired). */
export function effectiveStatus(ctx: ServiceContext, session: CheckoutSession): CheckoutSession['status'] {
  return session.status === 'open' && session.expiresAt <= ctx.now() ? 'expired' : session.status;
}

/**
 * A page of the caller's sessions, newest first (the console's list of checkouts); `status` is the
 * status at the caller's clock (`open` leaves out sessions past their expiry).
 */
export async function listCheckoutSessions(
  ctx: ServiceContext,
  filters: { status?: CheckoutSession['status']; created_after?: Date; created_before?: Date },
  page: PageRequest<string>,
  cursorParam = 'after',
): Promise<Page<CheckoutSession>> {
  const where: FilterQuery<CheckoutSession> = { ...scope(ctx) };
  const now = ctx.now();
  if (filters.status === 'open') Object.assign(where, { status: 'open', expiresAt: { $gt: now } });
  else if (filters.status === 'expired')
    Object.assign(where, { $or: [{ status: 'expired' }, { status: 'open', expiresAt: { $lte: now } }] });
  else if (filters.status) where.status = filters.status;
  const created = createdRange(filters);
  if (created) where.createdAt = created;
  return paginate(ctx, CheckoutSession, where, page, { cursorParam });
}

/**
 * Readies a session its owner (a payment link) is about to pay, under the session's row lock (the
 * owner's lock first, see `PayOptions`): with `subscription` the payment starts one on those
 * terms; `customer` is the payer, for a session that named none; `address` is the payer's, the
 * session's (and so the order's) shipping and billing address.
 */
export async function prepareSessionForPayment(
  ctx: ServiceContext,
  id: string,
  changes: { subscription?: CheckoutSession['subscription']; customer?: CheckoutCustomer; address?: Address },
): Promise<void> {
  if (changes.subscription === undefined && !changes.customer && !changes.address) return;
  const session = await ctx.em.findOneOrFail(CheckoutSession, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (changes.subscription !== undefined && session.paymentType !== 'subscription') {
    session.paymentType = 'subscription';
    session.subscription = changes.subscription;
  }
  if (changes.customer) session.customer = changes.customer;
  if (changes.address) session.shippingInfo = session.billingInfo = changes.address;
}

/** Marks open sessions past their expiry (by their merchant's clock) as expired; returns how many. */
export async function expireDueSessions(orm: MikroORM, nowSql: (alias: string) => string, log: Log): Promise<number> {
  return expireDueRows(
    orm,
    { entity: CheckoutSession, table: 'checkout_sessions', status: 'open', nowSql, log },
    (ctx, session) =>
      recordEvent(ctx, 'checkout.expired', toCheckoutResource(session), { webhookUrl: webhookUrlOf(session) }),
  );
}
