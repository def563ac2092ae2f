/** Settings → LMN reviews: the clinicians' queue (approve with the condition, decline with a reason), and the reviews decided. */
import { field, h, lower, money, table, when } from '../dom.js';
import { graphql, type ResultOf } from '../graphql.js';
import { attempt, button, input, say, value, type ConsoleContext } from '../settings-kit.js';

const ReviewFields = graphql(`
  fragment ReviewFields on LmnReview {
    id
    status
    answers
    items {
      productId
      name
    }
    customer
    orderId
    amountHeld
    currency
    condition
    reason
    decidedAt
    letterId
    expiresAt
    createdAt
  }
`);
/** A review as selected; its `answers` and `customer` are JSON objects, read with the keys the checkout writes. */
type Review = Omit<ResultOf<typeof ReviewFields>, 'answers' | 'customer'> & {
  answers: {
    condition?: string;
    recommended_by_provider?: boolean;
    provider_name?: string | null;
    attestation?: boolean;
  };
  customer: { email?: string; first_name?: string; last_name?: string };
};

const shopper = (r: Review) =>
  `${r.customer.first_name ?? ''} ${r.customer.last_name ?? ''}`.trim() || (r.customer.email ?? 'Unknown shopper');
const yesNo = (v: boolean | undefined) => (v ? 'yes' : 'no');

/** One pending review: what the shopper answered, the items, the hold; a clinician's approve and decline. */
function reviewCard(r: Review, ctx: ConsoleContext, decided: () => Promise<void>): HTMLElement {
  const clinician = ctx.role === 'clinician';
  const a = r.answers;
  const decide = (run: () => Promise<string>) =>
    void attempt(async () => {
      const outcome = await run();
      await decided(); // the queue drawn again without it, then the outcome said
      say(outcome);
    });
  const conditionId = `condition-${r.id}`;
  const reasonId = `reason-${r.id}`;
  return h(
    'article',
    { class: 'review', 'data-review-id': r.id, 'aria-labelledby': `title-${r.id}` },
    h('h3', { id: `title-${r.id}` }, `${shopper(r)} `, h('span', { class: 'help' }, `<${r.customer.email ?? ''}>`)),
    h(
      'dl',
      {},
      h('dt', {}, 'Condition (as the shopper gave it)'),
      h('dd', {}, a.condition ?? ''),
      h('dt', {}, 'Recommended by a provider'),
      h('dd', {}, `${yesNo(a.recommended_by_provider)}${a.provider_name ? ` (${a.provider_name})` : ''}`),
      h('dt', {}, 'Attested'),
      h('dd', {}, yesNo(a.attestation)),
      h('dt', {}, 'Items'),
      h('dd', {}, h('ul', {}, ...r.items.map((i) => h('li', {}, `${i.name} (${i.productId})`)))),
      h('dt', {}, 'HSA/FSA card held'),
      h('dd', {}, `${money(r.amountHeld, r.currency)} · order ${r.orderId}`),
      h('dt', {}, 'Requested'),
      h(
        'dd',
        {},
        h('time', { datetime: r.createdAt }, when(r.createdAt)),
        ' · released unless decided by ',
        h('time', { datetime: r.expiresAt }, when(r.expiresAt)),
      ),
    ),
    clinician
      ? h(
          'div',
          { class: 'decision' },
          field(
            'Condition on the letter',
            input(conditionId, { value: a.condition ?? '', maxlength: '500' }),
            'Approving captures the HSA/FSA hold and issues the letter (valid 12 months).',
          ),
          button(
            'Approve',
            () =>
              decide(async () => {
                const { approveLmnReview: p } = await ctx.query(
                  graphql(
                    'mutation($id: ID!, $condition: String) { approveLmnReview(id: $id, condition: $condition) { letter { id } userErrors { message } } }',
                  ),
                  { id: r.id, condition: value(conditionId) || null },
                );
                if (p.userErrors.length) throw new Error(p.userErrors[0].message);
                return `Approved: letter ${p.letter!.id} issued to ${shopper(r)}; the HSA/FSA payment is captured.`;
              }),
            { id: `approve-${r.id}` },
          ),
          field(
            'Reason (told to the shopper)',
            input(reasonId, { maxlength: '500' }),
            'Declining releases the hold and refunds the rest of the order.',
          ),
          button(
            'Decline',
            () =>
              decide(async () => {
                const { declineLmnReview: p } = await ctx.query(
                  graphql(
                    'mutation($id: ID!, $reason: String) { declineLmnReview(id: $id, reason: $reason) { review { status } userErrors { message } } }',
                  ),
                  { id: r.id, reason: value(reasonId) || null },
                );
                if (p.userErrors.length) throw new Error(p.userErrors[0].message);
                return `Declined: the hold on ${shopper(r)}'s HSA/FSA card is released.`;
              }),
            { id: `decline-${r.id}`, class: 'danger' },
          ),
        )
      : h('p', { class: 'help' }, 'Only a clinician decides a review (Settings → Team gives the clinician role).'),
  );
}

export async function lmnReviewsPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const draw = async () => {
    const data = await ctx.query(
      graphql(
        `{ pending: lmnReviews(status: PENDING, first: 50) { nodes { ...ReviewFields } } recent: lmnReviews(first: 50) { nodes { ...ReviewFields } } }`,
        [ReviewFields],
      ),
    );
    const [pending, recent] = [data.pending, data.recent] as { nodes: Review[] }[];
    const queue = h('section', { id: 'lmn-queue', 'aria-label': 'Pending reviews' });
    if (pending.nodes.length) queue.append(...pending.nodes.map((r) => reviewCard(r, ctx, draw)));
    else queue.append(h('p', { class: 'help' }, 'No review is waiting.'));
    const decided = recent.nodes.filter((r) => r.status !== 'PENDING');
    const rows = decided.map((r) =>
      h(
        'tr',
        { 'data-review-id': r.id, 'data-status': lower(r.status) },
        h('td', {}, r.decidedAt ? h('time', { datetime: r.decidedAt }, when(r.decidedAt)) : ''),
        h('td', {}, shopper(r)),
        h('td', {}, r.items.map((i) => i.name).join(', ')),
        h('td', {}, lower(r.status)),
        h('td', {}, r.letterId ?? r.reason ?? ''),
      ),
    );
    root.replaceChildren(
      h('h3', {}, `Waiting for a clinician (${pending.nodes.length})`),
      queue,
      h('h3', {}, 'Decided'),
      rows.length
        ? table('Reviews decided, newest first', ['Decided', 'Shopper', 'Items', 'Outcome', 'Letter or reason'], rows, {
            id: 'lmn-decided',
          })
        : h('p', { class: 'help' }, 'None yet.'),
    );
  };
  await draw();
}
