import type { EntityManager } from '@mikro-orm/postgresql';
import { registerEmailAttachment } from '../email/email-attachments.js';
import { registerEmailVars } from '../email/email-compose.js';
import type { EmailMessage } from '../email/email-message.entity.js';
import { Payment } from '../payments/payment.entity.js';
import { cardLabel, money } from '../shared/labels.js';
import { Order } from './order.entity.js';
import { eligibilityLabel, receiptAttachment, receiptFilename } from './receipt.service.js';

// A paid order's itemized HSA/FSA receipt, attached as `{kind: 'receipt', id: 'ord_…'}`.
registerEmailAttachment('receipt', receiptAttachment);

const day = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString().slice(0, 10) : '');

/** A shopper's name as emails greet them (else their address): an order's customer, a letter's patient. */
export const customerName = (c: { first_name: string; last_name: string; email: string }) =>
  `${c.first_name} ${c.last_name}`.trim() || c.email;

// The receipt and the renewal receipt: items with their eligibility, the totals, the split, and each card charged.
// A batch of receipts reads its orders and their payments in two statements.
registerEmailVars(['order_receipt', 'renewal_receipt'], async (em: EntityManager, messages: EmailMessage[]) => {
  const ids = messages.map((m) => String(m.data.order_id));
  const orders = new Map((await em.find(Order, { id: { $in: ids } })).map((o) => [o.id, o]));
  const payments = await em.find(
    Payment,
    { orderId: { $in: ids } },
    { orderBy: { capturedAt: 'asc', paymentMethod: 'desc' } },
  );
  return ids.map((id) => {
    const order = orders.get(id);
    if (!order) return new Error(`order ${id} of a receipt email not found`);
    return receiptVars(
      order,
      payments.filter((p) => p.orderId === id),
    );
  });
});

function receiptVars(order: Order, payments: Payment[]) {
  const c = order.currency;
  const a = order.amounts;
  return {
    customer_name: customerName(order.customer),
    order_number: order.orderNumber,
    date: day(order.completedAt ?? order.createdAt),
    items: order.lineItems.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      eligibility: eligibilityLabel(l),
      amount: money(l.price * l.quantity, c),
    })),
    totals: {
      subtotal: money(a.subtotal, c),
      discount: a.discount ? money(a.discount, c) : null,
      shipping: a.shipping ? money(a.shipping, c) : null,
      tax: a.tax ? money(a.tax, c) : null,
      total: money(a.total, c),
      hsa_amount: money(a.hsa_amount, c),
      regular_amount: money(a.regular_amount, c),
    },
    payments: payments.map((p) => ({ card: cardLabel(p), amount: money(p.amount, p.currency) })),
    receipt_filename: receiptFilename(order),
  };
}
