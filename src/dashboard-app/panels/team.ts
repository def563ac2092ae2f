/** Settings → Team: the members, invite (the set-password link shown once), change a role, remove. */
import { ROLES } from '../../modules/merchants/permissions.js';
import { $, field, h, lower, shownOnce, table, when } from '../dom.js';
import { graphql } from '../graphql.js';
import { attempt, button, can, input, say, value, type ConsoleContext } from '../settings-kit.js';

/** A team role as the graph spells it (the role selects hold its lower-case form). */
type TeamRole = ReturnType<typeof graphql.scalar<'TeamRole'>>;

/** Draws the Team page into `root`: the members, then the invitation form. */
export async function teamPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
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
