import { emailOnEvent } from './email-outbox.js';

/**
 * Which events write which shopper messages (with the event, in its transaction). Team messages
 * that have no event are queued where their change is made (`queueEmail`: team invitations,
 * disputes, webhook endpoint health).
 */

type Payload = Record<string, unknown>;
const obj = (v: unknown): Payload => (v && typeof v === 'object' ? (v as Payload) : {});
const emailOf = (v: unknown): string | null => (typeof v === 'string' && v.includes('@') ? v : null);

// A paid order: its receipt with the itemized HSA/FSA receipt PDF. A subscription's later cycles
// (an order made by billing: no checkout, no payment link) get the renewal receipt instead. The
// order's number and figures are read with the order when the receipt is rendered (order-emails.ts):
// a paid checkout's statement takes the number as it writes the event (see `numberedBy`).
emailOnEvent('order.completed', ({ data }) => {
  const to = emailOf(obj(data.customer).email);
  if (!to) return null;
  const renewal = data.checkout_id == null && data.payment_link_id == null && data.is_recurring === true;
  return {
    kind: renewal ? 'renewal_receipt' : 'order_receipt',
    to,
    data: { order_id: data.id },
    attachments: [{ kind: 'receipt', id: String(data.id) }],
  };
});

// Money returned: how much, and to which card (the split).
emailOnEvent('refund.succeeded', ({ data }) => {
  const to = emailOf(obj(data.customer).email);
  return to
    ? {
        kind: 'refund',
        to,
        data: { refund_id: data.id, order_id: data.order_id, amount: data.amount, currency: data.currency },
      }
    : null;
});

// A renewal the card cannot pay until the shopper acts (disposition action_required): the card-update link.
// Refusals billing retries by itself (retry) or that end the subscription (terminal) write no message.
emailOnEvent('subscription.payment_failed', ({ data }) => {
  const to = emailOf(data.customer_email);
  const failure = obj(data.failure);
  if (!to || failure.disposition !== 'action_required') return null;
  return {
    kind: 'payment_failed',
    to,
    data: {
      subscription_id: data.subscription_id,
      amount: data.amount,
      currency: data.currency,
      card_brand: data.card_brand,
      card_last4: data.card_last4,
      payment_method_type: data.payment_method_type,
      refusal_code: failure.refusal_code,
      card_update_url: data.card_update_url ?? null,
    },
  };
});
