/** Settings pages of the console: API keys, security (TOTP), team, webhooks, audit log, branding and emails (settings-email.ts). */
import { RESTRICTABLE_RESOURCES, ROLE_PERMISSIONS, ROLES, type Role } from '../modules/merchants/permissions.js';
import QRCode from 'qrcode';
import { consoleCall } from './api.js';
import { $, field, h, lower, shownOnce, table, when } from './dom.js';
import { graphql, type ResultOf, type VariablesOf } from './graphql.js';
import { attempt, button, input, say, value, type ConsoleContext } from './settings-kit.js';
import { brandingPage, emailsPage } from './settings-email.js';
import { lmnReviewsPage } from './lmn-reviews.js';

export type { ConsoleContext } from './settings-kit.js';

/** Whether the role holds `permission` (`x:write` includes `x:read`). The server decides; this only hides what would be refused. */
export function can(role: string, permission: string): boolean {
  const held = ROLE_PERMISSIONS[role as Role];
  if (!held) return false;
  return held.has(permission) || (permission.endsWith(':read') && held.has(permission.replace(/:read$/, ':write')));
}

const PAGES: Record<
  string,
  { title: string; needs?: string; render: (root: HTMLElement, ctx: ConsoleContext) => Promise<void> }
> = {
  'api-keys': { title: 'API keys', needs: 'api_keys:write', render: apiKeysPage },
  security: { title: 'Security', render: securityPage },
  team: { title: 'Team', needs: 'team:write', render: teamPage },
  webhooks: { title: 'Webhooks', needs: 'webhooks:read', render: webhooksPage },
  audit: { title: 'Audit log', needs: 'audit_log:read', render: auditPage },
  branding: { title: 'Branding', needs: 'emails:write', render: brandingPage },
  emails: { title: 'Emails', needs: 'emails:read', render: emailsPage },
  'lmn-reviews': { title: 'LMN reviews', needs: 'lmn_reviews:read', render: lmnReviewsPage },
};

/** Hides the navigation's links the role cannot use. */
export function hideNavigation(role: string): void {
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#console-nav a[data-needs]'))
    a.parentElement!.hidden = !can(role, a.dataset.needs!);
}

/** Draws settings page `name` into `root`. */
export function showPage(name: string, root: HTMLElement, ctx: ConsoleContext): void {
  const page = PAGES[name];
  const status = h('p', { id: 'settings-status', class: 'help', role: 'status', 'aria-live': 'polite' });
  const body = h('div', { id: 'settings-body' });
  root.replaceChildren(
    h(
      'section',
      { class: 'card wide', 'aria-labelledby': 'settings-title' },
      h('h2', { id: 'settings-title', tabindex: '-1' }, page?.title ?? 'Not found'),
      status,
      body,
    ),
  );
  if (!page) return void (body.textContent = 'No such settings page.');
  if (page.needs && !can(ctx.role, page.needs))
    return void (body.textContent = `Your role (${ctx.role}) cannot use this page.`);
  $('settings-title').focus();
  void page.render(body, ctx).catch((err) => say(`Error: ${(err as Error).message}`, true));
}

// ---- API keys ----------------------------------------------------------------------------------

const KeyFields = graphql(`
  fragment KeyFields on ApiKey {
    id
    name
    type
    status
    redactedKey
    permissions
    lastUsedAt
    expiresAt
  }
`);
type KeyRow = ResultOf<typeof KeyFields>;
const OVERLAPS: [string, number][] = [
  ['now', 0],
  ['1 hour', 1],
  ['24 hours', 24],
  ['7 days', 168],
];

async function apiKeysPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const once = h('div', { id: 'key-secret' });
  const list = h('div', { id: 'api-keys' });
  const draw = async () => {
    const { apiKeys } = await ctx.query(graphql(`{ apiKeys { ...KeyFields } }`, [KeyFields]));
    list.replaceChildren(
      table(
        'API keys of this mode',
        ['Name', 'Type', 'Key', 'Status', 'Last used', 'Actions'],
        apiKeys.map((k) => {
          const status = lower(k.status);
          const usable = status === 'active' || status === 'expiring';
          const overlap = h(
            'select',
            { id: `roll-${k.id}`, 'aria-label': `Old key of ${k.name} keeps working` },
            ...OVERLAPS.map(([label, hours]) => h('option', { value: String(hours), selected: hours === 24 }, label)),
          );
          return h(
            'tr',
            { 'data-key-id': k.id, 'data-status': status },
            h('th', { scope: 'row' }, k.name),
            h(
              'td',
              {},
              lower(k.type),
              k.permissions ? h('span', { class: 'help' }, ` (${k.permissions.join(', ')})`) : null,
            ),
            h('td', {}, h('code', {}, k.redactedKey)),
            h(
              'td',
              {},
              h('span', { class: `badge ${status}` }, status),
              k.expiresAt && status === 'expiring' ? ` until ${when(k.expiresAt)}` : '',
            ),
            h('td', {}, k.lastUsedAt ? when(k.lastUsedAt) : 'never'),
            h(
              'td',
              { class: 'actions' },
              usable && status === 'active'
                ? h(
                    'span',
                    {},
                    overlap,
                    ' ',
                    button('Roll', () => void roll(k, Number((overlap as HTMLSelectElement).value)), {
                      'aria-label': `Roll ${k.name}`,
                    }),
                  )
                : null,
              usable
                ? button('Revoke', () => void revoke(k), { 'aria-label': `Revoke ${k.name}`, class: 'danger' })
                : null,
            ),
          );
        }),
        { id: 'api-keys-table' },
      ),
    );
  };
  /** The key whose secret is on screen: revoking it takes the secret off. */
  let shownKeyId: string | null = null;
  const showSecret = (keyId: string, label: string, secret: string) => {
    shownKeyId = keyId;
    once.replaceChildren(shownOnce('new-secret', label, secret));
    $('new-secret').focus();
  };
  const roll = async (k: KeyRow, hours: number) => {
    const ok = await attempt(async () => {
      const { rollApiKey } = await ctx.query(
        graphql(
          'mutation($id: ID!, $h: Float) { rollApiKey(id: $id, expiresInHours: $h) { secret apiKey { id } userErrors { message } } }',
        ),
        {
          id: k.id,
          h: hours,
        },
      );
      await draw();
      say(
        hours
          ? `${k.name} rolled: the old key works for ${hours} more hour(s).`
          : `${k.name} rolled: the old key stopped working.`,
      );
      showSecret(rollApiKey.apiKey!.id, `New secret of ${k.name}`, rollApiKey.secret!);
    });
    if (!ok) await draw();
  };
  const revoke = async (k: KeyRow) => {
    if (!window.confirm(`Revoke ${k.name}? Every request with it is refused from now on.`)) return;
    await attempt(async () => {
      await ctx.query(
        graphql('mutation($id: ID!) { revokeApiKey(id: $id) { apiKey { id } userErrors { message } } }'),
        {
          id: k.id,
        },
      );
      say(`${k.name} revoked.`);
      if (shownKeyId === k.id) {
        shownKeyId = null;
        once.replaceChildren();
      }
      await draw();
    });
  };

  const restricted = input('key-restricted', { type: 'checkbox' });
  const grid = h(
    'fieldset',
    { id: 'key-permissions', hidden: true },
    h('legend', {}, 'Permissions of the restricted key'),
    table(
      'Permission per resource',
      ['Resource', 'Access'],
      RESTRICTABLE_RESOURCES.map((r) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row', id: `perm-${r}` }, r.replace(/_/g, ' ')),
          h(
            'td',
            {},
            h(
              'select',
              { id: `perm-select-${r}`, 'aria-labelledby': `perm-${r}`, 'data-resource': r },
              h('option', { value: '' }, 'none'),
              h('option', { value: 'read' }, 'read'),
              h('option', { value: 'write' }, 'write'),
            ),
          ),
        ),
      ),
    ),
  );
  restricted.addEventListener('change', () => (grid.hidden = !restricted.checked));
  const form = h(
    'form',
    { id: 'create-key-form', novalidate: true },
    h('h3', {}, 'Create a key'),
    field('Name', input('key-name', { required: true, autocomplete: 'off' })),
    h(
      'div',
      { class: 'check' },
      restricted,
      h('label', { for: 'key-restricted' }, 'Restricted key (only the permissions chosen)'),
    ),
    grid,
    h('button', { type: 'submit' }, 'Create key'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const permissions = restricted.checked
      ? [...grid.querySelectorAll<HTMLSelectElement>('select')]
          .filter((s) => s.value)
          .map((s) => `${s.dataset.resource}:${s.value}`)
      : undefined;
    void attempt(async () => {
      const { createApiKey } = await ctx.query(
        graphql(
          `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { ...KeyFields } userErrors { message } } }`,
          [KeyFields],
        ),
        { input: { name: value('key-name'), permissions } },
      );
      (form as HTMLFormElement).reset();
      grid.hidden = true;
      await draw();
      say(`Key ${createApiKey.apiKey!.name} created.`);
      showSecret(createApiKey.apiKey!.id, `Secret of ${createApiKey.apiKey!.name}`, createApiKey.secret!);
    });
  });
  root.replaceChildren(once, list, form);
  await draw();
}

// ---- security (TOTP) ---------------------------------------------------------------------------

async function securityPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const stateText = () =>
    ctx.member.two_factor_enabled ? 'Two-factor authentication is on.' : 'Two-factor authentication is off.';
  const state = h('p', { id: 'two-factor-state' }, stateText());
  const area = h('div', { id: 'two-factor-area' });
  const start = button(
    'Set up an authenticator app',
    () =>
      void attempt(async () => {
        const { secret, otpauth_uri } = await consoleCall<{ secret: string; otpauth_uri: string }>(
          'POST',
          '/console/two-factor/enroll',
        );
        const qr = h('canvas', {
          id: 'totp-qr',
          role: 'img',
          'aria-label': 'QR code of the otpauth URI: scan it with your authenticator app',
        }) as HTMLCanvasElement;
        await QRCode.toCanvas(qr, otpauth_uri, { width: 192, margin: 2 });
        const confirm = h(
          'form',
          { id: 'two-factor-confirm', novalidate: true },
          h('p', { class: 'help' }, 'Scan the code with your authenticator app, or type the secret into it.'),
          qr,
          shownOnce('totp-secret', 'Secret (type it into your app)', secret),
          shownOnce('totp-uri', 'otpauth URI (the same, as a link)', otpauth_uri),
          field(
            'Code from the app',
            input('enroll-code', { inputmode: 'numeric', autocomplete: 'one-time-code', required: true }),
          ),
          h('button', { type: 'submit' }, 'Turn on two-factor'),
        );
        confirm.addEventListener('submit', (e) => {
          e.preventDefault();
          void attempt(async () => {
            const { recovery_codes } = await consoleCall<{ recovery_codes: string[] }>(
              'POST',
              '/console/two-factor/confirm',
              { code: value('enroll-code') },
            );
            ctx.member.two_factor_enabled = true;
            state.textContent = stateText();
            start.hidden = true;
            area.replaceChildren(
              h('h3', {}, 'Recovery codes'),
              h('p', { class: 'help' }, 'Each works once instead of a code. Shown this once: store them now.'),
              h(
                'ul',
                { id: 'recovery-codes', class: 'list' },
                ...recovery_codes.map((c) => h('li', {}, h('code', {}, c))),
              ),
            );
            say('Store your recovery codes now: they are not shown again.');
          });
        });
        area.replaceChildren(confirm);
        $('totp-secret').focus();
      }),
  );
  // Set up once: while two-factor is on there is nothing to set up.
  start.hidden = ctx.member.two_factor_enabled;
  root.replaceChildren(state, start, area);
  await Promise.resolve();
}

// ---- team --------------------------------------------------------------------------------------

/** A team role as the graph spells it (the role selects hold its lower-case form). */
type TeamRole = ReturnType<typeof graphql.scalar<'TeamRole'>>;

async function teamPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const owner = can(ctx.role, 'owners:write');
  const assignable = ROLES.filter((r) => owner || r !== 'owner');
  const roleSelect = (id: string, label: string, selected: string) =>
    h(
      'select',
      { id, 'aria-label': label },
      ...assignable.map((r) => h('option', { value: r, selected: r === selected }, r)),
    );
  const once = h('div', { id: 'invite-link' });
  const list = h('div', { id: 'team' });
  const draw = async () => {
    const { teamMembers } = await ctx.query(
      graphql('{ teamMembers { id email role active twoFactorEnabled lastSignInAt } }'),
    );
    list.replaceChildren(
      table(
        'Team members',
        ['Email', 'Role', 'State', 'Last sign-in', 'Actions'],
        teamMembers.map((m) => {
          const mine = m.id === ctx.member.id;
          const editable = !mine && (owner || lower(m.role) !== 'owner');
          const select = roleSelect(`role-${m.id}`, `Role of ${m.email}`, lower(m.role));
          return h(
            'tr',
            { 'data-member-id': m.id },
            h('th', { scope: 'row' }, m.email, mine ? ' (you)' : ''),
            h('td', {}, editable ? select : lower(m.role)),
            h('td', {}, m.active ? 'active' : 'invited', m.twoFactorEnabled ? ', two-factor' : ''),
            h('td', {}, m.lastSignInAt ? when(m.lastSignInAt) : 'never'),
            h(
              'td',
              { class: 'actions' },
              editable
                ? button(
                    'Change role',
                    () =>
                      void attempt(async () => {
                        await ctx.query(
                          graphql(
                            'mutation($id: ID!, $role: TeamRole!) { changeTeamMemberRole(id: $id, role: $role) { member { id } userErrors { message } } }',
                          ),
                          {
                            id: m.id,
                            role: (select as HTMLSelectElement).value.toUpperCase() as TeamRole,
                          },
                        );
                        say(`${m.email} is now ${(select as HTMLSelectElement).value}.`);
                        await draw();
                      }),
                    { 'aria-label': `Change role of ${m.email}` },
                  )
                : null,
              editable
                ? button(
                    'Remove',
                    () => {
                      if (!window.confirm(`Remove ${m.email} from the team?`)) return;
                      void attempt(async () => {
                        await ctx.query(
                          graphql(
                            'mutation($id: ID!) { removeTeamMember(id: $id) { removedId userErrors { message } } }',
                          ),
                          { id: m.id },
                        );
                        say(`${m.email} removed.`);
                        await draw();
                      });
                    },
                    { 'aria-label': `Remove ${m.email}`, class: 'danger' },
                  )
                : null,
            ),
          );
        }),
      ),
    );
  };
  const form = h(
    'form',
    { id: 'invite-form', novalidate: true },
    h('h3', {}, 'Invite a member'),
    field('Email', input('invite-email', { type: 'email', required: true, autocomplete: 'off' })),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'invite-role' }, 'Role'),
      roleSelect('invite-role', 'Role', 'viewer'),
    ),
    h('button', { type: 'submit' }, 'Invite'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(async () => {
      const { inviteTeamMember } = await ctx.query(
        graphql(
          'mutation($input: InviteTeamMemberInput!) { inviteTeamMember(input: $input) { setupUrl member { email } userErrors { message } } }',
        ),
        {
          input: {
            email: value('invite-email'),
            role: $<HTMLSelectElement>('invite-role').value.toUpperCase() as TeamRole,
          },
        },
      );
      (form as HTMLFormElement).reset();
      once.replaceChildren(
        shownOnce(
          'setup-url',
          `Invitation link for ${inviteTeamMember.member!.email} (valid 7 days)`,
          inviteTeamMember.setupUrl!,
        ),
      );
      say(`${inviteTeamMember.member!.email} invited.`);
      await draw();
    });
  });
  root.replaceChildren(once, list, form);
  await draw();
}

// ---- webhooks ----------------------------------------------------------------------------------

const WebhookEndpoints = graphql(`{ webhookEndpoints(first: 20) { nodes { id endpointId url status events description
  webhookDeliveries(first: 10) { nodes { id deliveryId eventType status attemptCount lastResponseStatus createdAt event { data }
    attempts { attempt status responseStatus responseBody error startedAt durationMs } } } } } }`);
type EndpointRow = ResultOf<typeof WebhookEndpoints>['webhookEndpoints']['nodes'][number];
type DeliveryRow = EndpointRow['webhookDeliveries']['nodes'][number];

async function webhooksPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const writer = can(ctx.role, 'webhooks:write');
  const once = h('div', { id: 'webhook-secret' });
  const list = h('div', { id: 'webhook-endpoints' });
  const run = (fn: () => Promise<string>) =>
    void attempt(async () => {
      const message = await fn();
      await draw();
      say(message);
    });
  const mutate = (name: string, input: Record<string, unknown>, select = 'webhookEndpoint { id }') =>
    ctx.queryText<Record<string, Record<string, unknown>>>(
      `mutation($input: ${name[0].toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { ${select} userErrors { message } } }`,
      { input },
    );
  const draw = async () => {
    const data = await ctx.query(WebhookEndpoints);
    if (!data.webhookEndpoints.nodes.length)
      return void list.replaceChildren(h('p', { class: 'help' }, 'No webhook endpoints.'));
    list.replaceChildren(...data.webhookEndpoints.nodes.map((e) => endpoint(e)));
  };
  const endpoint = (e: EndpointRow) => {
    const status = lower(e.status);
    const since = input(`since-${e.endpointId}`, { type: 'datetime-local' });
    const actions = writer
      ? h(
          'div',
          { class: 'actions' },
          button(
            status === 'enabled' ? 'Disable' : 'Enable',
            () =>
              run(
                async () => (
                  await mutate(status === 'enabled' ? 'disableWebhookEndpoint' : 'enableWebhookEndpoint', { id: e.id }),
                  `${e.url} ${status === 'enabled' ? 'disabled' : 'enabled'}.`
                ),
              ),
            {
              'aria-label': `${status === 'enabled' ? 'Disable' : 'Enable'} ${e.url}`,
            },
          ),
          button(
            'Send test event',
            () =>
              run(async () => {
                const r = await mutate(
                  'testWebhookEndpoint',
                  { id: e.id },
                  'deliveryId responseStatus error durationMs',
                );
                const t = r.testWebhookEndpoint as {
                  responseStatus: number | null;
                  error: string | null;
                  durationMs: number;
                };
                return `Test event sent: ${t.responseStatus ? `HTTP ${t.responseStatus}` : (t.error ?? 'no answer')} in ${t.durationMs} ms.`;
              }),
            { 'aria-label': `Send test event to ${e.url}` },
          ),
          button(
            'Rotate secret',
            () =>
              void attempt(async () => {
                const r = await mutate('rotateWebhookEndpointSecret', { id: e.id }, 'secret');
                once.replaceChildren(
                  shownOnce(
                    'endpoint-secret',
                    `New signing secret of ${e.url} (the previous one signs for 24 hours more)`,
                    String(r.rotateWebhookEndpointSecret.secret),
                  ),
                );
                say('Secret rotated.');
              }),
            { 'aria-label': `Rotate secret of ${e.url}` },
          ),
          button('Edit', () => edit(e), { 'aria-label': `Edit ${e.url}` }),
          button(
            'Delete',
            () => {
              if (window.confirm(`Delete the endpoint ${e.url}?`))
                run(
                  async () => (
                    await mutate('deleteWebhookEndpoint', { id: e.id }, 'deletedWebhookEndpointId'),
                    `${e.url} deleted.`
                  ),
                );
            },
            { 'aria-label': `Delete ${e.url}`, class: 'danger' },
          ),
          h(
            'span',
            { class: 'recover' },
            h('label', { for: `since-${e.endpointId}` }, 'Recover failed deliveries since'),
            since,
            button(
              'Recover',
              () =>
                run(async () => {
                  if (!since.value) throw new Error('Choose the time to recover from.');
                  const r = await mutate(
                    'recoverWebhookEndpoint',
                    { id: e.id, since: new Date(since.value).toISOString() },
                    'recovered',
                  );
                  return `${String(r.recoverWebhookEndpoint.recovered)} deliveries queued again.`;
                }),
              { 'aria-label': `Recover failed deliveries of ${e.url}` },
            ),
          ),
        )
      : null;
    return h(
      'div',
      { class: 'endpoint', 'data-endpoint-id': e.endpointId },
      h('h3', {}, e.url, ' ', h('span', { class: `badge ${status}` }, status)),
      h('p', { class: 'help' }, `Events: ${e.events.join(', ')}`, e.description ? ` · ${e.description}` : ''),
      actions,
      h('h4', {}, 'Recent deliveries'),
      ...e.webhookDeliveries.nodes.map((d) => delivery(d)),
    );
  };
  const delivery = (d: DeliveryRow) => {
    const status = lower(d.status);
    return h(
      'details',
      { class: 'delivery', 'data-delivery-id': d.deliveryId, 'data-status': status },
      h(
        'summary',
        {},
        h('code', {}, d.eventType),
        ` ${status.replace('_', ' ')} · ${d.attemptCount} attempt(s)`,
        d.lastResponseStatus ? ` · HTTP ${d.lastResponseStatus}` : '',
        ` · ${when(d.createdAt)}`,
      ),
      h('h5', {}, 'Request body'),
      h('pre', { tabindex: '0', 'aria-label': 'Request body' }, JSON.stringify(d.event.data, null, 2)),
      h('h5', {}, 'Attempts'),
      h(
        'ol',
        { class: 'list attempts' },
        ...d.attempts.map((a) =>
          h(
            'li',
            {},
            `#${a.attempt} ${lower(a.status)}: ${a.responseStatus ? `HTTP ${a.responseStatus}` : (a.error ?? '–')} · ${when(a.startedAt)}${a.durationMs != null ? ` · ${a.durationMs} ms` : ''}`,
            // The receiver's answer as the service kept it (its first 4 KiB).
            a.responseBody != null
              ? h(
                  'pre',
                  { class: 'response-body', tabindex: '0', 'aria-label': `Response body of attempt ${a.attempt}` },
                  a.responseBody || '(empty)',
                )
              : null,
          ),
        ),
      ),
      writer && status !== 'succeeded'
        ? button(
            'Replay',
            () =>
              run(async () => {
                await ctx.query(
                  graphql(
                    'mutation($id: ID!) { retryWebhookDelivery(input: { id: $id }) { webhookDelivery { status } userErrors { message } } }',
                  ),
                  { id: d.id },
                );
                return `Delivery ${d.deliveryId} queued to be sent again now.`;
              }),
            { 'aria-label': `Replay ${d.eventType} delivery ${d.deliveryId}` },
          )
        : null,
    );
  };
  const edit = (e: EndpointRow) => {
    const form = endpointForm('edit', 'Save', e, async (url, events, description) => {
      await mutate('updateWebhookEndpoint', { id: e.id, url, events, description });
      return `${url} saved.`;
    });
    list.querySelector(`[data-endpoint-id="${e.endpointId}"]`)?.append(form);
    $('edit-url').focus();
  };
  const endpointForm = (
    prefix: string,
    label: string,
    e: Partial<EndpointRow>,
    save: (url: string, events: string[], description: string) => Promise<string>,
  ) => {
    const form = h(
      'form',
      { id: `${prefix}-endpoint-form`, novalidate: true },
      h('h3', {}, prefix === 'edit' ? 'Edit the endpoint' : 'Add an endpoint'),
      field('URL', input(`${prefix}-url`, { type: 'url', required: true, value: e.url ?? '' })),
      field(
        'Events',
        input(`${prefix}-events`, { required: true, value: (e.events ?? ['*']).join(', ') }),
        'Event types separated by commas, or * for every type.',
      ),
      field('Description', input(`${prefix}-description`, { value: e.description ?? '' })),
      h('button', { type: 'submit' }, label),
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const events = value(`${prefix}-events`)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      run(() => save(value(`${prefix}-url`), events, value(`${prefix}-description`)));
    });
    return form;
  };
  const create = endpointForm('new', 'Add endpoint', {}, async (url, events, description) => {
    const r = await mutate(
      'createWebhookEndpoint',
      { url, events, description: description || undefined },
      'secret webhookEndpoint { url }',
    );
    once.replaceChildren(
      shownOnce('endpoint-secret', `Signing secret of ${url}`, String(r.createWebhookEndpoint.secret)),
    );
    return `${url} added.`;
  });
  root.replaceChildren(once, list, writer ? create : '');
  await draw();
}

// ---- audit log ---------------------------------------------------------------------------------

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

async function auditPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
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
