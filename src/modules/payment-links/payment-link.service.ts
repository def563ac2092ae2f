import { recordAudit } from '../audit/audit-log.service.js';
import { expireDueRows } from '../../platform/jobs/expiry.js';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { scope, withEm, type Log, type ServiceContext } from '../../platform/context.js';
import { prefixedId } from '../../platform/db/ids.js';
import { DomainError, type FieldError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { createdRange, paginate, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { checkoutType, pricedLines, splitAmounts } from '../checkout/checkout-amounts.js';
import { iiasCategoryOf } from '../products/product-eligibility.js';
import type { CheckoutLineItem } from '../checkout/checkout-session.entity.js';
import { addCheckoutSession, closeCheckoutSession } from '../checkout/checkout.service.js';
import { referencedCustomer } from '../customers/customer.service.js';
import { Product } from '../products/product.entity.js';
import { assertWebhookUrl } from '../webhooks/webhook-url.js';
import {
  PaymentLink,
  type PaymentLinkCustomer,
  type PaymentLinkProduct,
  type PaymentLinkStatus,
} from './payment-link.entity.js';
import { paymentLinkCancelledPayload, paymentLinkExpiredPayload, paymentLinkUrl } from './payment-link.resource.js';
import {
  cancelPaymentLinkSchema,
  createPaymentLinkSchema,
  DEFAULT_LINK_LIFETIME_DAYS,
  listPaymentLinksSchema,
  MAX_LINK_LIFETIME_DAYS,
  type CreatePaymentLinkInput,
  type PaymentLinkFilters,
} from './payment-link.schemas.js';

const DAY_MS = 86_400_000;

const invalid = (details: FieldError[]) =>
  new DomainError('validation_error', `Invalid request: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`, {
    param: details[0].field,
    details,
  });

/** The link's products priced from the catalog; unknown, archived or inactive ones and a foreign currency are refused (422, one entry per product). */
async function catalogProducts(ctx: ServiceContext, input: CreatePaymentLinkInput): Promise<PaymentLinkProduct[]> {
  const wanted = input.products ?? [];
  const found = await ctx.em.find(Product, {
    ...scope(ctx),
    merchantProductId: { $in: [...new Set(wanted.map((p) => p.merchant_product_id))] },
    status: { $ne: 'archived' },
  });
  const byRef = new Map(found.map((p) => [p.merchantProductId!, p]));
  const problems: FieldError[] = [];
  wanted.forEach((w, i) => {
    const product = byRef.get(w.merchant_product_id);
    const field = `products.${i}.merchant_product_id`;
    if (!product) problems.push({ field, message: `no product '${w.merchant_product_id}' in your catalog` });
    else if (product.status !== 'active')
      problems.push({ field, message: `product '${w.merchant_product_id}' is ${product.status} and cannot be sold` });
    else if (product.currency.toLowerCase() !== input.currency)
      problems.push({
        field: 'currency',
        message: `must be the currency of product '${w.merchant_product_id}' (${product.currency})`,
      });
  });
  if (problems.length) throw invalid(problems);
  return wanted.map((w) => {
    const p = byRef.get(w.merchant_product_id)!;
    return {
      merchant_product_id: w.merchant_product_id,
      product_id: p.id,
      name: p.name,
      quantity: w.quantity,
      price: p.price,
      hsa_fsa_eligible: p.hsaFsaEligible,
      requires_lmn: p.requiresLmn,
      iias_category: iiasCategoryOf(p),
    };
  });
}

/** Refuses an `expires_at` in the past or beyond the maximum lifetime (by the caller's clock). */
function expiryOf(ctx: ServiceContext, requested: Date | undefined): Date {
  const now = ctx.now().getTime();
  if (!requested) return new Date(now + DEFAULT_LINK_LIFETIME_DAYS * DAY_MS);
  if (requested.getTime() <= now) throw invalid([{ field: 'expires_at', message: 'must be in the future' }]);
  if (requested.getTime() > now + MAX_LINK_LIFETIME_DAYS * DAY_MS)
    throw invalid([{ field: 'expires_at', message: `must be at most ${MAX_LINK_LIFETIME_DAYS} days from now` }]);
  return requested;
}

/**
 * Creates a payment link and its checkout session in one transaction: products are matched to
 * the catalog (eligibility and the HSA/FSA split apply as in checkout); an `amount` is a single
 * regular pass-through line. A `customer_id` naming no customer is 404 `customer_not_found`.
 */
export async function createPaymentLink(ctx: ServiceContext, body: unknown): Promise<PaymentLink> {
  const input = parseInput(createPaymentLinkSchema, requireObject(body, 'validation_error'));
  if (input.metadata.webhook_url !== undefined)
    await assertWebhookUrl(ctx.principal.livemode, input.metadata.webhook_url, 'metadata.webhook_url');
  const expiresAt = expiryOf(ctx, input.expires_at);
  const products = await catalogProducts(ctx, input);
  let customer: PaymentLinkCustomer | null = input.customer ?? null;
  if (input.customer_id !== undefined) {
    const stored = await referencedCustomer(ctx, input.customer_id);
    customer = { email: stored.email, first_name: stored.firstName, last_name: stored.lastName };
  }
  const now = ctx.now();
  const linkId = prefixedId('plink');
  const lineItems: CheckoutLineItem[] = products.length
    ? products.map((p) => ({
        product_id: p.merchant_product_id,
        name: p.name,
        image_url: null,
        price: p.price,
        quantity: p.quantity,
        currency: input.currency,
        matched_product_id: p.product_id,
        hsa_fsa_eligible: p.hsa_fsa_eligible,
        requires_lmn: p.requires_lmn,
        iias_category: p.iias_category ?? null,
      }))
    : [
        {
          product_id: linkId,
          name: input.description!,
          image_url: null,
          price: input.amount!,
          quantity: 1,
          currency: input.currency,
          matched_product_id: null,
          hsa_fsa_eligible: false,
          requires_lmn: false,
        },
      ];
  const priced = pricedLines(lineItems);
  const amounts = splitAmounts(priced, { shipping: 0, tax: 0, discount: 0 });
  const session = addCheckoutSession(ctx, now, {
    referenceId: linkId,
    paymentLinkId: linkId,
    type: checkoutType(priced),
    customer: customer ?? { email: '', first_name: '', last_name: '' },
    shippingInfo: null, // until the payer gives one (collect_shipping_address), then the order's too
    billingInfo: null,
    lineItems,
    amounts,
    currency: input.currency,
    successUrl: input.success_url ?? paymentLinkUrl(linkId),
    failureUrl: input.cancel_url ?? paymentLinkUrl(linkId),
    metadata: input.metadata,
    paymentType: input.payment_type,
    subscription: input.subscription ?? null,
    expiresAt,
  });
  const link = ctx.em.create(PaymentLink, {
    id: linkId,
    ...scope(ctx),
    paymentType: input.payment_type,
    amount: amounts.total,
    currency: input.currency,
    description: input.description ?? null,
    customer,
    customerEmail: customer?.email.toLowerCase() ?? null,
    customerId: input.customer_id ?? null,
    products,
    collectShippingAddress: input.collect_shipping_address ?? products.length > 0,
    subscription: input.subscription ?? null,
    checkoutId: session.id,
    successUrl: input.success_url ?? null,
    cancelUrl: input.cancel_url ?? null,
    metadata: input.metadata,
    expiresAt,
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  return link;
}

/** One link of the caller by its `plink_` id, or 404 `not_found`. */
export async function getPaymentLink(ctx: ServiceContext, id: string, lock = false): Promise<PaymentLink> {
  const link = await ctx.em.findOne(
    PaymentLink,
    { id, ...scope(ctx) },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!link) throw DomainError.notFound('payment link', id);
  return link;
}

/** The status a link has at the caller's clock (an active link past `expires_at` is expired, even before the sweep runs). */
export function effectiveLinkStatus(ctx: ServiceContext, link: PaymentLink): PaymentLinkStatus {
  return link.status === 'active' && link.expiresAt <= ctx.now() ? 'expired' : link.status;
}

/** Validates list query parameters (400 `invalid_request`). */
export function parseListPaymentLinksQuery(query: unknown): { filters: PaymentLinkFilters; page: PageRequest<string> } {
  const { limit, starting_after, ...filters } = parseInput(listPaymentLinksSchema, query, 'invalid_request');
  return { filters, page: { limit, after: starting_after } };
}

/** A page of the caller's links, newest first; `status` filters on the status at the caller's clock. */
export async function listPaymentLinks(
  ctx: ServiceContext,
  filters: PaymentLinkFilters,
  page: PageRequest<string>,
  cursorParam = 'starting_after',
): Promise<Page<PaymentLink>> {
  const where: FilterQuery<PaymentLink> = { ...scope(ctx) };
  const now = ctx.now();
  if (filters.status === 'active') Object.assign(where, { status: 'active', expiresAt: { $gt: now } });
  else if (filters.status === 'expired')
    Object.assign(where, { $or: [{ status: 'expired' }, { status: 'active', expiresAt: { $lte: now } }] });
  else if (filters.status) where.status = filters.status;
  if (filters.customer_email) where.customerEmail = filters.customer_email.toLowerCase();
  if (filters.payment_type) where.paymentType = filters.payment_type;
  const created = createdRange(filters);
  if (created) where.createdAt = created;
  return paginate(ctx, PaymentLink, where, page, { cursorParam });
}

/**
 * Cancels an active link (`reason` ≤ 500 chars) and closes its checkout; `payment_link.cancelled`.
 * Paid, expired and cancelled links are 400 `invalid_state`: a cancelled link is never reactivated.
 * The link row is locked, so a cancel and a payment never both succeed.
 */
export async function cancelPaymentLink(ctx: ServiceContext, id: string, body: unknown): Promise<PaymentLink> {
  const input = parseInput(cancelPaymentLinkSchema, requireObject(body ?? {}, 'validation_error'));
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const link = await getPaymentLink(tx, id, true);
    const status = effectiveLinkStatus(tx, link);
    if (status !== 'active') {
      throw new DomainError(
        'invalid_state',
        `Payment link ${link.id} is ${status} and cannot be cancelled${status === 'paid' ? '; refund its order instead' : ''}.`,
        {
          param: 'id',
          details: { status },
        },
      );
    }
    const now = tx.now();
    link.status = 'cancelled';
    link.cancelledAt = now;
    link.cancellationReason = input.reason || null;
    link.updatedAt = now;
    await closeCheckoutSession(tx, link.checkoutId, now);
    recordEvent(tx, 'payment_link.cancelled', paymentLinkCancelledPayload(link), {
      webhookUrl: webhookUrlOfLink(link),
    });
    recordAudit(tx, 'payment_link.cancelled', link.id);
    await em.flush();
    return link;
  });
}

/** The link's own `metadata.webhook_url`, if any. */
export function webhookUrlOfLink(link: PaymentLink): string | null {
  return typeof link.metadata.webhook_url === 'string' ? link.metadata.webhook_url : null;
}

/** Marks active links past their `expires_at` (by their merchant's clock) expired, with `payment_link.expired`; returns how many. */
export async function expireDueLinks(orm: MikroORM, nowSql: (alias: string) => string, log: Log): Promise<number> {
  return expireDueRows(
    orm,
    { entity: PaymentLink, table: 'payment_links', status: 'active', nowSql, log },
    (ctx, link) =>
      recordEvent(ctx, 'payment_link.expired', paymentLinkExpiredPayload(link), { webhookUrl: webhookUrlOfLink(link) }),
  );
}
