import { scope, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import type { PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput } from '../../platform/validation.js';
import { Order } from './order.entity.js';
import { takeOrderNumbers } from './order-numbers.js';
import { listOrdersSchema } from './order.schemas.js';

/** The caller's next order number, per merchant and mode and gap-free; call it in the order's transaction. */
export async function nextOrderNumber(ctx: ServiceContext): Promise<string> {
  const [number] = await takeOrderNumbers(ctx.em, [{ merchantId: ctx.principal.merchantId, livemode: ctx.principal.livemode }]);
  return number;
}

/** Loads one order of the caller, or 404 `not_found`. */
export async function getOrder(ctx: ServiceContext, id: string): Promise<Order> {
  const order = await ctx.em.findOne(Order, { id, ...scope(ctx) });
  if (!order) throw DomainError.notFound('order', id);
  return order;
}

/** Validates list query parameters (400 `invalid_request`). */
export function parseListOrdersQuery(query: unknown) {
  const { limit, starting_after, ...filters } = parseInput(listOrdersSchema, query, 'invalid_request');
  return { filters, page: { limit, after: starting_after } satisfies PageRequest<string> };
}

/**
 * The one rule for an order's statuses once `refundedTotal` cents of it are refunded:
 * `payment_status` is `partially_refunded` below the order amount and `refunded` at it; the
 * fulfilment `status` becomes `refunded` only when the whole order is refunded, so a partial
 * refund leaves it as it was (e.g. `completed`). A status change is recorded in `status_history`.
 */
export function applyRefundedTotal(order: Order, refundedTotal: number, at: Date, reason: string): void {
  if (refundedTotal <= 0) return;
  const full = refundedTotal >= order.amount;
  if (full && order.status !== 'refunded') order.transition(at, 'refunded', reason, 'refunded');
  else order.paymentStatus = full ? 'refunded' : 'partially_refunded';
}
