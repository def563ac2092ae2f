/** The settings pages of the console (panels/): the address names one (`#/settings/…`); a role sees the pages it may use. */
import { h, $ } from './dom.js';
import { can, say, type ConsoleContext } from './settings-kit.js';
import { apiKeysPage } from './panels/api-keys.js';
import { auditPage } from './panels/audit-log.js';
import { brandingPage, emailsPage } from './panels/branding-emails.js';
import { lmnReviewsPage } from './panels/lmn-reviews.js';
import { securityPage } from './panels/security.js';
import { teamPage } from './panels/team.js';
import { webhooksPage } from './panels/webhooks.js';

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
