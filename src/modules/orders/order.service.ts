import type { EntityManager } from '@mikro-orm/postgresql';
import { scope, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import type { PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput } from '../../platform/validation.js';
import type { PaymentMethodType } from '../payments/payment-processor.js';
import { Payment } from '../payments/payment.entity.js';
import type { SplitAmounts } from '../shared/amounts.js';
import { Order, type OrderCustomer, type OrderLineItem, type OrderStatus } from './order.entity.js';
import { takeOrderNumbers } from './order-numbers.js';
import { listOrdersSchema } from './order.schemas.js';

/** A card payment captured for an order. */
export interface CapturedPayment {
  paymentMethod: PaymentMethodType;
  brand: string;
  last4: string;
  amount: number;
  processorToken: string;
  captureId: string;
}

/** What an order is made of, whoever sells it: a checkout, a payment link or a subscription's cycle. */
export interface OrderDraft {
  /** When it happens: its timestamps, its first status and its payments' capture time. */
  at: Date;
  /** Why it exists: the reason of its first (`pending`) status. */
  reason: string;
  checkoutId: string | null;
  referenceId?: string | null;
  paymentLinkId?: string | null;
  clientReferenceId?: string | null;
  isRecurring: boolean;
  /** Lowercase ISO 4217. */
  currency: string;
  customer: OrderCustomer;
  lineItems: OrderLineItem[];
  /** The split; the order's `amount` is its total. */
  amounts: SplitAmounts;
  metadata: Record<string, unknown>;
  /** The card payments captured for it (none for a declined order). */
  payments?: CapturedPayment[];
  /** Its number when the caller took numbers for many orders at once (`takeOrderNumbers`); else one is taken here. */
  orderNumber?: string;
}

/**
 * Creates an order of the caller's merchant and mode (`pending`, status history started) and its
 * captured payments, in the caller's unit of work (unless `persist` is false: the caller writes
 * them, e.g. with `insertTogether`): the one place an order is built. The caller moves it on
 * (`transition`) and records its events.
 */
export async function createOrder(ctx: ServiceContext, draft: OrderDraft, persist = true): Promise<{ order: Order; payments: Payment[] }> {
  const owner = scope(ctx);
  const orderNumber = draft.orderNumber ?? (await takeOrderNumbers(ctx.em, [ctx.principal]))[0];
  const order = ctx.em.create(
    Order,
    {
      ...owner,
      orderNumber,
      checkoutId: draft.checkoutId,
      referenceId: draft.referenceId ?? null,
      paymentLinkId: draft.paymentLinkId ?? null,
      clientReferenceId: draft.clientReferenceId ?? null,
      status: 'pending',
      paymentStatus: 'pending',
      isRecurring: draft.isRecurring,
      amount: draft.amounts.total,
      currency: draft.currency,
      customer: draft.customer,
      customerEmail: draft.customer.email.toLowerCase(),
      lineItems: draft.lineItems,
      amounts: draft.amounts,
      metadata: draft.metadata,
      statusHistory: [{ status: 'pending', timestamp: draft.at.toISOString(), reason: draft.reason }],
      createdAt: draft.at,
      updatedAt: draft.at,
    },
    { persist },
  );
  const payments = (draft.payments ?? []).map((p) =>
    ctx.em.create(
      Payment,
      {
        ...owner,
        orderId: order.id,
        paymentMethod: p.paymentMethod,
        brand: p.brand,
        last4: p.last4,
        amount: p.amount,
        currency: draft.currency,
        processorToken: p.processorToken,
        captureId: p.captureId,
        capturedAt: draft.at,
      },
      { persist },
    ),
  );
  return { order, payments };
}

/** Loads one order of the caller, or 404 `not_found`. */
export async function getOrderEntity(ctx: ServiceContext, id: string): Promise<Order> {
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
 * A disputed order stays `disputed`: the dispute's end applies the refunded total (`applyDisputeToOrder`).
 */
export function applyRefundedTotal(order: Order, refundedTotal: number, at: Date, reason: string): void {
  if (refundedTotal <= 0 || order.paymentStatus === 'disputed') return;
  const full = refundedTotal >= order.amount;
  if (full && order.status !== 'refunded') order.transition(at, 'refunded', reason, 'refunded');
  else order.paymentStatus = full ? 'refunded' : 'partially_refunded';
}

/** Cents of an order refunded for good: the succeeded parts of its settled refunds (as refund processing counts them). */
async function settledRefundTotal(em: EntityManager, orderId: string): Promise<number> {
  const [row] = await em.execute<{ total: string }[]>(
    `select coalesce(sum((p->>'amount')::int), 0) as total from refunds r cross join lateral jsonb_array_elements(r.parts) p
      where r.order_id = ? and r.status in ('succeeded', 'failed') and (p->>'success')::boolean is true`,
    [orderId],
  );
  return Number(row?.total ?? 0);
}

/**
 * The one rule for disputes (chargebacks) on a paid order (`what` names the disputed charge, e.g.
 * a payment or a subscription cycle): while one is open (stage `notification` or `confirmed`) the
 * order is `disputed` (status and payment status); once none is (`reversed`), it is what it
 * would be without the dispute: the status it had before (its status history) and the payment
 * status its settled refunds give (`captured`, `partially_refunded` or `refunded`). Each change is
 * recorded in `status_history`; a stage that changes nothing records nothing.
 */
export async function applyDisputeToOrder(em: EntityManager, order: Order, open: boolean, at: Date, what: string, eventCode: string): Promise<void> {
  if (open) {
    if (order.paymentStatus !== 'disputed') order.transition(at, 'disputed', `chargeback on ${what}: ${eventCode}`, 'disputed');
    return;
  }
  if (order.paymentStatus !== 'disputed') return;
  let before: OrderStatus = 'completed';
  for (let i = order.statusHistory.length - 1; i >= 0; i--) {
    const status = order.statusHistory[i].status;
    if (status !== 'disputed') {
      before = status;
      break;
    }
  }
  const reason = `dispute on ${what} reversed: ${eventCode}`;
  order.transition(at, before, reason, 'captured');
  applyRefundedTotal(order, await settledRefundTotal(em, order.id), at, reason);
}
