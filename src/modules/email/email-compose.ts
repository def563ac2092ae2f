import type { EntityManager } from '@mikro-orm/postgresql';
import { publicLink } from '../../platform/links.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { Order } from '../orders/order.entity.js';
import { cardLabel, eligibilityLabel, money, receiptAttachment, receiptFilename } from '../orders/receipt.service.js';
import { Payment } from '../payments/payment.entity.js';
import { Refund } from '../refunds/refund.entity.js';
import { TeamMember } from '../team/team-member.entity.js';
import { registerEmailAttachment } from './email-attachments.js';
import { EmailSettings, SHOPPER_EMAIL_KINDS, type EmailKind, type EmailMessage, type ShopperEmailKind } from './email-message.entity.js';
import { renderEmail, type Branding, type RenderedEmail } from './email-templates.js';

/**
 * Renders an outbox message when the sweep first takes it (after the change that wrote it has
 * committed): the merchant's branding and opt-outs as they are then, the figures read from the
 * records the message names (an order, a refund), or from the message's own data.
 */

// A paid order's itemized HSA/FSA receipt, attached as `{kind: 'receipt', id: 'ord_…'}`.
registerEmailAttachment('receipt', receiptAttachment);

type Vars = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const day = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString().slice(0, 10) : '');
const payingOrder = { orderBy: { capturedAt: 'asc', paymentMethod: 'desc' } } as const;

async function orderVars(em: EntityManager, m: EmailMessage): Promise<Vars> {
  const order = await em.findOneOrFail(Order, { id: str(m.data.order_id) });
  const payments = await em.find(Payment, { orderId: order.id }, payingOrder);
  const c = order.currency;
  const a = order.amounts;
  return {
    customer_name: `${order.customer.first_name} ${order.customer.last_name}`.trim() || order.customer.email,
    order_number: order.orderNumber,
    date: day(order.completedAt ?? order.createdAt),
    items: order.lineItems.map((l) => ({ name: l.name, quantity: l.quantity, eligibility: eligibilityLabel(l), amount: money(l.price * l.quantity, c) })),
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

async function refundVars(em: EntityManager, m: EmailMessage): Promise<Vars> {
  const refund = await em.findOneOrFail(Refund, { id: str(m.data.refund_id) });
  const order = await em.findOneOrFail(Order, { id: refund.orderId });
  const payments = new Map((await em.find(Payment, { orderId: order.id })).map((p) => [p.id, p]));
  const c = refund.currency;
  return {
    customer_name: `${order.customer.first_name} ${order.customer.last_name}`.trim() || order.customer.email,
    order_number: order.orderNumber,
    amount: money(refund.amount, c),
    hsa_amount: money(refund.hsaAmount, c),
    regular_amount: money(refund.regularAmount, c),
    parts: refund.parts.map((part) => {
      const p = payments.get(part.payment_id);
      return { card: p ? cardLabel(p) : part.payment_method === 'hsa_fsa_card' ? 'HSA/FSA card' : 'Card', amount: money(part.amount, c) };
    }),
  };
}

function paymentFailedVars(m: EmailMessage): Vars {
  const d = m.data;
  return {
    amount: money(Number(d.amount ?? 0), str(d.currency) || 'usd'),
    card: cardLabel({ paymentMethod: str(d.payment_method_type), brand: str(d.card_brand) || null, last4: str(d.card_last4) || null }),
    refusal: str(d.refusal_code).replace(/_/g, ' '),
    card_update_url: str(d.card_update_url) || null,
  };
}

const VARS: Record<EmailKind, (em: EntityManager, m: EmailMessage) => Vars | Promise<Vars>> = {
  order_receipt: orderVars,
  renewal_receipt: orderVars,
  refund: refundVars,
  payment_failed: (_em, m) => paymentFailedVars(m),
  lmn_approved: (_em, m) => m.data,
  lmn_declined: (_em, m) => m.data,
  team_invitation: (_em, m) => m.data,
  dispute_opened: (_em, m) => ({
    ...m.data,
    amount: money(Number(m.data.amount ?? 0), str(m.data.currency) || 'usd'),
    console_url: publicLink(`/dashboard#/orders/${str(m.data.order_id)}`),
  }),
  webhook_endpoint_failing: (_em, m) => ({ ...m.data, failing_since: new Date(str(m.data.failing_since)).toUTCString() }),
};

/** The merchant's branding (defaults: its name, no support address, no logo) and the shopper messages it turned off. */
export async function brandingOf(em: EntityManager, merchantId: string): Promise<{ brand: Branding; disabled: ShopperEmailKind[] }> {
  const [merchant, settings] = await Promise.all([em.findOneOrFail(Merchant, merchantId), em.findOne(EmailSettings, { merchantId })]);
  return {
    brand: { name: settings?.brandName || merchant.name, support_email: settings?.supportEmail ?? null, logo_url: settings?.logoUrl ?? null },
    disabled: settings?.disabledKinds ?? [],
  };
}

/** Team messages go to the merchant's active owners and admins (else to its support address). */
async function teamRecipients(em: EntityManager, merchantId: string, brand: Branding): Promise<string | null> {
  const members = await em.find(TeamMember, { merchant: merchantId, role: { $in: ['owner', 'admin'] }, passwordHash: { $ne: null } }, { orderBy: { createdAt: 'asc' } });
  const to = members.map((m) => m.email);
  if (!to.length && brand.support_email) to.push(brand.support_email);
  return to.length ? to.join(', ') : null;
}

const isShopperKind = (kind: EmailKind): kind is ShopperEmailKind => (SHOPPER_EMAIL_KINDS as readonly string[]).includes(kind);

/** The message as it will be sent, or why it is not (turned off, nobody to send it to). */
export async function composeEmail(em: EntityManager, m: EmailMessage): Promise<({ to: string } & RenderedEmail) | { skipped: string }> {
  const { brand, disabled } = await brandingOf(em, m.merchant.id);
  if (isShopperKind(m.kind) && disabled.includes(m.kind)) return { skipped: 'turned off in Settings → Emails' };
  const to = m.to || (isShopperKind(m.kind) ? null : await teamRecipients(em, m.merchant.id, brand));
  if (!to) return { skipped: 'no recipient address' };
  return { to, ...renderEmail(m.kind, brand, await VARS[m.kind](em, m), !m.livemode) };
}
