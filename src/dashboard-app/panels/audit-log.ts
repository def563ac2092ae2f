/** Settings → Audit log: who did what, newest first, filtered by action, actor, object and time, a page at a time. */
import { field, h, lower, table, when } from '../dom.js';
import { graphql, type VariablesOf } from '../graphql.js';
import { button, input, say, value, type ConsoleContext } from '../settings-kit.js';

const AuditLog =
  graphql(`query($after: String, $action: AuditAction, $actorId: String, $objectId: String, $createdAfter: DateTimeISO, $createdBefore: DateTimeISO) {
        auditLog(first: 25, after: $after, action: $action, actorId: $actorId, objectId: $objectId, createdAfter: $createdAfter, createdBefore: $createdBefore) {
          nodes { id action actorKind actorId actorLabel objectId ipAddress createdAt details } pageInfo { hasNextPage endCursor } } }`);

const AUDIT_ACTIONS = [
  'API_KEY_CREATED',
  'API_KEY_REVOKED',
  'API_KEY_ROLLED',
  'CONSOLE_LOCKED_OUT',
  'CONSOLE_SIGNED_IN',
  'CONSOLE_SIGN_IN_FAILED',
  'CONSOLE_TWO_FACTOR_ENABLED',
  'PAYMENT_LINK_CANCELLED',
  'REFUND_CREATED',
  'SUBSCRIPTION_CANCELLED',
  'SUBSCRIPTION_RESUMED',
  'TEAM_MEMBER_INVITED',
  'TEAM_MEMBER_REMOVED',
  'TEAM_MEMBER_ROLE_CHANGED',
  'WEBHOOK_ENDPOINT_CREATED',
  'WEBHOOK_ENDPOINT_DELETED',
  'WEBHOOK_ENDPOINT_DISABLED',
  'WEBHOOK_ENDPOINT_ENABLED',
  'WEBHOOK_ENDPOINT_RECOVERED',
  'WEBHOOK_ENDPOINT_SECRET_ROTATED',
  'WEBHOOK_ENDPOINT_UPDATED',
];

/** Draws the audit log page into `root`: its filters, then the newest entries. */
export async function auditPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const list = h('div', { id: 'audit' });
  const more = button('Older entries', () => void load(true).catch((err) => say((err as Error).message, true)), {
    id: 'audit-more',
    hidden: 'true',
  });
  let after: string | null = null;
  let latest = 0; // the answer of the latest load only is drawn (a filter may be applied while the first page loads)
  const load = async (append: boolean) => {
    const asked = ++latest;
    const iso = (id: string) => (value(id) ? new Date(value(id)).toISOString() : undefined);
    const vars = {
      after: append ? after : null,
      action: (value('audit-action') || undefined) as VariablesOf<typeof AuditLog>['action'],
      actorId: value('audit-actor') || undefined,
      objectId: value('audit-object') || undefined,
      createdAfter: iso('audit-from'),
      createdBefore: iso('audit-to'),
    };
    const { auditLog } = await ctx.query(AuditLog, vars);
    if (asked !== latest) return;
    after = auditLog.pageInfo.endCursor;
    more.hidden = !auditLog.pageInfo.hasNextPage;
    const rows = auditLog.nodes.map((a) =>
      h(
        'tr',
        { 'data-audit-id': a.id, 'data-action': lower(a.action) },
        h('td', {}, h('time', { datetime: a.createdAt }, when(a.createdAt))),
        h('td', {}, lower(a.action).replace(/_/g, ' ')),
        h('td', {}, a.actorLabel ?? a.actorId ?? lower(a.actorKind)),
        h('td', {}, a.objectId ? h('code', {}, a.objectId) : '–'),
        h('td', {}, a.ipAddress ?? '–'),
        h('td', {}, a.details ? h('code', {}, JSON.stringify(a.details)) : ''),
      ),
    );
    if (append) list.querySelector('tbody')?.append(...rows);
    else
      list.replaceChildren(
        table('Audit log entries, newest first', ['When', 'Action', 'Who', 'Object', 'From', 'Details'], rows, {
          id: 'audit-table',
        }),
      );
    if (!append && !rows.length) list.append(h('p', { class: 'help' }, 'No entries.'));
  };
  const form = h(
    'form',
    { id: 'audit-filters', class: 'filters', novalidate: true },
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'audit-action' }, 'Action'),
      h(
        'select',
        { id: 'audit-action' },
        h('option', { value: '' }, 'any'),
        ...AUDIT_ACTIONS.map((a) => h('option', { value: a }, lower(a).replace(/_/g, ' '))),
      ),
    ),
    field('Actor (usr_… or key_…)', input('audit-actor')),
    field('Object (re_…, we_…, key_…)', input('audit-object')),
    field('From', input('audit-from', { type: 'datetime-local' })),
    field('To', input('audit-to', { type: 'datetime-local' })),
    h('button', { type: 'submit' }, 'Filter'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void load(false).catch((err) => say((err as Error).message, true));
  });
  root.replaceChildren(form, list, more);
  await load(false);
}
