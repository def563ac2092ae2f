/** Dashboard → Subscriptions (when the graph has them: their fields are found by introspection), with cancel and resume. */
import { discoverList } from '../api.js';
import { $, h, lower, money, when } from '../dom.js';
import { can } from '../settings-kit.js';
import { graphql } from '../graphql.js';
import { currentRole, query, queryText } from '../session.js';

const CancelSubscription = graphql(`
  mutation CancelSubscription($input: CancelSubscriptionInput!) {
    cancelSubscription(input: $input) {
      subscription {
        id
      }
      userErrors {
        message
      }
    }
  }
`);

const ResumeSubscription = graphql(`
  mutation ResumeSubscription($input: ResumeSubscriptionInput!) {
    resumeSubscription(input: $input) {
      subscription {
        id
      }
      userErrors {
        message
      }
    }
  }
`);
import { act } from './dashboard-kit.js';

const ATTENTION = ['past_due', 'action_required', 'unpaid', 'disputed'];

/** A subscription as far as the graph has the wanted fields (discoverList): each may be missing. */
interface SubscriptionRow {
  id?: string;
  subscriptionId?: string;
  description?: string;
  status?: string;
  amountCents?: number | null;
  amount?: number | null;
  currency?: string | null;
  customerId?: string | null;
  nextBillingDate?: string | null;
  currentPeriodEnd?: string | null;
  cancelAtPeriodEnd?: boolean;
}

/** The fields of a subscription this graph has (null: it has no subscriptions, or introspection is off). */
let discovered: Awaited<ReturnType<typeof discoverList>> = null;

/** Looks up which of the wanted fields the graph has; true when it has subscriptions to show. */
export async function discoverSubscriptions(): Promise<boolean> {
  discovered = await discoverList('subscriptions', [
    'id',
    'subscriptionId',
    'description',
    'status',
    'amountCents',
    'amount',
    'currency',
    'customerId',
    'nextBillingDate',
    'currentPeriodEnd',
    'cancelAtPeriodEnd',
  ]);
  return discovered !== null;
}

/** Signed out: nothing is known of the next session's graph. */
export function forgetSubscriptions(): void {
  discovered = null;
}

/** Where a subscription sits in the panel: needing attention first, then those ending at the period end, then the rest (newest first in each). */
const subscriptionRank = (s: SubscriptionRow) =>
  ATTENTION.includes(lower(s.status ?? '')) ? 0 : s.cancelAtPeriodEnd ? 1 : 2;

/** A subscription's actions for a role that may change subscriptions: resume a scheduled end, or cancel at the period end or now. */
function subscriptionActions(s: SubscriptionRow, name: string): HTMLElement | null {
  if (!s.id || !can(currentRole(), 'subscriptions:write')) return null;
  const action = (label: string, aria: string, run: () => void, danger = false) =>
    h(
      'button',
      { type: 'button', 'aria-label': `${aria} ${name}`, class: danger ? 'danger' : undefined, onclick: run },
      label,
    );
  if (s.cancelAtPeriodEnd)
    return action(
      'Resume',
      'Resume subscription',
      () =>
        void act(
          `Resume ${name}? It renews as before.`,
          () => query(ResumeSubscription, { input: { id: s.id! } }),
          refreshSubscriptions,
        ),
    );
  return h(
    'span',
    { class: 'actions' },
    action(
      'Cancel at period end',
      'Cancel at period end',
      () =>
        void act(
          `Cancel ${name} at the end of its period?`,
          () => query(CancelSubscription, { input: { id: s.id!, cancelAtPeriodEnd: true } }),
          refreshSubscriptions,
        ),
    ),
    action(
      'Cancel now',
      'Cancel now',
      () =>
        void act(
          `Cancel ${name} now?`,
          () => query(CancelSubscription, { input: { id: s.id! } }),
          refreshSubscriptions,
        ),
      true,
    ),
  );
}

/** Subscriptions that have not ended (of the latest 100): those needing attention, then those ending at the period end, then the others; 20 at most. */
export async function refreshSubscriptions(): Promise<void> {
  if (!discovered) return;
  const data = await queryText<{ subscriptions: { nodes: SubscriptionRow[] } }>(
    `{ subscriptions(first: 100) { nodes { ${discovered.fields.join(' ')} } } }`,
  );
  const shown = data.subscriptions.nodes
    .filter((s) => lower(s.status ?? '') !== 'cancelled')
    .sort((a, b) => subscriptionRank(a) - subscriptionRank(b))
    .slice(0, 20);
  $('subscriptions').replaceChildren(
    ...shown.map((s) => {
      const cents = s.amountCents ?? s.amount;
      const due = s.nextBillingDate ?? s.currentPeriodEnd;
      const status = lower(s.status ?? '');
      const name = s.subscriptionId ?? s.id ?? '';
      return h(
        'li',
        {
          'data-subscription-id': name,
          'data-status': status,
          'data-ending': s.cancelAtPeriodEnd ? 'true' : undefined,
        },
        h('span', { class: `badge ${status}` }, status.replace('_', ' ')),
        ' ',
        s.description ?? name,
        cents != null ? ` · ${money(cents, s.currency ?? 'usd')}` : '',
        s.cancelAtPeriodEnd && s.currentPeriodEnd
          ? ` · ends ${when(s.currentPeriodEnd)}`
          : due
            ? ` · next ${when(due)}`
            : '',
        ' ',
        subscriptionActions(s, name),
      );
    }),
  );
  if (!shown.length) $('subscriptions').append(h('li', {}, 'No current subscriptions.'));
}
