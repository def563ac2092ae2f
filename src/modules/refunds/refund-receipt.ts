import { registerReceiptRefunds } from '../orders/receipt.service.js';
import { Refund } from './refund.entity.js';

// A receipt lists the order's refunds that went through, oldest first, with their split and lines.
registerReceiptRefunds(async (em, orderId) =>
  (await em.find(Refund, { orderId, status: 'succeeded' }, { orderBy: { createdAt: 'asc', id: 'asc' } })).map((r) => ({
    at: r.processedAt ?? r.createdAt,
    amount: r.amount,
    hsaAmount: r.hsaAmount,
    regularAmount: r.regularAmount,
    lines: r.lines.map((l) => ({ lineItemId: l.line_item_id, quantity: l.quantity })),
  })),
);
