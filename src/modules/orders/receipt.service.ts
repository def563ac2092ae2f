import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { publicLink } from '../../platform/links.js';
import { renderPdf } from '../../platform/pdf.js';
import { brandingOf } from '../email/email-compose.js';
import type { Branding } from '../email/email-templates.js';
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
export async function receiptUrl(
  ctx: ServiceContext,
  order: Pick<Order, 'id' | 'paymentStatus'>,
): Promise<string | null> {
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
export function checkPdfLink(
  signingKey: string,
  id: string,
  expires: unknown,
  signature: unknown,
  refused: () => DomainError,
): void {
  const exp = Number(expires);
  if (!Number.isInteger(exp) || typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) throw refused();
  const expected = Buffer.from(sign(signingKey, id, exp), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')) || exp < Date.now() / 1000) throw refused();
}

/** Checks a receipt link and renders the PDF; an expired, forged or unknown link is 404 `not_found`. */
export async function openReceipt(
  orm: MikroORM,
  orderId: string,
  expires: unknown,
  signature: unknown,
): Promise<Buffer> {
  const refused = () =>
    new DomainError(
      'not_found',
      'This receipt link is invalid or has expired; request the order again for a fresh link.',
    );
  const em = orm.em.fork();
  const order = await em.findOne(Order, { id: orderId });
  if (!order || !HAS_RECEIPT.has(order.paymentStatus)) throw refused();
  const merchant = await em.findOneOrFail(Merchant, order.merchant.id);
  checkPdfLink(merchant.signingKey, order.id, expires, signature, refused);
  return renderReceipt(em, merchant, order);
}

const paymentsOf = (em: EntityManager, orderId: string) =>
  em.find(Payment, { orderId }, { orderBy: { capturedAt: 'asc', paymentMethod: 'desc' } });

/** The file name of an order's receipt PDF. */
export const receiptFilename = (order: Pick<Order, 'orderNumber'>) => `receipt-${order.orderNumber}.pdf`;

/** An order's receipt PDF as an email attaches it (the order read from `em`, any merchant); null while the order has no receipt. */
export async function receiptAttachment(
  em: EntityManager,
  orderId: string,
): Promise<{ filename: string; content: Buffer; contentType: string } | null> {
  const order = await em.findOne(Order, { id: orderId });
  if (!order || !HAS_RECEIPT.has(order.paymentStatus)) return null;
  const merchant = await em.findOneOrFail(Merchant, order.merchant.id);
  return {
    filename: receiptFilename(order),
    content: await renderReceipt(em, merchant, order),
    contentType: 'application/pdf',
  };
}

/** A refund as the receipt lists it (the refunds module says which, `registerReceiptRefunds`). */
export interface ReceiptRefund {
  at: Date;
  amount: number;
  hsaAmount: number;
  regularAmount: number;
  /** The order lines a line refund returned (empty: an amount refund). */
  lines: { lineItemId: string; quantity: number }[];
}
type RefundsReader = (em: EntityManager, orderId: string) => Promise<ReceiptRefund[]>;
let refundsOf: RefundsReader = () => Promise.resolve([]);

/** The refunds module tells receipts an order's money returned (orders never import refunds). */
export function registerReceiptRefunds(read: RefundsReader): void {
  refundsOf = read;
}

/** What the receipt and its email say of an item's eligibility. */
export function eligibilityLabel(l: Pick<OrderLineItem, 'hsa_fsa_eligible' | 'requires_lmn'>): string {
  if (!l.hsa_fsa_eligible) return 'Not HSA/FSA eligible';
  return l.requires_lmn ? 'HSA/FSA eligible with a letter of medical necessity' : 'HSA/FSA eligible';
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const lineTotal = (l: OrderLineItem) => l.price * l.quantity;

/**
 * The receipt PDF, as plan administrators read it: who sold (name, address, contact), each item
 * marked HSA/FSA eligible or not, the eligible items' total, what each card paid, every refund
 * with its date and split, and the net figures after refunds.
 */
async function renderReceipt(em: EntityManager, merchant: Merchant, order: Order): Promise<Buffer> {
  const [payments, refunds, { brand }] = await Promise.all([
    paymentsOf(em, order.id),
    refundsOf(em, order.id),
    brandingOf(em, merchant.id),
  ]);
  return drawReceipt(brand, order, payments, refunds);
}

function drawReceipt(brand: Branding, order: Order, payments: Payment[], refunds: ReceiptRefund[]): Promise<Buffer> {
  const c = order.currency;
  return renderPdf({ margin: 50, title: `Receipt ${order.orderNumber}`, author: brand.name }, (doc) => {
    doc.fontSize(20).text(brand.name).moveDown(0.2);
    const contact = [brand.business_address, brand.phone, brand.support_email].filter(Boolean).join(' · ');
    if (contact) doc.fontSize(9).text(contact);
    doc.moveDown(0.3);
    doc.fontSize(12).text(`Receipt for order ${order.orderNumber}`);
    doc
      .fontSize(9)
      .fillColor('#555')
      .text(`Order ${order.id} · ${day(order.completedAt ?? order.createdAt)}${order.livemode ? '' : ' · TEST MODE'}`)
      .fillColor('black');
    doc.moveDown();
    const customer = order.customer;
    doc.fontSize(10).text(`Billed to: ${customer.first_name} ${customer.last_name} <${customer.email}>`);
    const a = customer.billing_address;
    if (a)
      doc.text(
        `${a.address_line_1}${a.address_line_2 ? `, ${a.address_line_2}` : ''}, ${a.city}, ${a.state} ${a.postal_code}, ${a.country}`,
      );
    doc.moveDown();
    doc.fontSize(11).text('Items', { underline: true }).fontSize(10);
    for (const l of order.lineItems)
      doc.text(`${l.quantity} × ${l.name} — ${eligibilityLabel(l)} — ${money(lineTotal(l), c)}`);
    doc.moveDown();
    const m = order.amounts;
    const eligible = order.lineItems.filter((l) => l.hsa_fsa_eligible).reduce((sum, l) => sum + lineTotal(l), 0);
    for (const [label, value] of [
      ['Subtotal', m.subtotal],
      ['Discount', -m.discount],
      ['Shipping', m.shipping],
      ['Tax', m.tax],
      ['Total', m.total],
      ['HSA/FSA eligible items', eligible],
      ['Paid by HSA/FSA card', m.hsa_amount],
      ['Paid by other cards', m.regular_amount],
    ] as const) {
      doc.text(`${label}: ${money(value, c)}`);
    }
    doc.moveDown();
    doc.fontSize(11).text('Payments', { underline: true }).fontSize(10);
    for (const p of payments) doc.text(`Paid by ${cardLabel(p)}: ${money(p.amount, p.currency)}`);
    if (refunds.length) {
      const names = new Map(order.lineItems.map((l) => [l.id, l.name]));
      doc.moveDown();
      doc.fontSize(11).text('Refunds', { underline: true }).fontSize(10);
      for (const r of refunds) {
        const lines = r.lines.map((l) => `${l.quantity} × ${names.get(l.lineItemId) ?? l.lineItemId}`).join(', ');
        doc.text(
          `${day(r.at)}: refunded ${money(r.amount, c)} (to the HSA/FSA card ${money(r.hsaAmount, c)}, to other cards ${money(r.regularAmount, c)})${lines ? ` for ${lines}` : ''}`,
        );
      }
      const back = (pick: (r: ReceiptRefund) => number) => refunds.reduce((sum, r) => sum + pick(r), 0);
      doc.moveDown();
      doc.text(`Net total after refunds: ${money(m.total - back((r) => r.amount), c)}`);
      doc.text(`Net paid by HSA/FSA card: ${money(m.hsa_amount - back((r) => r.hsaAmount), c)}`);
      doc.text(`Net paid by other cards: ${money(m.regular_amount - back((r) => r.regularAmount), c)}`);
    }
    if (order.lmn?.letter_id)
      doc.moveDown().text(`HSA/FSA items covered by letter of medical necessity ${order.lmn.letter_id}`);
  });
}
