import type { QueryConfig } from 'pg';
import type { ServiceContext } from '../../platform/context.js';
import { epochMs, queryRows, withDates, type EpochRow } from '../../platform/db/sql.js';
import { DomainError } from '../../platform/errors.js';
import { keysetPageQuery, readModelPage, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import type { DisputeStage } from '../payments/payment-processor.js';
import type { Payment } from '../payments/payment.entity.js';
import type { Order } from './order.entity.js';
import type { OrderFilters } from './order.schemas.js';

/**
 * The read path of orders (REST get/list, GraphQL order/orders and their payments):
 * statements that select exactly the resources' columns, rows mapped straight to plain records.
 * No entity hydration, snapshots or identity map (a page of 50 orders with their JSON columns was
 * mostly ORM work); writes keep the ORM and its unit of work. Outside transactions only.
 */

/** An order as the read path returns it: the entity's fields, without the ORM. */
export type OrderRecord = Pick<
  Order,
  | 'id'
  | 'livemode'
  | 'orderNumber'
  | 'checkoutId'
  | 'referenceId'
  | 'paymentLinkId'
  | 'clientReferenceId'
  | 'status'
  | 'paymentStatus'
  | 'isRecurring'
  | 'amount'
  | 'currency'
  | 'customer'
  | 'lineItems'
  | 'amounts'
  | 'statusHistory'
  | 'lmn'
  | 'failureReason'
  | 'metadata'
  | 'createdAt'
  | 'completedAt'
>;

/** A captured payment as the read path returns it. */
export type PaymentRecord = Pick<
  Payment,
  'id' | 'orderId' | 'paymentMethod' | 'brand' | 'last4' | 'amount' | 'refundedAmount' | 'capturedAt' | 'captureId'
>;

/** An order's dispute (table `disputes`, written by the disputes module) as the read path returns it. */
export interface OrderDisputeRecord {
  id: string;
  orderId: string;
  stage: DisputeStage;
  amount: number;
  currency: string;
  reason: string | null;
  eventCode: string;
  defenseDueAt: Date | null;
  defendable: boolean | null;
  acceptedAt: Date | null;
  defendedAt: Date | null;
  defenseReasonCode: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const ORDER_COLUMNS = `o.id, o.livemode, o.order_number as "orderNumber", o.checkout_id as "checkoutId", o.reference_id as "referenceId",
  o.payment_link_id as "paymentLinkId", o.client_reference_id as "clientReferenceId", o.status, o.payment_status as "paymentStatus",
  o.is_recurring as "isRecurring", o.amount, o.currency, o.customer, o.line_items as "lineItems", o.amounts, o.status_history as "statusHistory",
  o.lmn, o.failure_reason as "failureReason", o.metadata, ${epochMs('o.created_at')} as "createdAt", ${epochMs('o.completed_at')} as "completedAt"`;

const PAYMENT_COLUMNS = `p.id, p.order_id as "orderId", p.payment_method as "paymentMethod", p.brand, p.last4, p.amount,
  p.refunded_amount as "refundedAmount", ${epochMs('p.captured_at')} as "capturedAt", p.capture_id as "captureId"`;

type OrderRow = EpochRow<OrderRecord, 'createdAt' | 'completedAt'>;
const toOrder = (row: OrderRow) => withDates<OrderRecord>(row, ['createdAt', 'completedAt']);

/** One order of the caller by id, or 404 `not_found`. */
export async function readOrder(ctx: ServiceContext, id: string): Promise<OrderRecord> {
  const { merchantId, livemode } = ctx.principal;
  const [row] = await queryRows<OrderRow>(ctx, {
    name: 'order_by_id',
    text: `select ${ORDER_COLUMNS} from orders o where o.id = $1 and o.merchant_id = $2 and o.livemode = $3`,
    values: [id, merchantId, livemode],
  });
  if (!row) throw DomainError.notFound('order', id);
  return toOrder(row);
}

/** The caller's orders by ids (missing ones are simply absent), for DataLoaders. */
export async function readOrdersByIds(ctx: ServiceContext, ids: readonly string[]): Promise<OrderRecord[]> {
  const rows = await queryRows<OrderRow>(ctx, {
    name: 'orders_by_ids',
    text: `select ${ORDER_COLUMNS} from orders o where o.id = any($1::text[]) and o.merchant_id = $2 and o.livemode = $3`,
    values: [ids, ctx.principal.merchantId, ctx.principal.livemode],
  });
  return rows.map(toOrder);
}

/** The statement of a keyset page of orders; its text depends only on which filters are present (prepared once per shape). */
export function orderPageQuery(
  merchantId: string,
  livemode: boolean,
  filters: OrderFilters,
  page: PageRequest<string>,
): QueryConfig {
  return keysetPageQuery({
    name: 'order_page',
    table: 'orders',
    alias: 'o',
    columns: ORDER_COLUMNS,
    merchantId,
    livemode,
    page,
    filters: [
      { column: 'o.status', value: filters.status, letter: 's' },
      { column: 'o.payment_status', value: filters.payment_status, letter: 'p' },
      { column: 'o.customer_email', value: filters.customer_email?.toLowerCase(), letter: 'e' },
      { column: 'o.reference_id', value: filters.reference_id, letter: 'r' },
      { column: 'o.created_at', value: filters.created_after, letter: 'a', op: '>=' },
      { column: 'o.created_at', value: filters.created_before, letter: 'b', op: '<=' },
    ],
  });
}

/** A page of the caller's orders, newest first (the keyset rules of `paginate`; a cursor naming no order of the caller is 400). */
export async function readOrderPage(
  ctx: ServiceContext,
  filters: OrderFilters,
  page: PageRequest<string>,
  cursorParam: string,
): Promise<Page<OrderRecord>> {
  const { merchantId, livemode } = ctx.principal;
  const rows = await queryRows<OrderRow>(ctx, orderPageQuery(merchantId, livemode, filters, page));
  return readModelPage(ctx, 'orders', rows.map(toOrder), page, cursorParam);
}

/** The statement of the payments of orders (captured first, HSA/FSA before card on a tie). */
export function paymentsOfOrdersQuery(orderIds: readonly string[], merchantId: string, livemode: boolean): QueryConfig {
  return {
    name: 'payments_of_orders',
    text: `select ${PAYMENT_COLUMNS} from payments p where p.order_id = any($1::text[]) and p.merchant_id = $2 and p.livemode = $3 order by p.captured_at asc, p.payment_method desc`,
    values: [orderIds, merchantId, livemode],
  };
}

/** The order in which an order's payments are listed (as `paymentsOfOrdersQuery` sorts them): captured first, HSA/FSA before card on a tie. */
export function byCapture(a: PaymentRecord, b: PaymentRecord): number {
  return (
    a.capturedAt.getTime() - b.capturedAt.getTime() ||
    (a.paymentMethod === b.paymentMethod ? 0 : a.paymentMethod > b.paymentMethod ? -1 : 1)
  );
}

/** The payments of the caller's orders `orderIds`, grouped by order (captured first, HSA/FSA before card on a tie). */
export async function readPaymentsOf(
  ctx: ServiceContext,
  orderIds: readonly string[],
): Promise<Map<string, PaymentRecord[]>> {
  const byOrder = new Map<string, PaymentRecord[]>(orderIds.map((id) => [id, []]));
  if (!orderIds.length) return byOrder;
  const rows = await queryRows<EpochRow<PaymentRecord, 'capturedAt'>>(
    ctx,
    paymentsOfOrdersQuery(orderIds, ctx.principal.merchantId, ctx.principal.livemode),
  );
  for (const row of rows) byOrder.get(row.orderId)?.push(withDates<PaymentRecord>(row, ['capturedAt']));
  return byOrder;
}

const DISPUTE_DATES = ['defenseDueAt', 'acceptedAt', 'defendedAt', 'createdAt', 'updatedAt'] as const;

/**
 * The dispute of each of the caller's orders `orderIds` that has one: the latest opened (a split
 * order's two payments may each be disputed).
 */
export async function readDisputesOf(
  ctx: ServiceContext,
  orderIds: readonly string[],
): Promise<Map<string, OrderDisputeRecord>> {
  const byOrder = new Map<string, OrderDisputeRecord>();
  if (!orderIds.length) return byOrder;
  const rows = await queryRows<EpochRow<OrderDisputeRecord, (typeof DISPUTE_DATES)[number]>>(ctx, {
    name: 'disputes_of_orders',
    text: `select distinct on (d.order_id) d.id, d.order_id as "orderId", d.stage, d.amount, d.currency, d.reason, d.event_code as "eventCode",
             ${epochMs('d.defense_due_at')} as "defenseDueAt", d.defendable, ${epochMs('d.accepted_at')} as "acceptedAt", ${epochMs('d.defended_at')} as "defendedAt",
             d.defense_reason_code as "defenseReasonCode", ${epochMs('d.created_at')} as "createdAt", ${epochMs('d.updated_at')} as "updatedAt"
           from disputes d where d.order_id = any($1::text[]) and d.merchant_id = $2 and d.livemode = $3
           order by d.order_id, d.created_at desc, d.id desc`,
    values: [orderIds, ctx.principal.merchantId, ctx.principal.livemode],
  });
  for (const row of rows) byOrder.set(row.orderId, withDates<OrderDisputeRecord>(row, DISPUTE_DATES));
  return byOrder;
}
