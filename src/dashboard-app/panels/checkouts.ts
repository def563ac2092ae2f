/** Dashboard → Open checkouts: the latest sessions still open, each with its hosted page's URL to copy. */
import { $, h, money, when } from '../dom.js';
import { graphql } from '../graphql.js';
import { can } from '../settings-kit.js';
import { currentRole, query } from '../session.js';
import { copyButton } from './dashboard-kit.js';

/** The latest open checkout sessions (not past their expiry), each with its hosted page's URL to copy. */
export async function refreshCheckouts(): Promise<void> {
  if (!can(currentRole(), 'checkout:read')) return;
  const data = await query(
    graphql(
      '{ checkoutSessions(first: 10, status: OPEN) { nodes { checkoutId checkoutUrl currency expiresAt customer { email } amounts { total } } } }',
    ),
  );
  $('checkouts').replaceChildren(
    ...data.checkoutSessions.nodes.map((c) =>
      h(
        'li',
        { 'data-checkout-id': c.checkoutId },
        h('code', {}, c.checkoutId),
        ` · ${[c.customer.email, money(c.amounts.total, c.currency), `until ${when(c.expiresAt)}`].filter(Boolean).join(' · ')} `,
        copyButton(c.checkoutUrl, `Copy URL of checkout ${c.checkoutId}`),
      ),
    ),
  );
  if (!data.checkoutSessions.nodes.length) $('checkouts').append(h('li', {}, 'No open checkouts.'));
}
