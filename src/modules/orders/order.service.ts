import type { EntityManager } from '@mikro-orm/postgresql';
import { scope, type ServiceContext } from '../../platform/context.js';
import { bulkInsert, type BulkWrite } from '../../platform/db/bulk.js';
import { prefixedId } from '../../platform/db/ids.js';
import { DomainError } from '../../platform/errors.js';
import type { PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput } from '../../platform/validation.js';
import type { PaymentMethodType } from '../payments/payment-processor.js';
import { Payment } from '../payments/payment.entity.js';
import type { SplitAmounts } from '../shared/amounts.js';
import {
  Order,
  type OrderCustomer,
  type OrderLineItem,
  type OrderLmn,
  type OrderStatus,
  type PaymentStatus,
  type StatusChange,
} from './order.entity.js';
import { takeOrderNumbers } from './order-numbers.js';
import { listOrdersSchema } from './order.schemas.js';
import { queueEmail } from '../email/email-outbox.js';
import { runStatement } from '../../platform/db/sql.js';

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
  /** The letter of medical necessity its items need (a review it waits for, or the letter that covers it). */
  lmn?: OrderLmn | null;
}

/** An order and its captured payments as `createOrder` makes them: the entities' values, ids included. */
export type BuiltOrder = ReturnType<typeof buildOrder>;

/** The values of a new order (`pending`, status history started) of `owner` and of its captured payments: the one place an order is built. */
export function buildOrder(owner: { merchant: string; livemode: boolean }, draft: OrderDraft, orderNumber: string) {
  const id = prefixedId('ord');
  const order = {
    id,
    ...owner,
    orderNumber,
    checkoutId: draft.checkoutId,
    referenceId: draft.referenceId ?? null,
    paymentLinkId: draft.paymentLinkId ?? null,
    clientReferenceId: draft.clientReferenceId ?? null,
    status: 'pending' as OrderStatus,
    paymentStatus: 'pending' as PaymentStatus,
    isRecurring: draft.isRecurring,
    amount: draft.amounts.total,
    currency: draft.currency,
    customer: draft.customer,
    customerEmail: draft.customer.email.toLowerCase(),
    lineItems: draft.lineItems,
    amounts: draft.amounts,
    metadata: draft.metadata,
    lmn: draft.lmn ?? null,
    statusHistory: [{ status: 'pending', timestamp: draft.at.toISOString(), reason: draft.reason }] as StatusChange[],
    completedAt: null as Date | null,
    createdAt: draft.at,
    updatedAt: draft.at,
  };
  const payments = (draft.payments ?? []).map((p) => ({
    id: prefixedId('pay'),
    ...owner,
    orderId: id,
    paymentMethod: p.paymentMethod,
    brand: p.brand,
    last4: p.last4,
    amount: p.amount,
    currency: draft.currency,
    processorToken: p.processorToken,
    captureId: p.captureId,
    capturedAt: draft.at,
  }));
  return { order, payments };
}

/**
 * Creates an order of the caller's merchant and mode (`pending`, status history started) and its
 * captured payments, in the caller's unit of work. The caller moves it on (`transition`) and
 * records its events.
 */
export async function createOrder(
  ctx: ServiceContext,
  draft: OrderDraft,
): Promise<{ order: Order; payments: Payment[] }> {
  const orderNumber = draft.orderNumber ?? (await takeOrderNumbers(ctx.em, [ctx.principal]))[0];
  const built = buildOrder(scope(ctx), draft, orderNumber);
  return {
    order: ctx.em.create(Order, built.order),
    payments: built.payments.map((p) => ctx.em.create(Payment, p)),
  };
}

/**
 * An order of the caller's merchant and mode and its captured payments, as `createOrder` makes
 * them but in no unit of work and with no number yet (`''`): the caller writes them in one
 * statement that takes the number (`insertTogether` with `orderNumberPart` and `numberedBy`) and
 * sets it from that statement's answer.
 */
export function newOrder(ctx: ServiceContext, draft: OrderDraft): { order: Order; payments: Payment[] } {
  const built = buildOrder(scope(ctx), draft, '');
  return {
    order: ctx.em.create(Order, built.order, { persist: false }),
    payments: built.payments.map((p) => ctx.em.create(Payment, p, { persist: false })),
  };
}

/** Inserts built orders without the unit of work (a batch of renewals): one statement for the caller's `runBulk`, in its transaction. */
export function insertOrders(em: EntityManager, built: BuiltOrder[]): BulkWrite {
  return bulkInsert(
    em,
    Order,
    built.map((b) => b.order),
  );
}

/** Inserts the payments of built orders, as `insertOrders` the orders (either may go first: nothing refers across them). */
export function insertPayments(em: EntityManager, built: BuiltOrder[]): BulkWrite {
  return bulkInsert(
    em,
    Payment,
    built.flatMap((b) => b.payments),
  );
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
  const [row] = await runStatement<{ total: string }>(
    em,
    `select coalesce(sum((p->>'amount')::int), 0) as total from refunds r cross join lateral jsonb_array_elements(r.parts) p
      where r.order_id = ? and r.status in ('succeeded', 'failed') and (p->>'success')::boolean is true`,
    [orderId],
  );
  return Number(row?.total ?? 0);
}

/**
 * The one rule for disputes (chargebacks) on a paid order (`what` names the disputed charge, e.g.
 * a payment or a subscription cycle): while one is open (stage `notification` or `confirmed`) the
 * order is `disputed` (status and payment status; the team is emailed when it becomes so); once none is (`reversed`), it is what it
 * would be without the dispute: the status it had before (its status history) and the payment
 * status its settled refunds give (`captured`, `partially_refunded` or `refunded`). Each change is
 * recorded in `status_history`; a stage that changes nothing records nothing.
 */
export async function applyDisputeToOrder(
  em: EntityManager,
  order: Order,
  open: boolean,
  at: Date,
  what: string,
  eventCode: string,
): Promise<void> {
  if (open) {
    if (order.paymentStatus === 'disputed') return;
    order.transition(at, 'disputed', `chargeback on ${what}: ${eventCode}`, 'disputed');
    // The team hears of it with the change (the order's first open dispute).
    queueEmail(
      em,
      { merchantId: order.merchant.id, livemode: order.livemode, at },
      {
        kind: 'dispute_opened',
        to: null,
        data: {
          order_id: order.id,
          order_number: order.orderNumber,
          amount: order.amount,
          currency: order.currency,
          reason: eventCode,
        },
      },
    );
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
