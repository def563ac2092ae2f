/**
 * Settings → Webhooks, the console's one view of them: each endpoint with its actions (edit,
 * enable / disable, send a test event, rotate the secret, recover failed deliveries since a time,
 * delete) and its latest deliveries (webhook-deliveries.ts), from one query; a new endpoint's
 * signing secret shown once. While the view is open it follows the live events (a delivery is made
 * from an event just after it commits) and looks again while a delivery is still pending.
 */
import { $, field, h, lower, shownOnce } from '../dom.js';
import { graphql, type ResultOf } from '../graphql.js';
import { attempt, button, can, input, say, value, type ConsoleContext } from '../settings-kit.js';
import { soon } from '../session.js';
import { anyPending, DeliveryFields, deliveriesTable, type DeliveryView } from './webhook-deliveries.js';

const WebhookEndpoints = graphql(
  `{ webhookEndpoints(first: 20) { nodes { id endpointId url status events description
      webhookDeliveries(first: 10) { nodes { ...DeliveryFields } } } } }`,
  [DeliveryFields],
);
type EndpointRow = ResultOf<typeof WebhookEndpoints>['webhookEndpoints']['nodes'][number];

const CreateEndpoint = graphql(
  'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret webhookEndpoint { url } userErrors { message } } }',
);
const UpdateEndpoint = graphql(
  'mutation($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { webhookEndpoint { id } userErrors { message } } }',
);
const DisableEndpoint = graphql(
  'mutation($id: ID!) { disableWebhookEndpoint(input: { id: $id }) { webhookEndpoint { id } userErrors { message } } }',
);
const EnableEndpoint = graphql(
  'mutation($id: ID!) { enableWebhookEndpoint(input: { id: $id }) { webhookEndpoint { id } userErrors { message } } }',
);
const TestEndpoint = graphql(
  'mutation($id: ID!) { testWebhookEndpoint(input: { id: $id }) { deliveryId responseStatus error durationMs userErrors { message } } }',
);
const RotateSecret = graphql(
  'mutation($id: ID!) { rotateWebhookEndpointSecret(input: { id: $id }) { secret userErrors { message } } }',
);
const RecoverEndpoint = graphql(
  'mutation($id: ID!, $since: DateTimeISO!) { recoverWebhookEndpoint(input: { id: $id, since: $since }) { recovered userErrors { message } } }',
);
const DeleteEndpoint = graphql(
  'mutation($id: ID!) { deleteWebhookEndpoint(input: { id: $id }) { deletedWebhookEndpointId userErrors { message } } }',
);

/** The open view's live redraw (null when it is not on the page). */
let live: (() => Promise<void>) | null = null;

/** Draws the open webhooks view again, if it is open (the shell calls it on live events; it looks again while a delivery is pending). */
export async function refreshWebhooks(): Promise<void> {
  await live?.();
}

/** Draws the webhooks view into `root`: the secret shown once, the endpoints, the form that adds one (for a writer). */
export async function webhooksPage(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const writer = can(ctx.role, 'webhooks:write');
  const once = h('div', { id: 'webhook-secret' });
  const list = h('div', { id: 'webhook-endpoints' });
  const view: DeliveryView = { ctx, writer, open: new Set(), redraw: () => draw() };
  const run = (fn: () => Promise<string>) =>
    void attempt(async () => {
      const message = await fn();
      await draw();
      say(message);
    });
  const draw = async () => {
    const data = await ctx.query(WebhookEndpoints);
    const endpoints = data.webhookEndpoints.nodes;
    // A pending delivery (just made, or replayed) is sent by a background worker: look again shortly.
    if (endpoints.some((e) => anyPending(e.webhookDeliveries.nodes))) soon('webhooks', refreshWebhooks, 1500);
    if (!endpoints.length) return void list.replaceChildren(h('p', { class: 'help' }, 'No webhook endpoints.'));
    list.replaceChildren(...endpoints.map((e) => endpoint(e)));
  };
  live = async () => {
    if (!list.isConnected) return void (live = null);
    // Not under the hands of someone editing an endpoint or choosing a time to recover from: later.
    const editing = list.querySelector('form') ?? [...list.querySelectorAll('input')].find((i) => i.value);
    if (editing) return soon('webhooks', refreshWebhooks, 1500);
    await draw();
  };
  const endpoint = (e: EndpointRow) => {
    const status = lower(e.status);
    return h(
      'div',
      { class: 'endpoint', 'data-endpoint-id': e.endpointId },
      h('h3', {}, e.url, ' ', h('span', { class: `badge ${status}` }, status)),
      h('p', { class: 'help' }, `Events: ${e.events.join(', ')}`, e.description ? ` · ${e.description}` : ''),
      writer ? actions(e, status) : null,
      h('h4', {}, 'Recent deliveries'),
      deliveriesTable(e.url, e.webhookDeliveries.nodes, view),
    );
  };
  const actions = (e: EndpointRow, status: string) => {
    const since = input(`since-${e.endpointId}`, { type: 'datetime-local' });
    const enabled = status === 'enabled';
    return h(
      'div',
      { class: 'actions' },
      button(
        enabled ? 'Disable' : 'Enable',
        () =>
          run(async () => {
            await (enabled ? ctx.query(DisableEndpoint, { id: e.id }) : ctx.query(EnableEndpoint, { id: e.id }));
            return `${e.url} ${enabled ? 'disabled' : 'enabled'}.`;
          }),
        { 'aria-label': `${enabled ? 'Disable' : 'Enable'} ${e.url}` },
      ),
      button(
        'Send test event',
        () =>
          run(async () => {
            const { testWebhookEndpoint: t } = await ctx.query(TestEndpoint, { id: e.id });
            return `Test event sent: ${t.responseStatus ? `HTTP ${t.responseStatus}` : (t.error ?? 'no answer')} in ${t.durationMs} ms.`;
          }),
        { 'aria-label': `Send test event to ${e.url}` },
      ),
      button(
        'Rotate secret',
        () =>
          void attempt(async () => {
            const { rotateWebhookEndpointSecret } = await ctx.query(RotateSecret, { id: e.id });
            once.replaceChildren(
              shownOnce(
                'endpoint-secret',
                `New signing secret of ${e.url} (the previous one signs for 24 hours more)`,
                rotateWebhookEndpointSecret.secret!,
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
            run(async () => {
              await ctx.query(DeleteEndpoint, { id: e.id });
              return `${e.url} deleted.`;
            });
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
              const { recoverWebhookEndpoint } = await ctx.query(RecoverEndpoint, {
                id: e.id,
                since: new Date(since.value).toISOString(),
              });
              return `${recoverWebhookEndpoint.recovered} deliveries queued again.`;
            }),
          { 'aria-label': `Recover failed deliveries of ${e.url}` },
        ),
      ),
    );
  };
  const edit = (e: EndpointRow) => {
    const form = endpointForm('edit', 'Save', e, async (url, events, description) => {
      await ctx.query(UpdateEndpoint, { input: { id: e.id, url, events, description } });
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
    const { createWebhookEndpoint } = await ctx.query(CreateEndpoint, {
      input: { url, events, description: description || undefined },
    });
    once.replaceChildren(shownOnce('endpoint-secret', `Signing secret of ${url}`, createWebhookEndpoint.secret!));
    return `${url} added.`;
  });
  root.replaceChildren(once, list, writer ? create : '');
  await draw();
}
