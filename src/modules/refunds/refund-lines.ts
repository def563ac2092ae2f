import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.js';
import type { Order } from '../orders/order.entity.js';
import type { RefundLine } from './refund.entity.js';
import { runStatement } from '../../platform/db/sql.js';

interface Refunded {
  quantity: number;
  amount: number;
}

/**
 * What earlier refunds of an order took from each line: pending and succeeded refunds, and failed
 * ones of which some part went through (conservative: the money may have moved). Read under the
 * order row lock, so concurrent line refunds are tallied one after the other.
 */
async function refundedPerLine(em: EntityManager, orderId: string): Promise<Map<string, Refunded>> {
  const rows = await runStatement<{ line_item_id: string; quantity: string; amount: string }>(
    em,
    `select l->>'line_item_id' as line_item_id, sum((l->>'quantity')::bigint) as quantity, sum((l->>'amount')::bigint) as amount
     from refunds r cross join jsonb_array_elements(r.lines) l
     where r.order_id = ?
       and (r.status in ('pending', 'succeeded')
            or (r.status = 'failed' and exists (select 1 from jsonb_array_elements(r.parts) p where p->>'success' = 'true')))
     group by 1`,
    [orderId],
  );
  return new Map(rows.map((r) => [r.line_item_id, { quantity: Number(r.quantity), amount: Number(r.amount) }]));
}

/**
 * Refuses a line refund that, with the earlier refunds of the same lines, would take more than a
 * line's purchased quantity or its price × quantity (400 `invalid_amount`, details naming the line
 * with `requested` and `maximum`). Call with the order row locked (inside createRefund).
 */
export async function assertLinesRefundable(em: EntityManager, order: Order, lines: RefundLine[]): Promise<void> {
  const done = await refundedPerLine(em, order.id);
  const requested = new Map<string, Refunded>();
  for (const l of lines) {
    const r = requested.get(l.line_item_id) ?? { quantity: 0, amount: 0 };
    requested.set(l.line_item_id, { quantity: r.quantity + l.quantity, amount: r.amount + l.amount });
  }
  for (const [id, want] of requested) {
    const line = order.lineItems.find((l) => l.id === id);
    if (!line)
      throw new DomainError('validation_error', `Invalid request: line item ${id} is not a line of order ${order.id}`, {
        param: 'line_items',
        details: [{ field: 'line_items', message: `line item ${id} is not a line of order ${order.id}` }],
      });
    const before = done.get(id) ?? { quantity: 0, amount: 0 };
    const quantityLeft = line.quantity - before.quantity;
    if (want.quantity > quantityLeft) {
      throw new DomainError(
        'invalid_amount',
        `Line item ${id}: refunding ${want.quantity} would exceed the ${quantityLeft} of ${line.quantity} not yet refunded.`,
        {
          param: 'line_items',
          details: { line_item_id: id, field: 'quantity', requested: want.quantity, maximum: quantityLeft },
        },
      );
    }
    const amountLeft = line.price * line.quantity - before.amount;
    if (want.amount > amountLeft) {
      throw new DomainError(
        'invalid_amount',
        `Line item ${id}: refunding ${want.amount} would exceed the ${amountLeft} of ${line.price * line.quantity} not yet refunded.`,
        {
          param: 'line_items',
          details: { line_item_id: id, field: 'amount_cents', requested: want.amount, maximum: amountLeft },
        },
      );
    }
  }
}
