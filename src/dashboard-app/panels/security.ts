/** Settings → Security: two-factor sign-in (TOTP) set up with an authenticator app, and its recovery codes shown once. */
import QRCode from 'qrcode';
import { consoleCall } from '../api.js';
import { $, field, h, shownOnce } from '../dom.js';
import { attempt, button, input, say, value, type ConsoleContext } from '../settings-kit.js';

/** Draws the Security page into `root`. */
export async function securityPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
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
