/** Settings → API keys: the keys of this mode; create (secret or restricted), roll, revoke; a secret shown once. */
import { RESTRICTABLE_RESOURCES } from '../../modules/merchants/permissions.js';
import { $, field, h, lower, shownOnce, table, when } from '../dom.js';
import { graphql, type ResultOf } from '../graphql.js';
import { attempt, button, input, say, value, type ConsoleContext } from '../settings-kit.js';

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

/** Draws the API keys page into `root`. */
export async function apiKeysPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
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
