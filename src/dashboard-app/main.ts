import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { createClient, type Client } from 'graphql-ws';
import { ApiError, discoverList, gql } from './api.js';
import './styles.css';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip);

const KEY_STORAGE = 'dashboard.apiKey';
const CURSOR_STORAGE = 'dashboard.eventCursor';
const ATTENTION = ['past_due', 'action_required', 'unpaid', 'disputed'];

type Attrs = Record<string, string | boolean | undefined | ((e: Event) => void)>;

/** Builds an element; text is always set as text (never parsed as HTML). */
function h(tag: string, attrs: Attrs = {}, ...children: (Node | string | null | undefined)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else el.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) el.append(child);
  return el;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const money = (cents: number, currency = 'usd') => new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const lower = (v: string) => v.toLowerCase();

let apiKey = '';
let ws: Client | undefined;
let chart: Chart | undefined;
const seen = new Set<string>();
let lastCursor: string | null = null;
let catchingUp = false;
let buffered: LiveEvent[] = [];
const timers = new Map<string, number>();
let optional: { links: Awaited<ReturnType<typeof discoverList>>; subs: Awaited<ReturnType<typeof discoverList>> } = { links: null, subs: null };

interface LiveEvent {
  eventId: string;
  type: string;
  cursor: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/**
 * Runs `fn` once after a burst of calls with the same name. A refresh refused because the key's
 * query-cost bucket is short (`throttled`) runs again once it has refilled enough, instead of
 * showing an error: the panels stay live under a busy key.
 */
function soon(name: string, fn: () => Promise<void>, ms = 120): void {
  clearTimeout(timers.get(name));
  timers.set(
    name,
    window.setTimeout(() => void fn().catch((err: unknown) => (err instanceof ApiError && err.code === 'throttled' ? soon(name, fn, err.retryAfterMs ?? 1000) : showError(err))), ms),
  );
}

/** Thrown for an answer that arrived after the key it was asked with was signed out: dropped. */
class SignedOut extends Error {}

/** A GraphQL call with the signed-in key; its answer is dropped if the key changed meanwhile (a sign-out). */
async function query<T>(q: string, variables: Record<string, unknown> = {}): Promise<T> {
  const key = apiKey;
  if (!key) throw new SignedOut();
  const data = await gql<T>(key, q, variables);
  if (key !== apiKey) throw new SignedOut();
  return data;
}

function showError(err: unknown): void {
  if (err instanceof SignedOut) return;
  if (err instanceof ApiError && err.status === 401) return signOut('Your API key was refused; sign in again.');
  $('connection').textContent = `Error: ${err instanceof Error ? err.message : String(err)}`;
}

// ---- sign-in ---------------------------------------------------------------------------------

async function signIn(key: string): Promise<void> {
  const error = $('api-key-error');
  error.textContent = '';
  if (!/^glm_(test|live)_\w+$/.test(key)) {
    error.textContent = 'Enter an API key starting with glm_test_ or glm_live_.';
    $('api-key').setAttribute('aria-invalid', 'true');
    $('api-key').focus();
    return;
  }
  try {
    await gql(key, '{ webhookEndpoints(first: 1) { nodes { id } } }');
  } catch (err) {
    error.textContent = err instanceof ApiError && err.status === 401 ? 'That API key was not accepted.' : `Could not sign in: ${(err as Error).message}`;
    $('api-key').setAttribute('aria-invalid', 'true');
    $('api-key').focus();
    return;
  }
  apiKey = key;
  sessionStorage.setItem(KEY_STORAGE, key);
  $('api-key').removeAttribute('aria-invalid');
  $<HTMLInputElement>('api-key').value = '';
  const live = key.startsWith('glm_live_');
  const banner = $('mode-banner');
  banner.hidden = false;
  banner.className = `mode-banner ${live ? 'live' : 'test'}`;
  banner.textContent = live ? 'LIVE MODE: real customers and real money' : 'TEST MODE: test data only, no real money moves';
  document.body.dataset.mode = live ? 'live' : 'test';
  $('sign-in').hidden = true;
  $('app').hidden = false;
  $('sign-out').hidden = false;
  lastCursor = sessionStorage.getItem(CURSOR_STORAGE);
  optional = {
    links: await discoverList(key, 'paymentLinks', ['id', 'paymentLinkId', 'linkId', 'status', 'url', 'amount', 'amountCents', 'currency', 'description', 'createdAt']),
    subs: await discoverList(key, 'subscriptions', ['id', 'subscriptionId', 'status', 'amountCents', 'amount', 'currency', 'customerId', 'nextBillingDate', 'currentPeriodEnd']),
  };
  $('payment-links-panel').hidden = !optional.links;
  $('subscriptions-panel').hidden = !optional.subs;
  await Promise.all([refreshOrders(), refreshRevenue(), refreshWebhooks(), refreshLinks(), refreshSubscriptions(), lastCursor ? Promise.resolve() : loadRecentActivity()]);
  connect();
}

function signOut(message = ''): void {
  sessionStorage.removeItem(KEY_STORAGE);
  sessionStorage.removeItem(CURSOR_STORAGE);
  apiKey = '';
  void ws?.dispose();
  ws = undefined;
  seen.clear();
  lastCursor = null;
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  // Nothing of the merchant's stays in the page (a shared counter): every panel is emptied, not just hidden.
  chart?.destroy();
  chart = undefined;
  optional = { links: null, subs: null };
  for (const id of ['activity', 'order-detail-body', 'webhooks', 'payment-links', 'subscriptions']) $(id).replaceChildren();
  document.querySelector('#orders tbody')!.replaceChildren();
  for (const id of ['revenue-summary', 'webhooks-status']) $(id).textContent = '';
  $('order-detail-title').textContent = 'Order';
  for (const id of ['order-detail', 'orders-empty', 'payment-links-panel', 'subscriptions-panel']) $(id).hidden = true;
  delete document.body.dataset.mode;
  delete document.body.dataset.connection;
  $('app').hidden = true;
  $('sign-in').hidden = false;
  $('sign-out').hidden = true;
  $('mode-banner').hidden = true;
  $('connection').textContent = 'Signed out';
  $('api-key-error').textContent = message;
  $('api-key').focus();
}

// ---- live events and catch-up ----------------------------------------------------------------

const EVENT_FIELDS = 'eventId type cursor createdAt data';

/** The last events so far (the stream continues after the newest one's cursor). */
async function loadRecentActivity(): Promise<void> {
  const data = await query<{ events: { nodes: LiveEvent[] } }>(`{ events(last: 20, order: OLDEST_FIRST) { nodes { ${EVENT_FIELDS} } } }`);
  for (const e of data.events.nodes) record(e, false);
}

/** Everything after the last cursor seen, once, in order (after a reconnect). */
async function catchUp(): Promise<void> {
  catchingUp = true;
  try {
    for (let page = 0; page < 50; page++) {
      const data = await query<{ events: { nodes: LiveEvent[]; pageInfo: { hasNextPage: boolean } } }>(
        `query($after: String) { events(after: $after, first: 100, order: OLDEST_FIRST) { nodes { ${EVENT_FIELDS} } pageInfo { hasNextPage } } }`,
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

function connect(): void {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  ws = createClient({
    url,
    connectionParams: () => ({ authorization: `Bearer ${apiKey}` }),
    lazy: false,
    keepAlive: 10_000,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: (retries) => new Promise((r) => setTimeout(r, Math.min(250 * 2 ** retries, 3000))),
    on: {
      connected: () => {
        $('connection').textContent = 'Live';
        document.body.dataset.connection = 'live';
        // Subscribed again by the client; read what was missed while away (live events wait meanwhile).
        void catchUp().then(() => refreshAll(), showError);
      },
      closed: (event) => {
        if (!apiKey) return; // closed by signing out: nothing is reconnecting
        if ((event as CloseEvent | undefined)?.code === 4401) return signOut('Your API key was refused; sign in again.');
        $('connection').textContent = 'Reconnecting…';
        document.body.dataset.connection = 'reconnecting';
      },
    },
  });
  ws.subscribe<{ events: LiveEvent }>(
    { query: `subscription { events { ${EVENT_FIELDS} } }` },
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
  list.prepend(h('li', { 'data-event-id': e.eventId, 'data-event-type': e.type }, h('time', { datetime: e.createdAt }, when(e.createdAt)), ' ', h('code', {}, e.type), id ? ` ${id}` : ''));
  while (list.children.length > 300) list.lastElementChild?.remove();
  if (!refresh) return;
  if (/^(order|refund|checkout)\./.test(e.type)) {
    soon('orders', refreshOrders, 30);
    soon('revenue', refreshRevenue, 200);
  }
  if (/^(payment_link|checkout)\./.test(e.type)) soon('links', refreshLinks); // a new link records its checkout session's checkout.created
  if (e.type.startsWith('subscription.')) soon('subs', refreshSubscriptions);
  soon('webhooks', refreshWebhooks, 600); // deliveries are made from events just after they commit
}

// ---- orders ----------------------------------------------------------------------------------

interface OrderRow {
  id: string;
  orderId: string;
  orderNumber: string;
  status: string;
  paymentStatus: string;
  amount: number;
  currency: string;
  createdAt: string;
  customer: { email: string; firstName: string; lastName: string };
  amounts: { hsaAmount: number; regularAmount: number; total: number };
  payments: { amount: number; refundedAmount: number; paymentMethod: string }[];
}

async function refreshOrders(): Promise<void> {
  const data = await query<{ orders: { nodes: OrderRow[] } }>(
    `{ orders(first: 20) { nodes { id orderId orderNumber status paymentStatus amount currency createdAt customer { email firstName lastName } amounts { hsaAmount regularAmount total } payments { amount refundedAmount paymentMethod } } } }`,
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
          h('button', { type: 'button', class: 'link', onclick: () => void openOrder(o.id).catch(showError), 'aria-label': `Order ${o.orderNumber}: details and receipt` }, o.orderNumber),
        ),
        h('td', { 'data-label': 'Customer' }, `${o.customer.firstName} ${o.customer.lastName}`),
        h('td', { 'data-label': 'Status' }, h('span', { class: `badge ${lower(o.paymentStatus)}` }, `${lower(o.status)} · ${lower(o.paymentStatus).replace('_', ' ')}`)),
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
interface OrderDetail extends Omit<OrderRow, 'id' | 'amounts' | 'payments'> {
  receiptUrl: string | null;
  failureReason: string | null;
  amounts: { subtotal: number; hsaAmount: number; regularAmount: number; shipping: number; tax: number; discount: number; total: number };
  lineItems: { name: string; quantity: number; price: number; hsaFsaEligible: boolean; requiresLmn: boolean }[];
  payments: { paymentMethod: string; brand: string; last4: string; amount: number; refundedAmount: number; capturedAt: string }[];
  refunds: { nodes: { refundId: string; amount: number; status: string; reason: string; createdAt: string }[] };
}

async function openOrder(id: string): Promise<void> {
  const { order: o } = await query<{ order: OrderDetail }>(
    `query($id: ID!) { order(id: $id) { orderId orderNumber status paymentStatus amount currency createdAt receiptUrl failureReason
       customer { email firstName lastName } amounts { subtotal hsaAmount regularAmount shipping tax discount total }
       lineItems { name quantity price hsaFsaEligible requiresLmn }
       payments { paymentMethod brand last4 amount refundedAmount capturedAt }
       refunds(first: 20) { nodes { refundId amount status reason createdAt } } } }`,
    { id },
  );
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
          h('tr', {}, h('th', { scope: 'col' }, 'Item'), h('th', { scope: 'col', class: 'num' }, 'Qty'), h('th', { scope: 'col', class: 'num' }, 'Price'), h('th', { scope: 'col' }, 'HSA/FSA')),
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
      ? [h('ul', { class: 'list' }, ...o.refunds.nodes.map((r) => h('li', {}, `Refund ${r.refundId}: ${money(r.amount, c)} ${lower(r.status)} (${lower(r.reason).replace(/_/g, ' ')})`)))]
      : []),
    o.receiptUrl
      ? h('p', {}, h('a', { href: o.receiptUrl, target: '_blank', rel: 'noopener noreferrer', id: 'receipt-link' }, 'Download the receipt (PDF)'))
      : h('p', {}, 'No receipt until the payment is captured.'),
  );
  panel.hidden = false;
  panel.focus();
}

// ---- revenue chart ---------------------------------------------------------------------------

async function refreshRevenue(): Promise<void> {
  const { revenueByDay: days } = await query<{ revenueByDay: { day: string; hsaFsa: number; regular: number; refunds: number }[] }>('{ revenueByDay(days: 30) { day hsaFsa regular refunds } }');
  const labels = days.map((d) => d.day.slice(5));
  const sets = [days.map((d) => d.hsaFsa / 100), days.map((d) => d.regular / 100), days.map((d) => d.refunds / 100)];
  const sum = (k: 'hsaFsa' | 'regular' | 'refunds') => days.reduce((s, d) => s + d[k], 0);
  $('revenue-summary').textContent = `Last 30 days: HSA/FSA ${money(sum('hsaFsa'))}, regular ${money(sum('regular'))}, refunds ${money(sum('refunds'))}.`;
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
      scales: { x: { stacked: true, ticks: { color: '#222' } }, y: { stacked: true, beginAtZero: true, ticks: { color: '#222', callback: (v) => `$${v}` } } },
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
  createdAt?: string;
}

/** A subscription as far as the graph has the wanted fields (discoverList): each may be missing. */
interface SubscriptionRow {
  id?: string;
  subscriptionId?: string;
  status?: string;
  amountCents?: number | null;
  amount?: number | null;
  currency?: string | null;
  customerId?: string | null;
  nextBillingDate?: string | null;
  currentPeriodEnd?: string | null;
}

async function refreshLinks(): Promise<void> {
  if (!optional.links) return;
  const data = await query<{ paymentLinks: { nodes: LinkRow[] } }>(`{ paymentLinks(first: 10) { nodes { ${optional.links.fields.join(' ')} } } }`);
  $('payment-links').replaceChildren(
    ...data.paymentLinks.nodes.map((l) => {
      const cents = l.amount ?? l.amountCents;
      return h(
        'li',
        {},
        h('span', { class: `badge ${lower(String(l.status ?? ''))}` }, lower(String(l.status ?? ''))),
        ' ',
        l.description ?? l.paymentLinkId ?? l.linkId ?? l.id,
        cents != null ? ` · ${money(cents, l.currency ?? 'usd')}` : '',
        l.url ? ' · ' : '',
        l.url ? h('a', { href: l.url, target: '_blank', rel: 'noopener noreferrer' }, 'open link') : null,
      );
    }),
  );
  if (!data.paymentLinks.nodes.length) $('payment-links').append(h('li', {}, 'No payment links.'));
}

async function refreshSubscriptions(): Promise<void> {
  if (!optional.subs) return;
  const data = await query<{ subscriptions: { nodes: SubscriptionRow[] } }>(`{ subscriptions(first: 100) { nodes { ${optional.subs.fields.join(' ')} } } }`);
  const needing = data.subscriptions.nodes.filter((s) => ATTENTION.includes(lower(String(s.status ?? ''))));
  $('subscriptions').replaceChildren(
    ...needing.map((s) => {
      const cents = s.amountCents ?? s.amount;
      const due = s.nextBillingDate ?? s.currentPeriodEnd;
      const status = lower(s.status ?? ''); // one of ATTENTION (filtered above)
      return h(
        'li',
        {},
        h('span', { class: `badge ${status}` }, status.replace('_', ' ')),
        ' ',
        s.subscriptionId ?? s.id,
        cents != null ? ` · ${money(cents, s.currency ?? 'usd')}` : '',
        due ? ` · next ${when(due)}` : '',
      );
    }),
  );
  if (!needing.length) $('subscriptions').append(h('li', {}, 'Nothing needs attention.'));
}

// ---- webhooks --------------------------------------------------------------------------------

interface DeliveryRow {
  id: string;
  deliveryId: string;
  eventType: string;
  status: string;
  attemptCount: number;
  lastResponseStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
}

interface EndpointRow {
  id: string;
  endpointId: string;
  url: string;
  status: string;
  events: string[];
  webhookDeliveries: { nodes: DeliveryRow[] };
}

async function refreshWebhooks(): Promise<void> {
  const data = await query<{ webhookEndpoints: { nodes: EndpointRow[] } }>(
    `{ webhookEndpoints(first: 10) { nodes { id endpointId url status events
        webhookDeliveries(first: 10) { nodes { id deliveryId eventType status attemptCount lastResponseStatus lastError lastAttemptAt } } } } }`,
  );
  const root = $('webhooks');
  // A pending delivery (e.g. just replayed) is sent by a background worker: look again shortly.
  if (data.webhookEndpoints.nodes.some((e) => e.webhookDeliveries.nodes.some((d) => lower(d.status) === 'pending'))) soon('webhooks', refreshWebhooks, 1500);
  if (!data.webhookEndpoints.nodes.length) return void root.replaceChildren(h('p', { class: 'help' }, 'No webhook endpoints.'));
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
            h('thead', {}, h('tr', {}, ...['Event', 'Status', 'Attempts', 'Last response', 'Last attempt', ''].map((t) => h('th', { scope: 'col' }, t)))),
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
                    {},
                    status === 'succeeded'
                      ? ''
                      : h(
                          'button',
                          { type: 'button', onclick: (ev) => void replay(d.id, d.deliveryId, ev.currentTarget as HTMLButtonElement), 'aria-label': `Replay ${d.eventType} delivery ${d.deliveryId}` },
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
    const data = await query<{ retryWebhookDelivery: { webhookDelivery: { status: string; lastResponseStatus: number | null } | null; userErrors: { message: string }[] } }>(
      'mutation($id: ID!) { retryWebhookDelivery(input: { id: $id }) { webhookDelivery { status lastResponseStatus } userErrors { message } } }',
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
  void signIn($<HTMLInputElement>('api-key').value.trim());
});
$('sign-out').addEventListener('click', () => signOut());
$('order-detail-close').addEventListener('click', () => {
  $('order-detail').hidden = true;
  document.querySelector<HTMLElement>('#orders tbody button')?.focus();
});
const saved = sessionStorage.getItem(KEY_STORAGE);
if (saved) void signIn(saved);
else $('api-key').focus();
