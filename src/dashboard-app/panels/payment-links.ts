/** Dashboard → Payment links (when the graph has them: their fields are found by introspection), with copy and cancel. */
import { discoverList } from '../api.js';
import { $, h, lower, money } from '../dom.js';
import { can } from '../settings-kit.js';
import { graphql } from '../graphql.js';
import { currentRole, query, queryText } from '../session.js';

const CancelPaymentLink = graphql(`
  mutation CancelPaymentLink($input: CancelPaymentLinkInput!) {
    cancelPaymentLink(input: $input) {
      paymentLink {
        id
      }
      userErrors {
        message
      }
    }
  }
`);
import { refreshCheckouts } from './checkouts.js';
import { act, copyButton } from './dashboard-kit.js';

/** A payment link as far as the graph has the wanted fields (discoverList): each may be missing. */
interface LinkRow {
  id?: string;
  paymentLinkId?: string;
  linkId?: string;
  status?: string;
  url?: string | null;
  amount?: number | null;
  amountCents?: number | null;
  currency?: string | null;
  description?: string | null;
  products?: { name: string; quantity: number }[];
  createdAt?: string;
}

/** The fields of a payment link this graph has (null: it has no payment links, or introspection is off). */
let discovered: Awaited<ReturnType<typeof discoverList>> = null;

/** Looks up which of the wanted fields the graph has; true when it has payment links to show. */
export async function discoverLinks(): Promise<boolean> {
  discovered = await discoverList('paymentLinks', [
    'id',
    'paymentLinkId',
    'linkId',
    'status',
    'url',
    'amount',
    'amountCents',
    'currency',
    'description',
    'products',
    'createdAt',
  ]);
  return discovered !== null;
}

/** Signed out: nothing is known of the next session's graph. */
export function forgetLinks(): void {
  discovered = null;
}

/** A link as a person names it: its description, else what it sells (the products' names), never its id. */
const linkName = (l: LinkRow) =>
  l.description ??
  (l.products?.length
    ? l.products.map((p) => (p.quantity > 1 ? `${p.quantity} × ${p.name}` : p.name)).join(', ')
    : 'Payment link');

/** Draws the 10 latest payment links (when the graph has them). */
export async function refreshLinks(): Promise<void> {
  if (!discovered) return;
  const fields = discovered.fields.map((f) => (f === 'products' ? 'products { name quantity }' : f));
  const data = await queryText<{ paymentLinks: { nodes: LinkRow[] } }>(
    `{ paymentLinks(first: 10) { nodes { ${fields.join(' ')} } } }`,
  );
  $('payment-links').replaceChildren(
    ...data.paymentLinks.nodes.map((l) => {
      const cents = l.amount ?? l.amountCents;
      return h(
        'li',
        {},
        h('span', { class: `badge ${lower(String(l.status ?? ''))}` }, lower(String(l.status ?? ''))),
        ' ',
        linkName(l),
        cents != null ? ` · ${money(cents, l.currency ?? 'usd')}` : '',
        l.url ? ' · ' : '',
        l.url ? h('a', { href: l.url, target: '_blank', rel: 'noopener noreferrer' }, 'open link') : null,
        l.url ? ' ' : '',
        l.url ? copyButton(l.url, `Copy URL of ${linkName(l)}`) : null,
        l.id && lower(String(l.status ?? '')) === 'active' && can(currentRole(), 'payment_links:write')
          ? h(
              'button',
              {
                type: 'button',
                class: 'danger',
                'aria-label': `Cancel ${linkName(l)}`,
                // Its checkout session closes with it: the open checkouts are drawn again first.
                onclick: () =>
                  void act(
                    `Cancel the payment link ${linkName(l)}?`,
                    () => query(CancelPaymentLink, { input: { id: l.id! } }),
                    () => refreshCheckouts().then(refreshLinks),
                  ),
              },
              'Cancel',
            )
          : null,
      );
    }),
  );
  if (!data.paymentLinks.nodes.length) $('payment-links').append(h('li', {}, 'No payment links.'));
}
