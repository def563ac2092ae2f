import type { EntityManager } from '@mikro-orm/postgresql';
import { registerEmailAttachment } from '../email/email-attachments.js';
import { eachMessage, registerEmailVars } from '../email/email-compose.js';
import { emailOnEvent } from '../email/email-outbox.js';
import type { EmailMessage } from '../email/email-message.entity.js';
import { customerName } from '../orders/order-emails.js';
import { Order } from '../orders/order.entity.js';
import { Payment } from '../payments/payment.entity.js';
import { money } from '../shared/labels.js';
import { letterPdf } from './lmn-letter-pdf.js';
import { LmnLetter, LmnReview, type LmnCustomer } from './lmn.entity.js';

/*
 * The shopper's messages of a decided review, written with its event (same transaction): the
 * letter approved, with the letter's PDF attached, or the request declined (by a clinician, or
 * because nobody decided in time), saying what became of the order's money.
 */

// A letter's PDF, attached as `{kind: 'lmn_letter', id: 'lmn_…'}`.
registerEmailAttachment('lmn_letter', async (em, id) => {
  const letter = await em.findOne(LmnLetter, { id });
  return letter
    ? {
        filename: `letter-of-medical-necessity-${letter.id}.pdf`,
        content: await letterPdf(em, letter),
        contentType: 'application/pdf',
      }
    : null;
});

const customerOf = (data: Record<string, unknown>) =>
  data.customer && typeof data.customer === 'object' ? (data.customer as Partial<LmnCustomer>) : {};
const emailOf = (data: Record<string, unknown>) => {
  const email = customerOf(data).email;
  return typeof email === 'string' && email.includes('@') ? email : null;
};
const day = (d: Date) => d.toISOString().slice(0, 10);

emailOnEvent('lmn_review.approved', ({ data }) => {
  const to = emailOf(data);
  if (!to || typeof data.letter_id !== 'string') return null;
  return {
    kind: 'lmn_approved',
    to,
    data: { review_id: data.id, letter_id: data.letter_id, order_id: data.order_id },
    attachments: [{ kind: 'lmn_letter', id: data.letter_id }],
  };
});

emailOnEvent('lmn_review.declined', ({ data }) => {
  const to = emailOf(data);
  return to
    ? { kind: 'lmn_declined', to, data: { review_id: data.id, order_id: data.order_id, reason: data.reason } }
    : null;
});

registerEmailVars(
  ['lmn_approved'],
  eachMessage(async (em: EntityManager, m: EmailMessage) => {
    const letter = await em.findOneOrFail(LmnLetter, { id: String(m.data.letter_id) });
    const order = await em.findOne(Order, { id: String(m.data.order_id) });
    return {
      customer_name: customerName(letter.customer),
      condition: letter.condition,
      items: letter.items.map((i) => i.name),
      expires_at: day(letter.expiresAt),
      order_number: order?.orderNumber ?? null,
    };
  }),
);

registerEmailVars(
  ['lmn_declined'],
  eachMessage(async (em: EntityManager, m: EmailMessage) => {
    const review = await em.findOneOrFail(LmnReview, { id: String(m.data.review_id) });
    const order = await em.findOne(Order, { id: review.orderId });
    const refunded = (await em.find(Payment, { orderId: review.orderId })).reduce(
      (sum, p) => sum + p.refundedAmount,
      0,
    );
    return {
      customer_name: customerName(review.customer),
      reason: review.status === 'expired' ? 'no clinician could review it in time' : review.reason,
      order_number: order?.orderNumber ?? null,
      refunded: refunded > 0 ? money(refunded, review.hold.currency) : null,
    };
  }),
);
