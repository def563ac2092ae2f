/**
 * The console's shell: sign-in (password, second factor, the invitation's password), the mode,
 * the navigation between the dashboard and the settings pages, and the wiring of the panels
 * (panels/) to the live events. Each panel draws itself; signing out empties them all.
 */
import { ApiError, consoleCall, setCsrfToken } from './api.js';
import { $ } from './dom.js';
import { can } from './settings-kit.js';
import { hideNavigation, showPage } from './settings.js';
import type { ConsoleContext } from './settings-kit.js';
import {
  currentSession,
  onSessionEnded,
  query,
  queryText,
  setSession,
  showError,
  soon,
  type Session,
} from './session.js';
import { connect, forgetActivityCursor, loadRecentActivity, resumeActivity, stopActivity } from './panels/activity.js';
import { refreshCheckouts } from './panels/checkouts.js';
import { refreshOrders } from './panels/orders.js';
import { discoverLinks, forgetLinks, refreshLinks } from './panels/payment-links.js';
import { clearRevenue, refreshRevenue } from './panels/revenue.js';
import { discoverSubscriptions, forgetSubscriptions, refreshSubscriptions } from './panels/subscriptions.js';
import { refreshWebhooks } from './panels/webhooks.js';
import './styles.css';

// ---- sign-in, two-factor, password setup, mode ---------------------------------------------------

function fail(errorId: string, inputId: string, message: string): void {
  $(errorId).textContent = message;
  $(inputId).setAttribute('aria-invalid', 'true');
  $(inputId).focus();
}

async function signIn(email: string, password: string): Promise<void> {
  $('sign-in-error').textContent = '';
  $('sign-in-status').textContent = '';
  if (!email || !password) return fail('sign-in-error', email ? 'password' : 'email', 'Enter your email and password.');
  try {
    const res = await consoleCall<Session & { two_factor_required?: boolean }>('POST', '/console/sign-in', {
      email,
      password,
    });
    $<HTMLInputElement>('password').value = '';
    if (res.two_factor_required) {
      $('sign-in-form').hidden = true;
      $('two-factor-form').hidden = false;
      $('totp-code').focus();
      return;
    }
    await enter(res);
  } catch (err) {
    fail(
      'sign-in-error',
      'password',
      err instanceof ApiError ? err.message : `Could not sign in: ${(err as Error).message}`,
    );
  }
}

async function signInSecondFactor(code: string): Promise<void> {
  $('two-factor-error').textContent = '';
  try {
    await enter(await consoleCall<Session>('POST', '/console/sign-in/two-factor', { code }));
  } catch (err) {
    fail('two-factor-error', 'totp-code', (err as Error).message);
  }
}

async function setupPassword(token: string, password: string): Promise<void> {
  $('setup-error').textContent = '';
  try {
    const { member } = await consoleCall<{ member: { email: string } }>('POST', '/console/password-setup', {
      token,
      password,
    });
    $('setup').hidden = true;
    history.replaceState(null, '', '/dashboard');
    showSignIn(`Password set for ${member.email}: sign in.`);
    $<HTMLInputElement>('email').value = member.email;
  } catch (err) {
    fail('setup-error', 'new-password', (err as Error).message);
  }
}

/** The sign-in form, with an informational `message` (signed out, password set: never in the error style). */
/** The password setup page: its form only while the link still works, else why not. */
async function showSetup(token: string): Promise<void> {
  try {
    await consoleCall('POST', '/console/password-setup/check', { token });
    $('new-password').focus();
  } catch (err) {
    $('setup-form').hidden = true;
    const state = $('setup-link-state');
    state.hidden = false;
    state.textContent = err instanceof ApiError ? err.message : `Could not check this link: ${(err as Error).message}`;
  }
}

function showSignIn(message = ''): void {
  $('sign-in').hidden = false;
  $('sign-in-form').hidden = false;
  $('two-factor-form').hidden = true;
  $('sign-in-status').textContent = message;
  $('sign-in-error').textContent = '';
  $('email').focus();
}

/** Signed in: the session's mode, the pages the role may see, the panels, the live connection. */
async function enter(s: Session): Promise<void> {
  setSession(s);
  setCsrfToken(s.csrf_token);
  for (const id of ['email', 'password', 'totp-code']) $(id).removeAttribute('aria-invalid');
  const live = s.livemode;
  const banner = $('mode-banner');
  banner.hidden = false;
  banner.className = `mode-banner ${live ? 'live' : 'test'}`;
  banner.textContent = live
    ? 'LIVE MODE: real customers and real money'
    : 'TEST MODE: test data only, no real money moves';
  document.body.dataset.mode = live ? 'live' : 'test';
  document.body.dataset.role = s.member.role;
  $<HTMLInputElement>('live-mode').checked = live;
  hideNavigation(s.member.role);
  $('who').textContent = `${s.member.email} (${s.member.role}) · ${s.merchant.name}`;
  $('sign-in').hidden = true;
  $('app').hidden = false;
  $('console-nav').hidden = false;
  $('account').hidden = false;
  resumeActivity();
  // A clinician's work is the review queue: it opens there.
  if (s.member.role === 'clinician' && !location.hash) history.replaceState(null, '', '#/settings/lmn-reviews');
  route();
  $('payment-links-panel').hidden = !(await discoverLinks());
  $('subscriptions-panel').hidden = !(await discoverSubscriptions());
  $('checkouts-panel').hidden = !can(s.member.role, 'checkout:read');
  // The events (live activity) are the webhooks resource's: a role without it gets neither them nor the live connection.
  const events = can(s.member.role, 'webhooks:read');
  $('activity-panel').hidden = !events;
  const loads = [
    refreshOrders(),
    refreshRevenue(),
    refreshLinks(),
    refreshSubscriptions(),
    refreshCheckouts(),
    ...(events ? [loadRecentActivity()] : []),
  ];
  await Promise.all(loads.map((p) => p.catch(showError)));
  if (events) return connect({ touched, reconnected: refreshAll, ended: endSession });
  $('connection').textContent = 'Signed in (live activity needs the webhooks permission)';
  document.body.dataset.connection = 'off';
}

async function signOut(): Promise<void> {
  await consoleCall('POST', '/console/sign-out').catch(() => undefined);
  endSession('Signed out.');
}

/** Leaves nothing of the merchant in the page (a shared counter): every panel is emptied, not just hidden. */
function endSession(message = ''): void {
  setSession(null);
  setCsrfToken('');
  stopActivity();
  clearRevenue();
  forgetLinks();
  forgetSubscriptions();
  for (const id of ['activity', 'order-detail-body', 'payment-links', 'subscriptions', 'checkouts', 'settings', 'who'])
    $(id).replaceChildren();
  document.querySelector('#orders tbody')!.replaceChildren();
  $('revenue-summary').textContent = '';
  $('order-detail-title').textContent = 'Order';
  for (const id of [
    'order-detail',
    'orders-empty',
    'payment-links-panel',
    'subscriptions-panel',
    'checkouts-panel',
    'app',
    'console-nav',
    'account',
    'mode-banner',
    'settings',
  ])
    $(id).hidden = true;
  delete document.body.dataset.mode;
  delete document.body.dataset.role;
  delete document.body.dataset.connection;
  $('connection').textContent = 'Signed out';
  showSignIn(message);
}

/** Test or live: the session's mode changes, and the page starts again in it (nothing of the other mode stays). */
async function switchMode(live: boolean): Promise<void> {
  try {
    await consoleCall('POST', '/console/mode', { livemode: live });
    forgetActivityCursor();
    location.reload();
  } catch (err) {
    $<HTMLInputElement>('live-mode').checked = !live;
    showError(err);
  }
}

/** The page the address names: the dashboard (`#/`) or a settings page (`#/settings/…`). */
function route(): void {
  if (!currentSession()) return;
  const page = location.hash.replace(/^#\/?/, '');
  const settings = page.startsWith('settings/');
  $('dashboard-view').hidden = settings;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#console-nav a')) {
    if (a.getAttribute('href') === `#/${page}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const root = $('settings');
  root.hidden = !settings;
  if (settings) showPage(page.slice('settings/'.length), root, context());
  else root.replaceChildren();
}

function context(): ConsoleContext {
  const s = currentSession()!;
  return {
    role: s.member.role,
    member: s.member,
    livemode: s.livemode,
    query,
    queryText,
    showError,
    refreshOrders: () => refreshOrders(),
  };
}

// ---- the panels and the live events --------------------------------------------------------------

/** Every panel drawn again (after a reconnect: what was missed may touch any of them). */
function refreshAll(): void {
  soon('orders', refreshOrders);
  soon('revenue', refreshRevenue);
  soon('webhooks', refreshWebhooks, 300);
  soon('links', refreshLinks);
  soon('subs', refreshSubscriptions);
  soon('checkouts', refreshCheckouts);
}

/** The panels an event of `type` touches, drawn again shortly (a burst of events draws each once). */
function touched(type: string): void {
  if (/^(order|refund|checkout)\./.test(type)) {
    soon('orders', refreshOrders, 30);
    soon('revenue', refreshRevenue, 200);
  }
  if (/^(payment_link|checkout)\./.test(type)) soon('links', refreshLinks); // a new link records its checkout session's checkout.created
  if (/^(checkout|order|payment_link)\./.test(type)) soon('checkouts', refreshCheckouts); // created, paid, expired, or closed with its link
  if (type.startsWith('subscription.')) soon('subs', refreshSubscriptions);
  soon('webhooks', refreshWebhooks, 600); // deliveries are made from events just after they commit (drawn while the webhooks view is open)
}

// ---- start -----------------------------------------------------------------------------------

$('sign-in-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void signIn($<HTMLInputElement>('email').value.trim(), $<HTMLInputElement>('password').value);
});
$('two-factor-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void signInSecondFactor($<HTMLInputElement>('totp-code').value.trim());
});
$('setup-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void setupPassword(
    new URLSearchParams(location.search).get('token') ?? '',
    $<HTMLInputElement>('new-password').value,
  );
});
$('sign-out').addEventListener('click', () => void signOut());
$('live-mode').addEventListener('change', (e) => void switchMode((e.currentTarget as HTMLInputElement).checked));
$('order-detail-close').addEventListener('click', () => {
  $('order-detail').hidden = true;
  document.querySelector<HTMLElement>('#orders tbody button')?.focus();
});
window.addEventListener('hashchange', route);
onSessionEnded(endSession);

if (location.pathname === '/console/setup') {
  $('setup').hidden = false;
  void showSetup(new URLSearchParams(location.search).get('token') ?? '');
} else {
  consoleCall<Session>('GET', '/console/session').then(enter, () => showSignIn());
}
