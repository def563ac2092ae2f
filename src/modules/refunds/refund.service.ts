import { recordAudit } from '../audit/audit-log.service.js';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { scope, withEm, type ServiceContext } from '../../platform/context.js';
import { prefixedId } from '../../platform/db/ids.js';
import { DomainError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { createdRange, paginate, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { webhookUrlForOrder } from '../checkout/checkout.service.js';
import { Order } from '../orders/order.entity.js';
import { Payment } from '../payments/payment.entity.js';
import { Refund, type RefundLine, type RefundPart } from './refund.entity.js';
import { assertLinesRefundable } from './refund-lines.js';
import { refundCreatedPayload } from './refund.resource.js';
import { splitLineRefund, splitRefund } from './refund-split.js';
import { createRefundSchema, listRefundsSchema, type RefundFilters } from './refund.schemas.js';

const REFUNDABLE = new Set(['captured', 'partially_refunded', 'refunded']);

/** Cents of an order not yet refunded or being refunded. */
function remainingOf(payments: Payment[]): number {
  return payments.reduce((sum, p) => sum + p.amount - p.refundedAmount, 0);
}

/**
 * The one refund rule: what `requested` (default: all that remains) of `order` takes from its
 * HSA/FSA and its regular payment (see splitRefund), or why it cannot be refunded.
 */
function planRefund(order: Order, payments: Payment[], requested: number | undefined, lines: RefundLine[] = []) {
  const remaining = remainingOf(payments);
  if (REFUNDABLE.has(order.paymentStatus) && remaining === 0) {
    throw new DomainError(
      'already_refunded',
      `Order ${order.id} is already fully refunded (or its remaining amount is being refunded).`,
      { param: 'order_id' },
    );
  }
  if (!REFUNDABLE.has(order.paymentStatus)) {
    throw new DomainError(
      'invalid_state',
      `Order ${order.id} cannot be refunded: its payment status is ${order.paymentStatus}.`,
      { param: 'order_id' },
    );
  }
  const amount = requested ?? remaining;
  if (amount > remaining) {
    throw new DomainError(
      'invalid_amount',
      `Refund amount ${amount} exceeds the refundable remainder of ${remaining}.`,
      { param: 'amount', details: { requested: amount, maximum: remaining } },
    );
  }
  const hsa = payments.find((p) => p.paymentMethod === 'hsa_fsa_card');
  const regular = payments.find((p) => p.paymentMethod === 'card');
  const paid = [
    { captured: hsa?.amount ?? 0, refunded: hsa?.refundedAmount ?? 0 },
    { captured: regular?.amount ?? 0, refunded: regular?.refundedAmount ?? 0 },
  ] as const;
  // A line refund returns each line to the card that paid it; a refund of the order, in proportion.
  const share = lines.length ? splitLineRefund(lines, order.lineItems, ...paid) : splitRefund(amount, ...paid);
  return { amount, remaining, share, hsa, regular };
}

/** What a refund of `amount` (default: the rest) would take from each card, before it is made (the console shows it before confirming). */
export async function previewRefund(
  ctx: ServiceContext,
  orderId: string,
  amount?: number,
): Promise<{
  order_id: string;
  amount: number;
  hsa_amount: number;
  regular_amount: number;
  remaining: number;
  currency: string;
}> {
  if (amount !== undefined && (!Number.isSafeInteger(amount) || amount < 1))
    throw new DomainError('invalid_amount', 'amount must be a positive whole number of cents', { param: 'amount' });
  const order = await ctx.em.findOne(Order, { id: orderId, ...scope(ctx) });
  if (!order) throw DomainError.notFound('order', orderId, 'order_id');
  const plan = planRefund(order, await ctx.em.find(Payment, { orderId: order.id }), amount);
  return {
    order_id: order.id,
    amount: plan.amount,
    hsa_amount: plan.share.hsa,
    regular_amount: plan.share.regular,
    remaining: plan.remaining,
    currency: order.currency,
  };
}

/**
 * Creates a `pending` refund of an order and reserves its amount on the payments, split between
 * the HSA/FSA and the regular payment (see splitRefund). The order row is locked for the whole
 * check-and-reserve, so concurrent refunds of one order run one after the other and their sum
 * can never exceed what was captured, nor (with `lines`, a v1 line refund) what remains of a line.
 * The processor is called later by the refunds sweep.
 */
export async function createRefund(ctx: ServiceContext, body: unknown, lines: RefundLine[] = []): Promise<Refund> {
  const input = parseInput(createRefundSchema, requireObject(body));
  return ctx.em.transactional(async (em) => {
    const order = await em.findOne(
      Order,
      { id: input.order_id, ...scope(ctx) },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!order) throw DomainError.notFound('order', input.order_id, 'order_id');
    const payments = await em.find(Payment, { orderId: order.id });
    const { amount, share, hsa, regular } = planRefund(order, payments, input.amount, lines);
    if (lines.length) await assertLinesRefundable(em, order, lines);
    const parts: RefundPart[] = [];
    for (const [payment, part] of [
      [hsa, share.hsa],
      [regular, share.regular],
    ] as const) {
      if (!payment || part === 0) continue;
      payment.refundedAmount += part;
      parts.push({
        payment_id: payment.id,
        payment_method: payment.paymentMethod,
        amount: part,
        refund_id: prefixedId('rp'),
        processor_refund_id: null,
        success: null,
        failure_reason: null,
      });
    }
    const refund = em.create(Refund, {
      ...scope(ctx),
      orderId: order.id,
      amount,
      hsaAmount: share.hsa,
      regularAmount: share.regular,
      currency: order.currency,
      reason: input.reason,
      notes: input.notes ?? null,
      metadata: input.metadata,
      parts,
      lines,
      createdAt: ctx.now(),
      updatedAt: ctx.now(),
    });
    recordEvent(withEm(ctx, em), 'refund.created', refundCreatedPayload(refund, order), {
      webhookUrl: await webhookUrlForOrder(withEm(ctx, em), order),
    });
    recordAudit(withEm(ctx, em), 'refund.created', refund.id, {
      order_id: order.id,
      amount,
      hsa_amount: share.hsa,
      regular_amount: share.regular,
    });
    await em.flush();
    return refund;
  });
}

/** Loads one refund of the caller, or 404 `not_found`. */
export async function getRefund(ctx: ServiceContext, id: string): Promise<Refund> {
  const refund = await ctx.em.findOne(Refund, { id, ...scope(ctx) });
  if (!refund) throw DomainError.notFound('refund', id);
  return refund;
}

/** Validates list query parameters (400 `invalid_request`). */
export function parseListRefundsQuery(query: unknown) {
  const { limit, starting_after, ...filters } = parseInput(listRefundsSchema, query, 'invalid_request');
  return { filters, page: { limit, after: starting_after } satisfies PageRequest<string> };
}

/** A page of the caller's refunds (optionally of one order), newest first. */
export async function listRefunds(
  ctx: ServiceContext,
  filters: RefundFilters,
  page: PageRequest<string>,
  cursorParam = 'starting_after',
): Promise<Page<Refund>> {
  const where: FilterQuery<Refund> = { ...scope(ctx) };
  if (filters.order_id) where.orderId = filters.order_id;
  if (filters.status) where.status = filters.status;
  const created = createdRange(filters);
  if (created) where.createdAt = created;
  return paginate(ctx, Refund, where, page, { cursorParam });
}
