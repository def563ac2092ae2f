import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { publicLink } from '../../platform/links.js';
import { renderPdf } from '../../platform/pdf.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { Payment } from '../payments/payment.entity.js';
import { cardLabel, money } from '../shared/labels.js';
import { Order, type OrderLineItem } from './order.entity.js';

/** Receipt links are valid for one hour. */
export const RECEIPT_LINK_TTL_S = 3600;

const HAS_RECEIPT = new Set(['captured', 'partially_refunded', 'refunded', 'disputed']);

function sign(key: string, orderId: string, expires: number): string {
  return createHmac('sha256', key).update(`${orderId}.${expires}`).digest('hex');
}

/** Merchants' receipt signing keys, read once per process (a key is made with its merchant and never changes). */
const signingKeys = new Map<string, string>();

async function signingKeyOf(ctx: ServiceContext): Promise<string> {
  const id = ctx.principal.merchantId;
  let key = signingKeys.get(id);
  if (key === undefined) {
    key = (await ctx.em.findOneOrFail(Merchant, id)).signingKey;
    if (signingKeys.size >= 10_000) signingKeys.clear();
    signingKeys.set(id, key);
  }
  return key;
}

/** A fresh signed link to the order's PDF receipt, valid one hour; null until the payment is captured. */
export async function receiptUrl(ctx: ServiceContext, order: Pick<Order, 'id' | 'paymentStatus'>): Promise<string | null> {
  if (!HAS_RECEIPT.has(order.paymentStatus)) return null;
  // The caller's own order (read in its scope): the caller's merchant signs.
  return signedPdfLink(ctx, '/receipts', order.id);
}

/** A link to `{path}/{id}.pdf` signed with the caller's merchant key, valid one hour (receipts, letters of medical necessity). */
export async function signedPdfLink(ctx: ServiceContext, path: string, id: string): Promise<string> {
  const expires = Math.floor(Date.now() / 1000) + RECEIPT_LINK_TTL_S;
  return publicLink(`${path}/${id}.pdf?expires=${expires}&signature=${sign(await signingKeyOf(ctx), id, expires)}`);
}

/** Throws 404 `not_found` unless `signature` signs `id` until `expires` (not yet past) with `signingKey`. */
export function checkPdfLink(signingKey: string, id: string, expires: unknown, signature: unknown, refused: () => DomainError): void {
  const exp = Number(expires);
  if (!Number.isInteger(exp) || typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) throw refused();
  const expected = Buffer.from(sign(signingKey, id, exp), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')) || exp < Date.now() / 1000) throw refused();
}

/** Checks a receipt link and renders the PDF; an expired, forged or unknown link is 404 `not_found`. */
export async function openReceipt(orm: MikroORM, orderId: string, expires: unknown, signature: unknown): Promise<Buffer> {
  const refused = () => new DomainError('not_found', 'This receipt link is invalid or has expired; request the order again for a fresh link.');
  const em = orm.em.fork();
  const order = await em.findOne(Order, { id: orderId });
  if (!order || !HAS_RECEIPT.has(order.paymentStatus)) throw refused();
  const merchant = await em.findOneOrFail(Merchant, order.merchant.id);
  checkPdfLink(merchant.signingKey, order.id, expires, signature, refused);
  return renderReceipt(merchant, order, await paymentsOf(em, order.id));
}

const paymentsOf = (em: EntityManager, orderId: string) => em.find(Payment, { orderId }, { orderBy: { capturedAt: 'asc', paymentMethod: 'desc' } });

/** The file name of an order's receipt PDF. */
export const receiptFilename = (order: Pick<Order, 'orderNumber'>) => `receipt-${order.orderNumber}.pdf`;

/** An order's receipt PDF as an email attaches it (the order read from `em`, any merchant); null while the order has no receipt. */
export async function receiptAttachment(em: EntityManager, orderId: string): Promise<{ filename: string; content: Buffer; contentType: string } | null> {
  const order = await em.findOne(Order, { id: orderId });
  if (!order || !HAS_RECEIPT.has(order.paymentStatus)) return null;
  const merchant = await em.findOneOrFail(Merchant, order.merchant.id);
  return { filename: receiptFilename(order), content: await renderReceipt(merchant, order, await paymentsOf(em, order.id)), contentType: 'application/pdf' };
}

/** What the receipt and its email say of an item's eligibility. */
export function eligibilityLabel(l: Pick<OrderLineItem, 'hsa_fsa_eligible' | 'requires_lmn'>): string {
  if (!l.hsa_fsa_eligible) return 'Not HSA/FSA eligible';
  return l.requires_lmn ? 'HSA/FSA eligible with a letter of medical necessity' : 'HSA/FSA eligible';
}

/** The receipt PDF: items marked HSA/FSA eligible, the split, and each card charged. */
function renderReceipt(merchant: Merchant, order: Order, payments: Payment[]): Promise<Buffer> {
  return renderPdf({ margin: 50, title: `Receipt ${order.orderNumber}`, author: merchant.name }, (doc) => {
    doc.fontSize(20).text(merchant.name).moveDown(0.3);
    doc.fontSize(12).text(`Receipt for order ${order.orderNumber}`);
    doc
      .fontSize(9)
      .fillColor('#555')
      .text(`Order ${order.id} · ${(order.completedAt ?? order.createdAt).toISOString().slice(0, 10)}${order.livemode ? '' : ' · TEST MODE'}`)
      .fillColor('black');
    doc.moveDown();
    const c = order.customer;
    doc.fontSize(10).text(`Billed to: ${c.first_name} ${c.last_name} <${c.email}>`);
    const a = c.billing_address;
    if (a) doc.text(`${a.address_line_1}${a.address_line_2 ? `, ${a.address_line_2}` : ''}, ${a.city}, ${a.state} ${a.postal_code}, ${a.country}`);
    doc.moveDown();
    doc.fontSize(11).text('Items', { underline: true }).fontSize(10);
    for (const l of order.lineItems) {
      doc.text(`${l.quantity} × ${l.name} — ${eligibilityLabel(l)} — ${money(l.price * l.quantity, order.currency)}`);
    }
    doc.moveDown();
    const m = order.amounts;
    for (const [label, value] of [
      ['Subtotal', m.subtotal],
      ['Discount', -m.discount],
      ['Shipping', m.shipping],
      ['Tax', m.tax],
      ['Total', m.total],
      ['HSA/FSA eligible amount', m.hsa_amount],
      ['Regular amount', m.regular_amount],
    ] as const) {
      doc.text(`${label}: ${money(value, order.currency)}`);
    }
    doc.moveDown();
    doc.fontSize(11).text('Payments', { underline: true }).fontSize(10);
    for (const p of payments) {
      doc.text(`Paid by ${cardLabel(p)}: ${money(p.amount, p.currency)}${p.refundedAmount ? ` (refunded ${money(p.refundedAmount, p.currency)})` : ''}`);
    }
    if (order.lmn?.letter_id) doc.moveDown().text(`HSA/FSA items covered by letter of medical necessity ${order.lmn.letter_id}`);
  });
}
