import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { parseInput } from '../../platform/validation.js';
import { getCheckoutSession } from '../checkout/checkout.service.js';
import { getOrderEntity } from '../orders/order.service.js';
import { REFUND_REASONS, type RefundReason } from './refund.entity.js';
import { v1RefundSchema } from './refund.schemas.js';
import { createRefund } from './refund.service.js';

/**
 * `POST /v1/checkout/{checkout_id}/refund`: refunds lines of a paid checkout's order. Each item's
 * `amount_cents` may not exceed its unit price × quantity, and across requests a line is never
 * refunded beyond its quantity or price × quantity (tallied under the order lock by createRefund);
 * the sum is refunded like any refund (same split, limits and lifecycle).
 */
export async function refundCheckoutV1(ctx: ServiceContext, checkoutId: string, body: unknown) {
  const input = parseInput(v1RefundSchema, body ?? {});
  const session = await getCheckoutSession(ctx, checkoutId);
  if (!session.orderId)
    throw new DomainError('invalid_state', `Checkout ${checkoutId} has not been paid.`, { param: 'checkout_id' });
  const order = await getOrderEntity(ctx, session.orderId);
  const lines = new Map(order.lineItems.map((l) => [l.id, l]));
  const details = input.line_items.flatMap((item, i) => {
    const line = lines.get(item.line_item_id);
    if (!line)
      return [
        {
          field: `line_items.${i}.line_item_id`,
          message: `${item.line_item_id} is not a line item of order ${order.id}`,
        },
      ];
    if (item.amount_cents > line.price * item.quantity)
      return [
        {
          field: `line_items.${i}.amount_cents`,
          message: `exceeds ${line.price * item.quantity} (unit price × quantity)`,
        },
      ];
    return [];
  });
  if (details.length)
    throw new DomainError(
      'validation_error',
      `Invalid request: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`,
      { param: details[0].field, details },
    );
  const reason: RefundReason = (REFUND_REASONS as readonly string[]).includes(input.reason ?? '')
    ? (input.reason as RefundReason)
    : 'other';
  const amount = input.line_items.reduce((s, l) => s + l.amount_cents, 0);
  const refund = await createRefund(
    ctx,
    {
      order_id: order.id,
      amount,
      reason,
      notes: input.reason && reason === 'other' ? input.reason : undefined,
      metadata: {
        line_items: input.line_items.map((l) => `${l.line_item_id}:${l.quantity}:${l.amount_cents}`).join(','),
      },
    },
    input.line_items.map((l) => ({ line_item_id: l.line_item_id, quantity: l.quantity, amount: l.amount_cents })),
  );
  return {
    checkout_id: checkoutId,
    refund_id: refund.id,
    status: refund.status,
    refunded_amount_cents: refund.amount,
    currency: refund.currency,
    refunded_at: refund.createdAt.toISOString(),
  };
}
