import { recordAudit } from '../audit/audit-log.service.js';
import type { FilterQuery } from '@mikro-orm/core';
import { scope, withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { Event } from '../../platform/events/event.entity.js';
import { createdRange, paginate, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { Customer, PaymentMethod } from '../customers/customer.entity.js';
import { referencedCustomer } from '../customers/customer.service.js';
import { usablePaymentMethod } from '../customers/payment-method.service.js';
import type { PaymentMethodSetupLink } from '../customers/payment-method-setup-link.entity.js';
import { addSetupLink } from '../customers/payment-method-setup-link.service.js';
import { Product } from '../products/product.entity.js';
import { trialEnd } from './subscription-calendar.js';
import { prepareChargeOf, runCharges, type ChargeJob } from './subscription-billing.js';
import { endSubscription } from './subscription-ending.js';
import { recordSubscriptionEvent } from './subscription-events.js';
import { lockSubscription } from './subscription-lock.js';
import { Subscription, SubscriptionInvoice, SubscriptionInvoiceAttempt } from './subscription.entity.js';
import { cancelDecision, isRescuable } from './subscription-lifecycle.js';
import {
  cancelSubscriptionSchema,
  createSubscriptionSchema,
  listSubscriptionsSchema,
  replacePaymentMethodSchema,
  updateSubscriptionSchema,
  type CreateSubscriptionInput,
  type SubscriptionFilters,
} from './subscription.schemas.js';

const invalid = (field: string, message: string) => DomainError.field(field, message);

/** The catalog product a subscription sells (by `product_id` or `merchant_product_id`), or null. */
async function resolveProduct(
  ctx: ServiceContext,
  input: Pick<CreateSubscriptionInput, 'product_id' | 'merchant_product_id' | 'currency'>,
): Promise<Product | null> {
  if (input.product_id === undefined && input.merchant_product_id === undefined) return null;
  const product =
    input.product_id !== undefined
      ? await ctx.em.findOne(Product, { id: input.product_id, ...scope(ctx) })
      : await ctx.em.findOne(Product, {
          merchantProductId: input.merchant_product_id,
          status: { $ne: 'archived' },
          ...scope(ctx),
        });
  const param = input.product_id !== undefined ? 'product_id' : 'merchant_product_id';
  if (!product) throw DomainError.notFound('product', (input.product_id ?? input.merchant_product_id)!, param);
  if (
    input.product_id !== undefined &&
    input.merchant_product_id !== undefined &&
    product.merchantProductId !== input.merchant_product_id
  ) {
    throw invalid('merchant_product_id', `does not match product ${product.id}`);
  }
  if (product.status !== 'active') throw invalid(param, `names a product that is ${product.status}`);
  if (product.currency.toUpperCase() !== input.currency)
    throw invalid('currency', `must be the product's currency (${product.currency.toUpperCase()})`);
  return product;
}

/** An HSA/FSA card may pay only for an HSA/FSA-eligible product (as in checkout). */
function assertCardFits(pm: PaymentMethod, eligible: boolean, param = 'payment_method_id'): void {
  if (pm.type === 'hsa_fsa_card' && !eligible) {
    throw new DomainError(
      'invalid_payment_method',
      `Payment method ${pm.id} is an HSA/FSA card, which may pay only for an HSA/FSA-eligible product; this subscription's product is not eligible. Use a regular card.`,
      { param },
    );
  }
}

/**
 * Commits `prepare` (step 1 of a charge) in a short transaction, then charges with none open.
 * A request never holds two pooled connections: when the caller already runs in a transaction
 * (an idempotent request's), `prepare` nests in it as a savepoint on the same connection (a fork
 * would not: MikroORM's `fork()` drops the transaction context and asks the pool for another).
 * Such a caller may only make changes that charge nothing; routes that charge run their own
 * transactions (`ownTransactions`).
 */
async function chargeAfterCommit(
  ctx: ServiceContext,
  prepare: (em: ServiceContext['em']) => Promise<ChargeJob[]>,
): Promise<void> {
  const jobs = await ctx.em.transactional(prepare);
  if (!jobs.length) return;
  if (ctx.em.isInTransaction())
    throw new Error(
      "a subscription charge was prepared inside the caller's transaction; its route must run its own transactions (ownTransactions)",
    );
  await runCharges(ctx.em, jobs, ctx.log);
}

/**
 * Creates a subscription (201). With `trial_period_days` it is `trialing` and first charged at
 * `trial_end`; without, the first cycle is charged at once and it is `active` (or failing, per
 * the disposition of the refusal). The customer must exist (404 `customer_not_found`) and the
 * payment method be one of theirs, attached and usable (400 `invalid_payment_method`).
 */
export async function createSubscription(
  ctx: ServiceContext,
  body: unknown,
  source: { checkoutId?: string } = {},
): Promise<Subscription> {
  const input = parseInput(createSubscriptionSchema, requireObject(body), 'validation_error', 'invalid_request');
  const customer = await referencedCustomer(ctx, input.customer_id);
  const pm = await usablePaymentMethod(ctx, input.payment_method_id, customer.id);
  const product = await resolveProduct(ctx, input);
  assertCardFits(pm, product?.hsaFsaEligible ?? false);
  const now = ctx.now();
  const trialDays = input.trial_period_days ?? 0;
  const trialEndsAt = trialDays > 0 ? trialEnd(now, trialDays) : null;
  let id = '';
  await chargeAfterCommit(ctx, async (em) => {
    const sub = em.create(Subscription, {
      ...scope(ctx),
      customerId: customer.id,
      paymentMethodId: pm.id,
      productId: product?.id ?? null,
      merchantProductId: product?.merchantProductId ?? input.merchant_product_id ?? null,
      description: product?.name ?? 'Subscription',
      hsaFsaEligible: product?.hsaFsaEligible ?? false,
      requiresLmn: product?.requiresLmn ?? false,
      amountCents: input.amount_cents,
      currency: input.currency,
      interval: input.interval,
      intervalCount: input.interval_count,
      trialPeriodDays: input.trial_period_days ?? null,
      trialEnd: trialEndsAt,
      status: trialEndsAt ? 'trialing' : 'active',
      anchorAt: trialEndsAt ?? now,
      periodIndex: -1,
      currentPeriodStart: now,
      currentPeriodEnd: trialEndsAt ?? now,
      nextChargeAt: trialEndsAt ?? now,
      checkoutId: source.checkoutId ?? null,
      metadata: input.metadata,
      createdAt: now,
      updatedAt: now,
    });
    id = sub.id;
    const jobs = trialEndsAt ? [] : await prepareChargeOf(ctx, em, sub);
    recordSubscriptionEvent(withEm(ctx, em), 'subscription.created', sub, customer, pm);
    await em.flush();
    return jobs;
  });
  return getSubscription(ctx, id);
}

/** One subscription of the caller as committed now (re-read, on the caller's connection or transaction), or 404 `not_found`. */
export async function getSubscription(ctx: ServiceContext, id: string): Promise<Subscription> {
  const sub = await ctx.em.findOne(Subscription, { id, ...scope(ctx) }, { refresh: true });
  if (!sub) throw DomainError.notFound('subscription', id);
  return sub;
}

/** The payment methods of subscriptions (for their `payment_method` object), in one query. */
export async function paymentMethodsOf(ctx: ServiceContext, subs: Subscription[]): Promise<Map<string, PaymentMethod>> {
  const ids = [...new Set(subs.map((s) => s.paymentMethodId))];
  const rows = ids.length ? await ctx.em.find(PaymentMethod, { id: { $in: ids }, ...scope(ctx) }) : [];
  return new Map(rows.map((pm) => [pm.id, pm]));
}

/** Validates list query parameters (400 `invalid_request`). */
export function parseListSubscriptionsQuery(query: unknown) {
  const { limit, starting_after, ...filters } = parseInput(listSubscriptionsSchema, query, 'invalid_request');
  return { filters, page: { limit, after: starting_after } satisfies PageRequest<string> };
}

/** A page of the caller's subscriptions, newest first (the renewal polling route). */
export async function listSubscriptions(
  ctx: ServiceContext,
  filters: SubscriptionFilters,
  page: PageRequest<string>,
  cursorParam = 'starting_after',
): Promise<Page<Subscription>> {
  const where: FilterQuery<Subscription> = { ...scope(ctx) };
  if (filters.status) where.status = filters.status;
  if (filters.customer_id) where.customerId = filters.customer_id;
  const created = createdRange(filters);
  if (created) where.createdAt = created;
  return paginate(ctx, Subscription, where, page, { cursorParam });
}

/** Runs `change` on the subscription locked in a short transaction; returns it re-read. */
async function withLocked(
  ctx: ServiceContext,
  id: string,
  change: (
    tx: ServiceContext,
    sub: Subscription,
    parties: { customer: Customer | null; pm: PaymentMethod | null },
  ) => Promise<ChargeJob[] | void>,
): Promise<Subscription> {
  await chargeAfterCommit(ctx, async (em) => {
    const sub = await lockSubscription(ctx, em, id);
    const [customer, pm] = await Promise.all([
      em.findOne(Customer, sub.customerId),
      em.findOne(PaymentMethod, sub.paymentMethodId),
    ]);
    const jobs = (await change(withEm(ctx, em), sub, { customer, pm })) ?? [];
    sub.updatedAt = ctx.now();
    await em.flush();
    return jobs;
  });
  return getSubscription(ctx, id);
}

/** Reverses a scheduled cancellation (`subscription.resumed`); anything else is 400 `invalid_state`. */
async function resumeLocked(
  tx: ServiceContext,
  sub: Subscription,
  customer: Customer | null,
  pm: PaymentMethod | null,
): Promise<void> {
  if (sub.status === 'cancelled' || !sub.cancelAtPeriodEnd) {
    throw new DomainError(
      'invalid_state',
      `Subscription ${sub.id} has no scheduled cancellation to reverse (status ${sub.status}).`,
      { param: 'cancel_at_period_end' },
    );
  }
  sub.cancelAtPeriodEnd = false;
  sub.cancelledAt = null;
  sub.cancellationReason = null;
  // Back to the billing schedule: the next renewal at the period end, or the open cycle's retry.
  if (sub.status === 'trialing' || sub.status === 'active') sub.nextChargeAt = sub.currentPeriodEnd;
  else if (sub.openInvoiceId && sub.status === 'past_due')
    sub.nextChargeAt = (await tx.em.findOne(SubscriptionInvoice, sub.openInvoiceId))?.nextRetryAt ?? null;
  else if (sub.status !== 'disputed') sub.nextChargeAt = null;
  recordSubscriptionEvent(tx, 'subscription.resumed', sub, customer, pm);
}

/** Schedules the end at the period end (no event until it ends). */
function scheduleEnd(tx: ServiceContext, sub: Subscription, reason: string | null): void {
  sub.cancelAtPeriodEnd = true;
  sub.cancelledAt = tx.now();
  sub.cancellationReason = reason;
  if (sub.status !== 'disputed')
    sub.nextChargeAt =
      sub.nextChargeAt && sub.nextChargeAt < sub.currentPeriodEnd ? sub.nextChargeAt : sub.currentPeriodEnd;
}

/**
 * `PUT /subscriptions/{id}`: `amount_cents` (from the next cycle on), `metadata` (replaced) and
 * `cancel_at_period_end` (true schedules the end; false reverses a scheduled end).
 */
export async function updateSubscription(ctx: ServiceContext, id: string, body: unknown): Promise<Subscription> {
  const input = parseInput(updateSubscriptionSchema, requireObject(body), 'validation_error', 'invalid_request');
  return withLocked(ctx, id, async (tx, sub, { customer, pm }) => {
    if (sub.status === 'cancelled')
      throw new DomainError('invalid_state', `Subscription ${sub.id} has ended and can no longer be changed.`, {
        param: 'id',
      });
    if (input.amount_cents !== undefined) {
      if (pm) assertCardFits(pm, sub.hsaFsaEligible);
      sub.amountCents = input.amount_cents;
    }
    if (input.metadata !== undefined) sub.metadata = input.metadata;
    if (input.cancel_at_period_end === true && !sub.cancelAtPeriodEnd) scheduleEnd(tx, sub, null);
    if (input.cancel_at_period_end === false && sub.cancelAtPeriodEnd) await resumeLocked(tx, sub, customer, pm);
  });
}

/**
 * `POST /subscriptions/{id}/cancel`: now (`cancelled`, `cancelled_at`, `subscription.canceled`)
 * or at the period end (billing goes on until `current_period_end`; the event fires then).
 */
export async function cancelSubscription(ctx: ServiceContext, id: string, body: unknown): Promise<Subscription> {
  const input = parseInput(cancelSubscriptionSchema, requireObject(body), 'validation_error', 'invalid_request');
  return withLocked(ctx, id, async (tx, sub, { customer, pm }) => {
    const decision = cancelDecision(sub.status, input.cancel_at_period_end);
    if (!decision.ok)
      throw new DomainError('invalid_state', `Subscription ${sub.id} is already cancelled.`, { param: 'id' });
    if (decision.endsNow) {
      sub.cancelAtPeriodEnd = false;
      sub.cancellationReason = input.reason ?? null;
      sub.cancelledAt = tx.now();
      await endSubscription(tx, sub, tx.now(), customer, pm);
    } else {
      scheduleEnd(tx, sub, input.reason ?? null);
    }
    recordAudit(tx, 'subscription.cancelled', sub.id, { at_period_end: !decision.endsNow });
  });
}

/** Reverses a scheduled cancellation (`subscription.resumed`). */
export async function resumeSubscription(ctx: ServiceContext, id: string): Promise<Subscription> {
  return withLocked(ctx, id, async (tx, sub, { customer, pm }) => {
    await resumeLocked(tx, sub, customer, pm);
    recordAudit(tx, 'subscription.resumed', sub.id);
  });
}

/** Whether a new card can still help `sub`: an ended subscription takes none (400 `invalid_state`). */
function assertCardReplaceable(sub: Subscription): void {
  if (sub.status === 'cancelled')
    throw new DomainError('invalid_state', `Subscription ${sub.id} has ended.`, { param: 'id' });
}

/**
 * `POST /subscriptions/{id}/payment-method`: replaces the card. A `past_due` or
 * `action_required` subscription is rescued at once: its open cycle is charged on the new card
 * (success: `active`, `subscription.resumed` then `subscription.renewed`). `inTransaction` runs
 * in the transaction that takes the card, once it is accepted (a card-update link is used there).
 */
export async function replacePaymentMethod(
  ctx: ServiceContext,
  id: string,
  body: unknown,
  opts: { inTransaction?: (tx: ServiceContext) => Promise<void> } = {},
): Promise<Subscription> {
  const input = parseInput(replacePaymentMethodSchema, requireObject(body), 'validation_error', 'invalid_request');
  return withLocked(ctx, id, async (tx, sub) => {
    assertCardReplaceable(sub);
    const pm = await usablePaymentMethod(tx, input.payment_method_id, sub.customerId);
    assertCardFits(pm, sub.hsaFsaEligible);
    if (sub.billingLeaseUntil && sub.billingLeaseUntil > new Date()) {
      throw new DomainError('invalid_state', `A charge of subscription ${sub.id} is in progress; retry in a moment.`, {
        param: 'id',
      });
    }
    await opts.inTransaction?.(tx);
    sub.paymentMethodId = pm.id;
    if (!isRescuable(sub.status) || !sub.openInvoiceId) return [];
    return prepareChargeOf(ctx, tx.em, sub, { byNewCard: true });
  });
}

/**
 * `POST /subscriptions/{id}/card-update-link`: a one-time page (24 h) where the shopper enters a
 * new card, which then replaces the subscription's as `replacePaymentMethod` does (rescuing a
 * failing one). Refused as that route refuses a subscription no card can help.
 */
export async function createCardUpdateLink(ctx: ServiceContext, id: string): Promise<PaymentMethodSetupLink> {
  const sub = await getSubscription(ctx, id);
  assertCardReplaceable(sub);
  const link = addSetupLink(ctx, sub.customerId, sub.id);
  await ctx.em.flush();
  return link;
}

/** One cycle of a subscription with its attempts, or 404 `not_found`. */
export async function getInvoice(
  ctx: ServiceContext,
  subscriptionId: string,
  invoiceId: string,
): Promise<{ invoice: SubscriptionInvoice; attempts: SubscriptionInvoiceAttempt[] }> {
  const invoice = await ctx.em.findOne(SubscriptionInvoice, { id: invoiceId, subscriptionId, ...scope(ctx) });
  if (!invoice) throw DomainError.notFound('invoice', invoiceId, 'invoiceId');
  return { invoice, attempts: await ctx.em.find(SubscriptionInvoiceAttempt, { invoiceId: invoice.id }) };
}

/** A page of one subscription's `subscription.*` events, newest first. */
export async function listSubscriptionEvents(
  ctx: ServiceContext,
  subscriptionId: string,
  page: PageRequest<string>,
  cursorParam = 'after',
): Promise<Page<Event>> {
  return paginate(
    ctx,
    Event,
    { ...scope(ctx), type: { $like: 'subscription.%' }, data: { subscription_id: subscriptionId } },
    page,
    { cursorParam },
  );
}
