import type { QueryConfig } from 'pg';
import type { ServiceContext } from '../../platform/context.js';
import { epochMs, queryRows, withDates, type EpochRow } from '../../platform/db/sql.js';
import type { Refund } from './refund.entity.js';

/**
 * The read path of an order's refunds (GraphQL `Order.refunds`): one statement for a page of
 * orders, rows mapped straight to plain records (no ORM hydration). Outside transactions only.
 */

/** A refund as the read path returns it: the entity's fields, without the ORM. */
export type RefundRecord = Pick<
  Refund,
  | 'id'
  | 'livemode'
  | 'orderId'
  | 'amount'
  | 'hsaAmount'
  | 'regularAmount'
  | 'currency'
  | 'reason'
  | 'notes'
  | 'status'
  | 'parts'
  | 'lines'
  | 'failureReason'
  | 'metadata'
  | 'createdAt'
  | 'processedAt'
>;

const REFUND_COLUMNS = `r.id, r.livemode, r.order_id as "orderId", r.amount, r.hsa_amount as "hsaAmount", r.regular_amount as "regularAmount",
  r.currency, r.reason, r.notes, r.status, r.parts, r.lines, r.failure_reason as "failureReason", r.metadata,
  ${epochMs('r.created_at')} as "createdAt", ${epochMs('r.processed_at')} as "processedAt"`;

/** The statement of every refund of orders. */
export function refundsOfOrdersQuery(orderIds: readonly string[], merchantId: string, livemode: boolean): QueryConfig {
  return {
    name: 'refunds_of_orders',
    text: `select ${REFUND_COLUMNS} from refunds r where r.order_id = any($1::text[]) and r.merchant_id = $2 and r.livemode = $3`,
    values: [orderIds, merchantId, livemode],
  };
}

/** Every refund of the caller's orders `orderIds`, grouped by order. */
export async function readRefundsOf(
  ctx: ServiceContext,
  orderIds: readonly string[],
): Promise<Map<string, RefundRecord[]>> {
  const byOrder = new Map<string, RefundRecord[]>(orderIds.map((id) => [id, []]));
  if (!orderIds.length) return byOrder;
  const rows = await queryRows<EpochRow<RefundRecord, 'createdAt' | 'processedAt'>>(
    ctx,
    refundsOfOrdersQuery(orderIds, ctx.principal.merchantId, ctx.principal.livemode),
  );
  for (const row of rows) byOrder.get(row.orderId)?.push(withDates<RefundRecord>(row, ['createdAt', 'processedAt']));
  return byOrder;
}
