import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { print } from '@0no-co/graphql.web';
import { createClient, type Client } from 'graphql-ws';
import { ApiError, consoleCall, currentCsrfToken, discoverList, gql, gqlText, setCsrfToken } from './api.js';
import { graphql, type ResultOf, type VariablesOf } from './graphql.js';
import { $, copy, h, lower, money, when } from './dom.js';
import { splitRefund } from '../modules/refunds/refund-split.js';
import { can, hideNavigation, showPage, type ConsoleContext } from './settings.js';
import './styles.css';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);

const CURSOR_STORAGE = 'dashboard.eventCursor';
const ATTENTION = ['past_due', 'action_required', 'unpaid', 'disputed'];

/** What the console knows of its session (GET /console/session, POST /console/sign-in). */
interface Session {
  member: { id: string; email: string; role: string; two_factor_enabled: boolean };
  merchant: { id: string; name: string };
  livemode: boolean;
  csrf_token: string;
}

let session: Session | null = null;
let epoch = 0; // one more at every sign-in and sign-out: answers of an older session are dropped
let ws: Client | undefined;
let chart: Chart | undefined;
const seen = new Set<string>();
let lastCursor: string | null = null;
let catchingUp = false;
let buffered: LiveEvent[] = [];
const timers = new Map<string, number>();
let optional: { links: Awaited<ReturnType<typeof discoverList>>; subs: Awaited<ReturnType<typeof discoverList>> } = {
  links: null,
  subs: null,
};

const EventFields = graphql(`
  fragment EventFields on Event {
    eventId
    type
    cursor
    createdAt
    data
  }
`);
type LiveEvent = ResultOf<typeof EventFields>;

/**
 * Runs `fn` once after a burst of calls with the same name. A refresh refused because the key's
 * query-cost bucket is short (`throttled`) runs again once it has refilled enough, instead of
 * showing an error: the panels stay live under a busy key.
 */
function soon(name: string, fn: () => Promise<void>, ms = 120): void {
  clearTimeout(timers.get(name));
  timers.set(
    name,
    window.setTimeout(
      () =>
        void fn().catch((err: unknown) =>
          err instanceof ApiError && err.code === 'throttled'
            ? soon(name, fn, err.retryAfterMs ?? 1000)
            : showError(err),
        ),
      ms,
    ),
  );
}

/** Thrown for an answer that arrived after the session it was asked in was signed out: dropped. */
class SignedOut extends Error {}

/** Runs a call in the signed-in session; its answer is dropped if the session ended meanwhile. */
async function inSession<T>(call: () => Promise<T>): Promise<T> {
  const asked = epoch;
  if (!session) throw new SignedOut();
  const data = await call();
  if (asked !== epoch) throw new SignedOut();
  return data;
}

/** A typed GraphQL document in the signed-in session. */
const query: typeof gql = (document, ...variables) => inSession(() => gql(document, ...variables));

/** A document assembled at run time (fields found by introspection) in the signed-in session. */
const queryText: typeof gqlText = (q, variables) => inSession(() => gqlText(q, variables));

function showError(err: unknown): void {
  if (err instanceof SignedOut) return;
  if (err instanceof ApiError && err.status === 401) return void endSession('Your session ended; sign in again.');
  $('connection').textContent = `Error: ${err instanceof Error ? err.message : String(err)}`;
}

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
  session = s;
  epoch++;
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
  lastCursor = sessionStorage.getItem(CURSOR_STORAGE);
  // A clinician's work is the review queue: it opens there.
  if (s.member.role === 'clinician' && !location.hash) history.replaceState(null, '', '#/settings/lmn-reviews');
  route();
  optional = {
    links: await discoverList('paymentLinks', [
      'id',
      'paymentLinkId',
      'linkId',
      'status',
      'url',
      'amount',
      'amountCents',
      'currency',
      'description',
      'products',
      'createdAt',
    ]),
    subs: await discoverList('subscriptions', [
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
    ]),
  };
  $('payment-links-panel').hidden = !optional.links;
  $('subscriptions-panel').hidden = !optional.subs;
  $('checkouts-panel').hidden = !can(s.member.role, 'checkout:read');
  // The events (live activity) and the deliveries are the webhooks resource's: a role without it gets neither, nor the live connection.
  const events = can(s.member.role, 'webhooks:read');
  $('webhooks-panel').hidden = !events;
  $('activity-panel').hidden = !events;
  const loads = [
    refreshOrders(),
    refreshRevenue(),
    refreshLinks(),
    refreshSubscriptions(),
    refreshCheckouts(),
    ...(events ? [refreshWebhooks(), lastCursor ? Promise.resolve() : loadRecentActivity()] : []),
  ];
  await Promise.all(loads.map((p) => p.catch(showError)));
  if (events) return connect();
  $('connection').textContent = 'Signed in (live activity needs the webhooks permission)';
  document.body.dataset.connection = 'off';
}

async function signOut(): Promise<void> {
  await consoleCall('POST', '/console/sign-out').catch(() => undefined);
  endSession('Signed out.');
}

/** Leaves nothing of the merchant in the page (a shared counter): every panel is emptied, not just hidden. */
function endSession(message = ''): void {
  sessionStorage.removeItem(CURSOR_STORAGE);
  session = null;
  epoch++;
  setCsrfToken('');
  void ws?.dispose();
  ws = undefined;
  seen.clear();
  lastCursor = null;
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  chart?.destroy();
  chart = undefined;
  optional = { links: null, subs: null };
  for (const id of [
    'activity',
    'order-detail-body',
    'webhooks',
    'payment-links',
    'subscriptions',
    'checkouts',
    'settings',
    'who',
  ])
    $(id).replaceChildren();
  document.querySelector('#orders tbody')!.replaceChildren();
  for (const id of ['revenue-summary', 'webhooks-status']) $(id).textContent = '';
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
    sessionStorage.removeItem(CURSOR_STORAGE);
    location.reload();
  } catch (err) {
    $<HTMLInputElement>('live-mode').checked = !live;
    showError(err);
  }
}

/** The page the address names: the dashboard (`#/`) or a settings page (`#/settings/…`). */
function route(): void {
  if (!session) return;
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
  const s = session!;
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

// ---- live events and catch-up ----------------------------------------------------------------

/** The last events so far (the stream continues after the newest one's cursor). */
async function loadRecentActivity(): Promise<void> {
  const data = await query(
    graphql(`{ events(last: 20, order: OLDEST_FIRST) { nodes { ...EventFields } } }`, [EventFields]),
  );
  for (const e of data.events.nodes) record(e, false);
}

/** Everything after the last cursor seen, once, in order (after a reconnect). */
async function catchUp(): Promise<void> {
  catchingUp = true;
  try {
    for (let page = 0; page < 50; page++) {
      const data = await query(
        graphql(
          `query($after: String) { events(after: $after, first: 100, order: OLDEST_FIRST) { nodes { ...EventFields } pageInfo { hasNextPage } } }`,
          [EventFields],
        ),
        { after: lastCursor },
      );
      for (const e of data.events.nodes) record(e, true);
      if (!data.events.pageInfo.hasNextPage) break;
    }
  } finally {
    catchingUp = false;
    const pending = buffered;
    buffered = [];
    for (const e of pending) record(e, true);
  }
}

const LiveEvents = graphql(`subscription { events { ...EventFields } }`, [EventFields]);

function connect(): void {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  ws = createClient({
    url,
    connectionParams: () => ({ csrfToken: currentCsrfToken() }),
    lazy: false,
    keepAlive: 10_000,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: (retries) => new Promise((r) => setTimeout(r, Math.min(250 * 2 ** retries, 3000))),
    on: {
      connected: () => {
        $('connection').textContent = 'Connected: updates arrive as they happen';
        document.body.dataset.connection = 'live';
        // Subscribed again by the client; read what was missed while away (live events wait meanwhile).
        void catchUp().then(() => refreshAll(), showError);
      },
      closed: (event) => {
        if (!session) return; // closed by signing out: nothing is reconnecting
        if ((event as CloseEvent | undefined)?.code === 4401) return endSession('Your session ended; sign in again.');
        $('connection').textContent = 'Reconnecting…';
        document.body.dataset.connection = 'reconnecting';
      },
    },
  });
  ws.subscribe<ResultOf<typeof LiveEvents>>(
    { query: print(LiveEvents) },
    {
      next: ({ data }) => {
        if (!data) return;
        if (catchingUp) buffered.push(data.events);
        else record(data.events, true);
      },
      error: showError,
      complete: () => undefined,
    },
  );
}

function refreshAll(): void {
  soon('orders', refreshOrders);
  soon('revenue', refreshRevenue);
  soon('webhooks', refreshWebhooks, 300);
  soon('links', refreshLinks);
  soon('subs', refreshSubscriptions);
  soon('checkouts', refreshCheckouts);
}

/** Shows an event once (by id), remembers its cursor, and refreshes what it touches. */
function record(e: LiveEvent, refresh: boolean): void {
  if (seen.has(e.eventId)) return;
  seen.add(e.eventId);
  lastCursor = e.cursor;
  sessionStorage.setItem(CURSOR_STORAGE, e.cursor);
  const list = $('activity');
  const ref = e.data.id ?? e.data.checkout_id ?? e.data.order_id;
  const id = typeof ref === 'string' || typeof ref === 'number' ? String(ref) : '';
  list.prepend(
    h(
      'li',
      { 'data-event-id': e.eventId, 'data-event-type': e.type },
      h('time', { datetime: e.createdAt }, when(e.createdAt)),
      ' ',
      h('code', {}, e.type),
      id ? ` ${id}` : '',
    ),
  );
  while (list.children.length > 300) list.lastElementChild?.remove();
  if (!refresh) return;
  if (/^(order|refund|checkout)\./.test(e.type)) {
    soon('orders', refreshOrders, 30);
    soon('revenue', refreshRevenue, 200);
  }
  if (/^(payment_link|checkout)\./.test(e.type)) soon('links', refreshLinks); // a new link records its checkout session's checkout.created
  if (/^(checkout|order|payment_link)\./.test(e.type)) soon('checkouts', refreshCheckouts); // created, paid, expired, or closed with its link
  if (e.type.startsWith('subscription.')) soon('subs', refreshSubscriptions);
  soon('webhooks', refreshWebhooks, 600); // deliveries are made from events just after they commit
}

// ---- orders ----------------------------------------------------------------------------------

async function refreshOrders(): Promise<void> {
  const data = await query(
    graphql(
      `{ orders(first: 20) { nodes { id orderId orderNumber status paymentStatus amount currency createdAt customer { email firstName lastName } amounts { hsaAmount regularAmount total } payments { amount refundedAmount paymentMethod } } } }`,
    ),
  );
  const body = document.querySelector('#orders tbody')!;
  body.replaceChildren(
    ...data.orders.nodes.map((o) => {
      const refunded = o.payments.reduce((s, p) => s + p.refundedAmount, 0);
      return h(
        'tr',
        { 'data-order-id': o.orderId },
        h(
          'th',
          { scope: 'row' },
          h(
            'button',
            {
              type: 'button',
              class: 'link',
              onclick: () => void openOrder(o.id).catch(showError),
              'aria-label': `Order ${o.orderNumber}: details and receipt`,
            },
            o.orderNumber,
          ),
        ),
        h('td', { 'data-label': 'Customer' }, `${o.customer.firstName} ${o.customer.lastName}`),
        h(
          'td',
          { 'data-label': 'Status' },
          h(
            'span',
            { class: `badge ${lower(o.paymentStatus)}` },
            `${lower(o.status)} · ${lower(o.paymentStatus).replace('_', ' ')}`,
          ),
        ),
        h('td', { class: 'num', 'data-label': 'Total' }, money(o.amount, o.currency)),
        h('td', { class: 'num', 'data-label': 'HSA/FSA' }, money(o.amounts.hsaAmount, o.currency)),
        h('td', { class: 'num', 'data-label': 'Regular' }, money(o.amounts.regularAmount, o.currency)),
        h('td', { class: 'num', 'data-label': 'Refunded' }, refunded ? money(refunded, o.currency) : '–'),
        h('td', { 'data-label': 'Created' }, h('time', { datetime: o.createdAt }, when(o.createdAt))),
      );
    }),
  );
  $('orders-empty').hidden = data.orders.nodes.length > 0;
}

/** The order panel's selection (openOrder). */
const OrderDetailQuery =
  graphql(`query($id: ID!) { order(id: $id) { orderId orderNumber status paymentStatus amount currency createdAt receiptUrl failureReason
       customer { email firstName lastName } amounts { subtotal hsaAmount regularAmount shipping tax discount total }
       lineItems { name quantity price hsaFsaEligible requiresLmn }
       payments { paymentMethod brand last4 amount refundedAmount capturedAt }
       refunds(first: 20) { nodes { refundId amount status reason createdAt } } } }`);
type OrderDetail = NonNullable<ResultOf<typeof OrderDetailQuery>['order']>;

async function openOrder(id: string): Promise<void> {
  const { order: o } = await query(OrderDetailQuery, { id });
  if (!o) throw new Error('No such order.');
  const panel = $('order-detail');
  $('order-detail-title').textContent = `Order ${o.orderNumber}`;
  const c = o.currency;
  $('order-detail-body').replaceChildren(
    h(
      'p',
      {},
      `${o.customer.firstName} ${o.customer.lastName} <${o.customer.email}> · ${when(o.createdAt)} · ${lower(o.status)}, ${lower(o.paymentStatus).replace('_', ' ')}`,
      o.failureReason ? ` · ${o.failureReason}` : '',
    ),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        {},
        h('caption', {}, 'Line items'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Item'),
            h('th', { scope: 'col', class: 'num' }, 'Qty'),
            h('th', { scope: 'col', class: 'num' }, 'Price'),
            h('th', { scope: 'col' }, 'HSA/FSA'),
          ),
        ),
        h(
          'tbody',
          {},
          ...o.lineItems.map((l) =>
            h(
              'tr',
              {},
              h('td', {}, l.name),
              h('td', { class: 'num' }, String(l.quantity)),
              h('td', { class: 'num' }, money(l.price, c)),
              h('td', {}, l.hsaFsaEligible ? (l.requiresLmn ? 'eligible with LMN' : 'eligible') : 'no'),
            ),
          ),
        ),
      ),
    ),
    h(
      'p',
      {},
      `Total ${money(o.amounts.total, c)}: HSA/FSA ${money(o.amounts.hsaAmount, c)}, regular ${money(o.amounts.regularAmount, c)} (shipping ${money(o.amounts.shipping, c)}, tax ${money(o.amounts.tax, c)}, discount ${money(o.amounts.discount, c)})`,
    ),
    h(
      'ul',
      { class: 'list' },
      ...o.payments.map((p) =>
        h(
          'li',
          {},
          `${p.paymentMethod === 'HSA_FSA_CARD' ? 'HSA/FSA card' : 'Card'} ${p.brand} •••• ${p.last4}: ${money(p.amount, c)}${p.refundedAmount ? `, refunded ${money(p.refundedAmount, c)}` : ''}`,
        ),
      ),
    ),
    ...(o.refunds.nodes.length
      ? [
          h(
            'ul',
            { class: 'list' },
            ...o.refunds.nodes.map((r) =>
              h(
                'li',
                {},
                `Refund ${r.refundId}: ${money(r.amount, c)} ${lower(r.status)} (${lower(r.reason).replace(/_/g, ' ')})`,
              ),
            ),
          ),
        ]
      : []),
    o.receiptUrl
      ? h(
          'p',
          {},
          h(
            'a',
            { href: o.receiptUrl, target: '_blank', rel: 'noopener noreferrer', id: 'receipt-link' },
            'Download the receipt (PDF)',
          ),
        )
      : h('p', {}, 'No receipt until the payment is captured.'),
    refundForm(id, o) ?? '',
  );
  panel.hidden = false;
  panel.focus();
}

const REFUND_REASONS = [
  'CUSTOMER_REQUEST',
  'DAMAGED_PRODUCT',
  'DUPLICATE',
  'FRAUDULENT',
  'PRODUCT_UNAVAILABLE',
  'WRONG_PRODUCT',
  'OTHER',
];

/**
 * The refund of an order (for a role that may refund): the amount, the reason, and before it is
 * confirmed, its split between the HSA/FSA card and the regular card, computed from the order's
 * payments with the service's own splitRefund.
 */
const CreateRefund = graphql(
  'mutation($input: CreateRefundInput!) { createRefund(input: $input) { refund { refundId } userErrors { message } } }',
);
type RefundReason = VariablesOf<typeof CreateRefund>['input']['reason'];

function refundForm(id: string, o: OrderDetail): HTMLElement | null {
  if (!session || !can(session.member.role, 'refunds:write')) return null;
  const c = o.currency;
  const payment = (method: string) => o.payments.find((p) => p.paymentMethod === method);
  const part = (method: string) => ({
    captured: payment(method)?.amount ?? 0,
    refunded: payment(method)?.refundedAmount ?? 0,
  });
  const hsa = part('HSA_FSA_CARD');
  const regular = part('CARD');
  const remaining = hsa.captured - hsa.refunded + regular.captured - regular.refunded;
  if (remaining <= 0 || !o.payments.some((p) => p.capturedAt)) return null;
  const amount = h('input', {
    id: 'refund-amount',
    type: 'text',
    inputmode: 'decimal',
    value: (remaining / 100).toFixed(2),
    'aria-describedby': 'refund-split',
  }) as HTMLInputElement;
  const reason = h(
    'select',
    { id: 'refund-reason' },
    ...REFUND_REASONS.map((r) => h('option', { value: r }, lower(r).replace(/_/g, ' '))),
  );
  const split = h('p', { id: 'refund-split', role: 'status' });
  const error = h('p', { id: 'refund-error', class: 'error', role: 'alert' });
  const cents = () => Math.round(Number(amount.value.replace(/[$,\s]/g, '')) * 100);
  const preview = (): { hsa: number; regular: number } | null => {
    const n = cents();
    if (!Number.isInteger(n) || n <= 0 || n > remaining) {
      split.textContent = `Enter an amount up to ${money(remaining, c)}.`;
      return null;
    }
    const share = splitRefund(n, hsa, regular);
    split.textContent = `Refund ${money(n, c)}: ${money(share.hsa, c)} to the HSA/FSA card, ${money(share.regular, c)} to the regular card.`;
    return share;
  };
  amount.addEventListener('input', () => void preview());
  const form = h(
    'form',
    { id: 'refund-form', novalidate: true, class: 'refund' },
    h('h3', {}, 'Refund'),
    h('label', { for: 'refund-amount' }, `Amount (at most ${money(remaining, c)})`),
    amount,
    h('label', { for: 'refund-reason' }, 'Reason'),
    reason,
    split,
    error,
    h('button', { type: 'submit' }, 'Refund'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const share = preview();
    if (!share) return;
    if (!window.confirm(`${split.textContent} Refund now?`)) return;
    void query(CreateRefund, {
      input: { orderId: id, amount: cents(), reason: (reason as HTMLSelectElement).value as RefundReason },
    })
      .then(() => openOrder(id))
      .then(() => refreshOrders())
      .catch((err: unknown) => {
        if (err instanceof SignedOut) return;
        error.textContent = `The refund was refused: ${(err as Error).message}`;
      });
  });
  preview();
  return form;
}

// ---- revenue chart ---------------------------------------------------------------------------

async function refreshRevenue(): Promise<void> {
  const { revenueByDay: days } = await query(graphql('{ revenueByDay(days: 30) { day hsaFsa regular refunds } }'));
  const labels = days.map((d) => d.day.slice(5));
  const sets = [days.map((d) => d.hsaFsa / 100), days.map((d) => d.regular / 100), days.map((d) => d.refunds / 100)];
  const sum = (k: 'hsaFsa' | 'regular' | 'refunds') => days.reduce((s, d) => s + d[k], 0);
  $('revenue-summary').textContent =
    `Last 30 days: HSA/FSA ${money(sum('hsaFsa'))}, regular ${money(sum('regular'))}, refunds ${money(sum('refunds'))}.`;
  if (chart) {
    chart.data.labels = labels;
    chart.data.datasets.forEach((ds, i) => (ds.data = sets[i]));
    chart.update();
    return;
  }
  chart = new Chart($<HTMLCanvasElement>('revenue-chart'), {
    type: 'bar',
    data: {
      labels,
      datasets: [
        { label: 'HSA/FSA', data: sets[0], backgroundColor: '#0b6e4f', stack: 'revenue' },
        { label: 'Regular', data: sets[1], backgroundColor: '#1f4e9c', stack: 'revenue' },
        { label: 'Refunds', data: sets[2], backgroundColor: '#b3261e', stack: 'refunds' },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { stacked: true, ticks: { color: '#222' } },
        y: { stacked: true, beginAtZero: true, ticks: { color: '#222', callback: (v) => `$${v}` } },
      },
      plugins: { legend: { labels: { color: '#222' } } },
    },
  });
}

// ---- payment links and subscriptions (when the graph has them) ---------------------------------

/** A payment link as far as the graph has the wanted fields (discoverList): each may be missing. */
interface LinkRow {
  id?: string;
  paymentLinkId?: string;
  linkId?: string;
  status?: string;
  url?: string | null;
  amount?: number | null;
  amountCents?: number | null;
  currency?: string | null;
  description?: string | null;
  products?: { name: string; quantity: number }[];
  createdAt?: string;
}

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

/** A link as a person names it: its description, else what it sells (the products' names), never its id. */
const linkName = (l: LinkRow) =>
  l.description ??
  (l.products?.length
    ? l.products.map((p) => (p.quantity > 1 ? `${p.quantity} × ${p.name}` : p.name)).join(', ')
    : 'Payment link');

/** A copy button for `text` (a link's URL), its result on the activity's status line. */
function copyButton(text: string, label: string): HTMLElement {
  return h(
    'button',
    { type: 'button', 'aria-label': label, onclick: () => void copy(text, $('connection')) },
    'Copy URL',
  );
}

/** A confirmed mutation `name(input: {id, ...extra})` of an object on the dashboard, then `after` redraws its panel. */
async function act(
  question: string,
  name: string,
  id: string,
  select: string,
  after: () => Promise<void>,
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (!window.confirm(question)) return;
  try {
    await queryText(
      `mutation($input: ${name[0].toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { ${select} userErrors { message } } }`,
      { input: { id, ...extra } },
    );
    await after();
  } catch (err) {
    showError(err);
  }
}

async function refreshLinks(): Promise<void> {
  if (!optional.links) return;
  const fields = optional.links.fields.map((f) => (f === 'products' ? 'products { name quantity }' : f));
  const data = await queryText<{ paymentLinks: { nodes: LinkRow[] } }>(
    `{ paymentLinks(first: 10) { nodes { ${fields.join(' ')} } } }`,
  );
  $('payment-links').replaceChildren(
    ...data.paymentLinks.nodes.map((l) => {
      const cents = l.amount ?? l.amountCents;
      return h(
        'li',
        {},
        h('span', { class: `badge ${lower(String(l.status ?? ''))}` }, lower(String(l.status ?? ''))),
        ' ',
        linkName(l),
        cents != null ? ` · ${money(cents, l.currency ?? 'usd')}` : '',
        l.url ? ' · ' : '',
        l.url ? h('a', { href: l.url, target: '_blank', rel: 'noopener noreferrer' }, 'open link') : null,
        l.url ? ' ' : '',
        l.url ? copyButton(l.url, `Copy URL of ${linkName(l)}`) : null,
        l.id && lower(String(l.status ?? '')) === 'active' && can(session?.member.role ?? '', 'payment_links:write')
          ? h(
              'button',
              {
                type: 'button',
                class: 'danger',
                'aria-label': `Cancel ${linkName(l)}`,
                // Its checkout session closes with it: the open checkouts are drawn again first.
                onclick: () =>
                  void act(
                    `Cancel the payment link ${linkName(l)}?`,
                    'cancelPaymentLink',
                    l.id!,
                    'paymentLink { id }',
                    () => refreshCheckouts().then(refreshLinks),
                  ),
              },
              'Cancel',
            )
          : null,
      );
    }),
  );
  if (!data.paymentLinks.nodes.length) $('payment-links').append(h('li', {}, 'No payment links.'));
}

/** Where a subscription sits in the panel: needing attention first, then those ending at the period end, then the rest (newest first in each). */
const subscriptionRank = (s: SubscriptionRow) =>
  ATTENTION.includes(lower(s.status ?? '')) ? 0 : s.cancelAtPeriodEnd ? 1 : 2;

/** A subscription's actions for a role that may change subscriptions: resume a scheduled end, or cancel at the period end or now. */
function subscriptionActions(s: SubscriptionRow, name: string): HTMLElement | null {
  if (!s.id || !can(session?.member.role ?? '', 'subscriptions:write')) return null;
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
          'resumeSubscription',
          s.id!,
          'subscription { id }',
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
          'cancelSubscription',
          s.id!,
          'subscription { id }',
          refreshSubscriptions,
          { cancelAtPeriodEnd: true },
        ),
    ),
    action(
      'Cancel now',
      'Cancel now',
      () => void act(`Cancel ${name} now?`, 'cancelSubscription', s.id!, 'subscription { id }', refreshSubscriptions),
      true,
    ),
  );
}

/** Subscriptions that have not ended (of the latest 100): those needing attention, then those ending at the period end, then the others; 20 at most. */
async function refreshSubscriptions(): Promise<void> {
  if (!optional.subs) return;
  const data = await queryText<{ subscriptions: { nodes: SubscriptionRow[] } }>(
    `{ subscriptions(first: 100) { nodes { ${optional.subs.fields.join(' ')} } } }`,
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

// ---- open checkouts --------------------------------------------------------------------------

/** The latest open checkout sessions (not past their expiry), each with its hosted page's URL to copy. */
async function refreshCheckouts(): Promise<void> {
  if (!can(session?.member.role ?? '', 'checkout:read')) return;
  const data = await query(
    graphql(
      '{ checkoutSessions(first: 10, status: OPEN) { nodes { checkoutId checkoutUrl currency expiresAt customer { email } amounts { total } } } }',
    ),
  );
  $('checkouts').replaceChildren(
    ...data.checkoutSessions.nodes.map((c) =>
      h(
        'li',
        { 'data-checkout-id': c.checkoutId },
        h('code', {}, c.checkoutId),
        ` · ${[c.customer.email, money(c.amounts.total, c.currency), `until ${when(c.expiresAt)}`].filter(Boolean).join(' · ')} `,
        copyButton(c.checkoutUrl, `Copy URL of checkout ${c.checkoutId}`),
      ),
    ),
  );
  if (!data.checkoutSessions.nodes.length) $('checkouts').append(h('li', {}, 'No open checkouts.'));
}

// ---- webhooks --------------------------------------------------------------------------------

async function refreshWebhooks(): Promise<void> {
  const data = await query(
    graphql(`{ webhookEndpoints(first: 10) { nodes { id endpointId url status events
        webhookDeliveries(first: 10) { nodes { id deliveryId eventType status attemptCount lastResponseStatus lastError lastAttemptAt } } } } }`),
  );
  const root = $('webhooks');
  // A pending delivery (e.g. just replayed) is sent by a background worker: look again shortly.
  if (data.webhookEndpoints.nodes.some((e) => e.webhookDeliveries.nodes.some((d) => lower(d.status) === 'pending')))
    soon('webhooks', refreshWebhooks, 1500);
  if (!data.webhookEndpoints.nodes.length)
    return void root.replaceChildren(h('p', { class: 'help' }, 'No webhook endpoints.'));
  root.replaceChildren(
    ...data.webhookEndpoints.nodes.map((e) =>
      h(
        'div',
        { class: 'endpoint', 'data-endpoint-id': e.endpointId },
        h('h3', {}, e.url, ' ', h('span', { class: `badge ${lower(e.status)}` }, lower(e.status))),
        h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            {},
            h('caption', { class: 'sr-only' }, `Recent deliveries to ${e.url}`),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ...['Event', 'Status', 'Attempts', 'Last response', 'Last attempt'].map((t) =>
                  h('th', { scope: 'col' }, t),
                ),
                h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions')),
              ),
            ),
            h(
              'tbody',
              {},
              ...e.webhookDeliveries.nodes.map((d) => {
                const status = lower(d.status);
                const response = d.lastResponseStatus ? `HTTP ${d.lastResponseStatus}` : (d.lastError ?? '–');
                return h(
                  'tr',
                  { 'data-delivery-id': d.deliveryId, 'data-status': status },
                  h('td', {}, h('code', {}, d.eventType)),
                  h('td', {}, h('span', { class: `badge ${status}` }, status.replace('_', ' '))),
                  h('td', { class: 'num' }, String(d.attemptCount)),
                  h('td', {}, response),
                  h('td', {}, d.lastAttemptAt ? h('time', { datetime: d.lastAttemptAt }, when(d.lastAttemptAt)) : '–'),
                  h(
                    'td',
                    { class: 'actions' },
                    status === 'succeeded' || !can(session?.member.role ?? '', 'webhooks:write') // a replay needs webhooks:write
                      ? ''
                      : h(
                          'button',
                          {
                            type: 'button',
                            onclick: (ev) => void replay(d.id, d.deliveryId, ev.currentTarget as HTMLButtonElement),
                            'aria-label': `Replay ${d.eventType} delivery ${d.deliveryId}`,
                          },
                          'Replay',
                        ),
                  ),
                );
              }),
            ),
          ),
        ),
      ),
    ),
  );
}

async function replay(id: string, deliveryId: string, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  const status = $('webhooks-status');
  try {
    const data = await query(
      graphql(
        'mutation($id: ID!) { retryWebhookDelivery(input: { id: $id }) { webhookDelivery { status lastResponseStatus } userErrors { message } } }',
      ),
      { id },
    );
    const d = data.retryWebhookDelivery.webhookDelivery;
    // An input mistake (the delivery already succeeded, its endpoint is disabled) comes back as userErrors.
    if (!d) throw new Error(data.retryWebhookDelivery.userErrors.map((e) => e.message).join(' '));
    status.textContent = `Delivery ${deliveryId} queued to be sent again now (${lower(d.status)}).`;
  } catch (err) {
    status.textContent = `Replay of ${deliveryId} failed: ${(err as Error).message}`;
  }
  await refreshWebhooks();
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

if (location.pathname === '/console/setup') {
  $('setup').hidden = false;
  void showSetup(new URLSearchParams(location.search).get('token') ?? '');
} else {
  consoleCall<Session>('GET', '/console/session').then(enter, () => showSignIn());
}
