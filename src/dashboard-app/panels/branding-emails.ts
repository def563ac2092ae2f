/** Settings → Branding (what every message carries) and Settings → Emails (the outbox, and which shopper messages are sent). */
import { field, h, lower, table, when } from '../dom.js';
import { graphql, type ResultOf, type VariablesOf } from '../graphql.js';
import { attempt, button, input, say, value, type ConsoleContext } from '../settings-kit.js';

const SettingsFields = graphql(`
  fragment SettingsFields on EmailSettings {
    brandName
    supportEmail
    logoUrl
    businessAddress
    phone
    shopperEmails {
      kind
      enabled
    }
    smtpConfigured
  }
`);

const SHOPPER_EMAIL_NAMES: Record<string, string> = {
  ORDER_RECEIPT: 'Order receipt (with the itemized HSA/FSA receipt PDF)',
  REFUND: 'Refund confirmation',
  RENEWAL_RECEIPT: 'Subscription renewal receipt',
  PAYMENT_FAILED: 'Payment failed: update your card',
  LMN_APPROVED: 'Letter of medical necessity approved',
  LMN_DECLINED: 'Letter of medical necessity declined',
};

const loadSettings = async (ctx: ConsoleContext) =>
  (await ctx.query(graphql(`{ emailSettings { ...SettingsFields } }`, [SettingsFields]))).emailSettings;

const UpdateEmailSettings = graphql(
  `mutation($input: UpdateEmailSettingsInput!) { updateEmailSettings(input: $input) { settings { ...SettingsFields } userErrors { message } } }`,
  [SettingsFields],
);

type ShopperEmailKind = ResultOf<typeof SettingsFields>['shopperEmails'][number]['kind'];

const saveSettings = (ctx: ConsoleContext, input: VariablesOf<typeof UpdateEmailSettings>['input']) =>
  ctx.query(UpdateEmailSettings, { input });

export async function brandingPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const s = await loadSettings(ctx);
  const form = h(
    'form',
    { id: 'branding-form', novalidate: true },
    field(
      'Name',
      input('brand-name', { value: s.brandName, maxlength: '100', required: true }),
      "Shown at the top and bottom of every message (default: the account's name).",
    ),
    field(
      'Support email',
      input('brand-support-email', { type: 'email', value: s.supportEmail ?? '' }),
      'Where shoppers can write with questions; team messages go here when no owner or admin has signed in yet.',
    ),
    field(
      'Logo URL',
      input('brand-logo-url', { type: 'url', value: s.logoUrl ?? '', placeholder: 'https://…' }),
      'An https image shown at the top of each HTML message.',
    ),
    field(
      'Business address',
      input('brand-address', { value: s.businessAddress ?? '', maxlength: '300', autocomplete: 'street-address' }),
      'One line, on every receipt and at the bottom of every message.',
    ),
    field(
      'Phone',
      input('brand-phone', { type: 'tel', value: s.phone ?? '', maxlength: '40', autocomplete: 'tel' }),
      'On every receipt and at the bottom of every message.',
    ),
    h('button', { type: 'submit' }, 'Save branding'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(async () => {
      await saveSettings(ctx, {
        brandName: value('brand-name') || null,
        supportEmail: value('brand-support-email') || null,
        logoUrl: value('brand-logo-url') || null,
        businessAddress: value('brand-address') || null,
        phone: value('brand-phone') || null,
      });
      say('Branding saved: messages rendered from now on carry it.');
    });
  });
  root.replaceChildren(form);
}

const Emails = graphql(
  `{ emails(first: 50) { nodes { id kind to subject status attempts lastError text html createdAt } } }`,
);
type EmailRow = ResultOf<typeof Emails>['emails']['nodes'][number];

export async function emailsPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const s = await loadSettings(ctx);
  const canWrite = ctx.role === 'owner' || ctx.role === 'admin';
  const toggles = h(
    'fieldset',
    { id: 'shopper-emails' },
    h('legend', {}, 'Messages to shoppers'),
    ...s.shopperEmails.map((e) =>
      h(
        'div',
        { class: 'field check' },
        h('input', {
          type: 'checkbox',
          id: `email-${lower(e.kind)}`,
          'data-kind': e.kind,
          checked: e.enabled,
          disabled: !canWrite,
        }),
        h('label', { for: `email-${lower(e.kind)}` }, SHOPPER_EMAIL_NAMES[e.kind] ?? e.kind),
      ),
    ),
    canWrite
      ? button(
          'Save',
          () =>
            void attempt(async () => {
              const off = [...toggles.querySelectorAll<HTMLInputElement>('input[type=checkbox]')]
                .filter((c) => !c.checked)
                .map((c) => c.dataset.kind as ShopperEmailKind);
              await saveSettings(ctx, { disabledEmails: off });
              say(
                off.length
                  ? `Saved: ${off.length} shopper message(s) turned off.`
                  : 'Saved: every shopper message is sent.',
              );
            }),
          { id: 'shopper-emails-save' },
        )
      : null,
  );
  const transport = h(
    'p',
    { id: 'smtp-status', class: 'help' },
    s.smtpConfigured
      ? 'Messages are sent through the SMTP server of SMTP_URL.'
      : 'SMTP_URL is not set: nothing leaves this machine, and every message is kept here (status stored).',
  );
  const list = h('div', { id: 'emails' });
  const detail = h('div', { id: 'email-detail' });
  const { emails } = await ctx.query(Emails);
  const show = (e: EmailRow) => {
    // The text part as is; the HTML part as its source (never rendered inside the console's own page).
    detail.replaceChildren(
      h('h3', {}, e.subject ?? '(not rendered yet)'),
      h('p', { class: 'help' }, `To ${e.to ?? 'the team'} · ${lower(e.status)}`),
      h('pre', { id: 'email-text' }, e.text ?? ''),
      h('details', {}, h('summary', {}, 'HTML part (source)'), h('pre', { id: 'email-html' }, e.html ?? '')),
    );
  };
  const rows = emails.nodes.map((e) =>
    h(
      'tr',
      { 'data-email-id': e.id, 'data-kind': lower(e.kind), 'data-status': lower(e.status) },
      h('td', {}, h('time', { datetime: e.createdAt }, when(e.createdAt))),
      h('td', {}, lower(e.kind).replace(/_/g, ' ')),
      h('td', {}, e.to ?? 'the team'),
      h(
        'td',
        {},
        button(e.subject ?? '(not rendered yet)', () => show(e), { class: 'link' }),
      ),
      h('td', {}, lower(e.status), e.lastError ? ` (${e.lastError})` : ''),
      h('td', {}, String(e.attempts)),
    ),
  );
  list.replaceChildren(
    table('Messages, newest first', ['When', 'Message', 'To', 'Subject', 'Status', 'Tries'], rows, {
      id: 'emails-table',
    }),
  );
  if (!rows.length) list.append(h('p', { class: 'help' }, 'No messages yet.'));
  root.replaceChildren(toggles, transport, list, detail);
}
