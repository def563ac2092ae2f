import type { EntityManager } from '@mikro-orm/postgresql';
import { eachMessage, registerEmailVars } from '../email/email-compose.js';
import type { EmailMessage } from '../email/email-message.entity.js';
import { customerName } from '../orders/order-emails.js';
import { Order } from '../orders/order.entity.js';
import { Payment } from '../payments/payment.entity.js';
import { cardLabel, money } from '../shared/labels.js';
import { Refund } from './refund.entity.js';

// Money returned: how much, and to which card (the split).
registerEmailVars(
  ['refund'],
  eachMessage(async (em: EntityManager, m: EmailMessage) => {
    const refund = await em.findOneOrFail(Refund, { id: String(m.data.refund_id) });
    const order = await em.findOneOrFail(Order, { id: refund.orderId });
    const payments = new Map((await em.find(Payment, { orderId: order.id })).map((p) => [p.id, p]));
    const c = refund.currency;
    return {
      customer_name: customerName(order.customer),
      order_number: order.orderNumber,
      amount: money(refund.amount, c),
      hsa_amount: money(refund.hsaAmount, c),
      regular_amount: money(refund.regularAmount, c),
      parts: refund.parts.map((part) => {
        const p = payments.get(part.payment_id);
        return {
          card: p ? cardLabel(p) : part.payment_method === 'hsa_fsa_card' ? 'HSA/FSA card' : 'Card',
          amount: money(part.amount, c),
        };
      }),
    };
  }),
);
