/** Dashboard → Recent orders: the latest 20, an order's details and receipt, and its refund (with the HSA/FSA split shown first). */
import { splitRefund } from '../../modules/refunds/refund-split.js';
import { $, h, lower, money, replaceRows, when } from '../dom.js';
import { graphql, type ResultOf, type VariablesOf } from '../graphql.js';
import { can } from '../settings-kit.js';
import { currentRole, query, showError, SignedOut } from '../session.js';

/** Draws the 20 most recent orders. */
export async function refreshOrders(): Promise<void> {
  const data = await query(
    graphql(
      `{ orders(first: 20) { nodes { id orderId orderNumber status paymentStatus amount currency createdAt customer { email firstName lastName } amounts { hsaAmount regularAmount total } payments { amount refundedAmount paymentMethod } } } }`,
    ),
  );
  replaceRows(
    document.querySelector('#orders tbody')!,
    'data-order-id',
    data.orders.nodes.map((o) => {
      const refunded = o.payments.reduce((s, p) => s + p.refundedAmount, 0);
      return h(
        'tr',
        { 'data-order-id': o.orderId },
        h(
          'th',
          { scope: 'row' },
          h(
            'button',
            {
              type: 'button',
              class: 'link',
              onclick: () => void openOrder(o.id).catch(showError),
              'aria-label': `Order ${o.orderNumber}: details and receipt`,
            },
            o.orderNumber,
          ),
        ),
        h('td', { 'data-label': 'Customer' }, `${o.customer.firstName} ${o.customer.lastName}`),
        h(
          'td',
          { 'data-label': 'Status' },
          h(
            'span',
            { class: `badge ${lower(o.paymentStatus)}` },
            `${lower(o.status)} · ${lower(o.paymentStatus).replace('_', ' ')}`,
          ),
        ),
        h('td', { class: 'num', 'data-label': 'Total' }, money(o.amount, o.currency)),
        h('td', { class: 'num', 'data-label': 'HSA/FSA' }, money(o.amounts.hsaAmount, o.currency)),
        h('td', { class: 'num', 'data-label': 'Regular' }, money(o.amounts.regularAmount, o.currency)),
        h('td', { class: 'num', 'data-label': 'Refunded' }, refunded ? money(refunded, o.currency) : '–'),
        h('td', { 'data-label': 'Created' }, h('time', { datetime: o.createdAt }, when(o.createdAt))),
      );
    }),
  );
  $('orders-empty').hidden = data.orders.nodes.length > 0;
}

/** The order panel's selection (openOrder). */
const OrderDetailQuery =
  graphql(`query($id: ID!) { order(id: $id) { orderId orderNumber status paymentStatus amount currency createdAt receiptUrl failureReason
       customer { email firstName lastName } amounts { subtotal hsaAmount regularAmount shipping tax discount total }
       lineItems { name quantity price hsaFsaEligible requiresLmn }
       payments { paymentMethod brand last4 amount refundedAmount capturedAt }
       refunds(first: 20) { nodes { refundId amount status reason createdAt } } } }`);
type OrderDetail = NonNullable<ResultOf<typeof OrderDetailQuery>['order']>;

async function openOrder(id: string): Promise<void> {
  const { order: o } = await query(OrderDetailQuery, { id });
  if (!o) throw new Error('No such order.');
  const panel = $('order-detail');
  $('order-detail-title').textContent = `Order ${o.orderNumber}`;
  const c = o.currency;
  $('order-detail-body').replaceChildren(
    h(
      'p',
      {},
      `${o.customer.firstName} ${o.customer.lastName} <${o.customer.email}> · ${when(o.createdAt)} · ${lower(o.status)}, ${lower(o.paymentStatus).replace('_', ' ')}`,
      o.failureReason ? ` · ${o.failureReason}` : '',
    ),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        {},
        h('caption', {}, 'Line items'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Item'),
            h('th', { scope: 'col', class: 'num' }, 'Qty'),
            h('th', { scope: 'col', class: 'num' }, 'Price'),
            h('th', { scope: 'col' }, 'HSA/FSA'),
          ),
        ),
        h(
          'tbody',
          {},
          ...o.lineItems.map((l) =>
            h(
              'tr',
              {},
              h('td', {}, l.name),
              h('td', { class: 'num' }, String(l.quantity)),
              h('td', { class: 'num' }, money(l.price, c)),
              h('td', {}, l.hsaFsaEligible ? (l.requiresLmn ? 'eligible with LMN' : 'eligible') : 'no'),
            ),
          ),
        ),
      ),
    ),
    h(
      'p',
      {},
      `Total ${money(o.amounts.total, c)}: HSA/FSA ${money(o.amounts.hsaAmount, c)}, regular ${money(o.amounts.regularAmount, c)} (shipping ${money(o.amounts.shipping, c)}, tax ${money(o.amounts.tax, c)}, discount ${money(o.amounts.discount, c)})`,
    ),
    h(
      'ul',
      { class: 'list' },
      ...o.payments.map((p) =>
        h(
          'li',
          {},
          `${p.paymentMethod === 'HSA_FSA_CARD' ? 'HSA/FSA card' : 'Card'} ${p.brand} •••• ${p.last4}: ${money(p.amount, c)}${p.refundedAmount ? `, refunded ${money(p.refundedAmount, c)}` : ''}`,
        ),
      ),
    ),
    ...(o.refunds.nodes.length
      ? [
          h(
            'ul',
            { class: 'list' },
            ...o.refunds.nodes.map((r) =>
              h(
                'li',
                {},
                `Refund ${r.refundId}: ${money(r.amount, c)} ${lower(r.status)} (${lower(r.reason).replace(/_/g, ' ')})`,
              ),
            ),
          ),
        ]
      : []),
    o.receiptUrl
      ? h(
          'p',
          {},
          h(
            'a',
            { href: o.receiptUrl, target: '_blank', rel: 'noopener noreferrer', id: 'receipt-link' },
            'Download the receipt (PDF)',
          ),
        )
      : h('p', {}, 'No receipt until the payment is captured.'),
    refundForm(id, o) ?? '',
  );
  panel.hidden = false;
  panel.focus();
}

const REFUND_REASONS = [
  'CUSTOMER_REQUEST',
  'DAMAGED_PRODUCT',
  'DUPLICATE',
  'FRAUDULENT',
  'PRODUCT_UNAVAILABLE',
  'WRONG_PRODUCT',
  'OTHER',
];

/**
 * The refund of an order (for a role that may refund): the amount, the reason, and before it is
 * confirmed, its split between the HSA/FSA card and the regular card, computed from the order's
 * payments with the service's own splitRefund.
 */
const CreateRefund = graphql(
  'mutation($input: CreateRefundInput!) { createRefund(input: $input) { refund { refundId } userErrors { message } } }',
);
type RefundReason = VariablesOf<typeof CreateRefund>['input']['reason'];

function refundForm(id: string, o: OrderDetail): HTMLElement | null {
  if (!can(currentRole(), 'refunds:write')) return null;
  const c = o.currency;
  const payment = (method: string) => o.payments.find((p) => p.paymentMethod === method);
  const part = (method: string) => ({
    captured: payment(method)?.amount ?? 0,
    refunded: payment(method)?.refundedAmount ?? 0,
  });
  const hsa = part('HSA_FSA_CARD');
  const regular = part('CARD');
  const remaining = hsa.captured - hsa.refunded + regular.captured - regular.refunded;
  if (remaining <= 0 || !o.payments.some((p) => p.capturedAt)) return null;
  const amount = h('input', {
    id: 'refund-amount',
    type: 'text',
    inputmode: 'decimal',
    value: (remaining / 100).toFixed(2),
    'aria-describedby': 'refund-split',
  }) as HTMLInputElement;
  const reason = h(
    'select',
    { id: 'refund-reason' },
    ...REFUND_REASONS.map((r) => h('option', { value: r }, lower(r).replace(/_/g, ' '))),
  );
  const split = h('p', { id: 'refund-split', role: 'status' });
  const error = h('p', { id: 'refund-error', class: 'error', role: 'alert' });
  const cents = () => Math.round(Number(amount.value.replace(/[$,\s]/g, '')) * 100);
  const preview = (): { hsa: number; regular: number } | null => {
    const n = cents();
    if (!Number.isInteger(n) || n <= 0 || n > remaining) {
      split.textContent = `Enter an amount up to ${money(remaining, c)}.`;
      return null;
    }
    const share = splitRefund(n, hsa, regular);
    split.textContent = `Refund ${money(n, c)}: ${money(share.hsa, c)} to the HSA/FSA card, ${money(share.regular, c)} to the regular card.`;
    return share;
  };
  amount.addEventListener('input', () => void preview());
  const form = h(
    'form',
    { id: 'refund-form', novalidate: true, class: 'refund' },
    h('h3', {}, 'Refund'),
    h('label', { for: 'refund-amount' }, `Amount (at most ${money(remaining, c)})`),
    amount,
    h('label', { for: 'refund-reason' }, 'Reason'),
    reason,
    split,
    error,
    h('button', { type: 'submit' }, 'Refund'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const share = preview();
    if (!share) return;
    if (!window.confirm(`${split.textContent} Refund now?`)) return;
    void query(CreateRefund, {
      input: { orderId: id, amount: cents(), reason: (reason as HTMLSelectElement).value as RefundReason },
    })
      .then(() => openOrder(id))
      .then(() => refreshOrders())
      .catch((err: unknown) => {
        if (err instanceof SignedOut) return;
        error.textContent = `The refund was refused: ${(err as Error).message}`;
      });
  });
  preview();
  return form;
}
