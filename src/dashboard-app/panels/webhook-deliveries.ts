/**
 * An endpoint's latest deliveries in the webhooks view (webhooks.ts): a row each with its status,
 * attempts and last response, Replay for a role that may change webhooks, and under it its log
 * (the request body, every attempt with the receiver's answer), opened from the event's name.
 */
import { h, lower, table, when } from '../dom.js';
import { graphql, type ResultOf } from '../graphql.js';
import { say, type ConsoleContext } from '../settings-kit.js';

export const DeliveryFields = graphql(`
  fragment DeliveryFields on WebhookDelivery {
    id
    deliveryId
    eventType
    status
    attemptCount
    lastResponseStatus
    lastError
    lastAttemptAt
    createdAt
    event {
      data
    }
    attempts {
      attempt
      status
      responseStatus
      responseBody
      error
      startedAt
      durationMs
    }
  }
`);
type DeliveryRow = ResultOf<typeof DeliveryFields>;

const RetryDelivery = graphql(
  'mutation($id: ID!) { retryWebhookDelivery(input: { id: $id }) { webhookDelivery { status } userErrors { message } } }',
);

/** How the deliveries of the view are drawn: whose logs are open (kept through a redraw), whether Replay is offered, and the redraw after one. */
export interface DeliveryView {
  ctx: ConsoleContext;
  writer: boolean;
  open: Set<string>;
  redraw: () => Promise<void>;
}

/** Whether any of these deliveries is still to be sent (a background worker sends it: the view looks again shortly). */
export const anyPending = (deliveries: DeliveryRow[]) => deliveries.some((d) => lower(d.status) === 'pending');

/** The table of an endpoint's latest deliveries. */
export function deliveriesTable(url: string, deliveries: DeliveryRow[], view: DeliveryView): HTMLElement {
  if (!deliveries.length) return h('p', { class: 'help' }, 'No deliveries yet.');
  return table(
    `Recent deliveries to ${url}`,
    ['Event', 'Status', 'Attempts', 'Last response', 'Last attempt', 'Actions'],
    deliveries.flatMap((d) => delivery(d, view)),
    { class: 'deliveries' },
  );
}

/** A delivery's row, and its log's row under it (hidden until opened). */
function delivery(d: DeliveryRow, view: DeliveryView): HTMLElement[] {
  const status = lower(d.status);
  const logId = `log-${d.deliveryId}`;
  const log = h(
    'tr',
    { id: logId, class: 'delivery-log', hidden: !view.open.has(d.deliveryId) },
    h('td', { colspan: '6' }, ...deliveryLog(d)),
  );
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'link',
      'aria-expanded': String(view.open.has(d.deliveryId)),
      'aria-controls': logId,
      'aria-label': `Request and attempts of ${d.eventType} delivery ${d.deliveryId}`,
      onclick: () => {
        const opening = log.hidden;
        log.hidden = !opening;
        toggle.setAttribute('aria-expanded', String(opening));
        if (opening) view.open.add(d.deliveryId);
        else view.open.delete(d.deliveryId);
      },
    },
    h('code', {}, d.eventType),
  );
  const row = h(
    'tr',
    { 'data-delivery-id': d.deliveryId, 'data-status': status },
    h('td', {}, toggle),
    h('td', {}, h('span', { class: `badge ${status}` }, status.replace('_', ' '))),
    h('td', { class: 'num' }, String(d.attemptCount)),
    h('td', {}, d.lastResponseStatus ? `HTTP ${d.lastResponseStatus}` : (d.lastError ?? '–')),
    h('td', {}, d.lastAttemptAt ? h('time', { datetime: d.lastAttemptAt }, when(d.lastAttemptAt)) : '–'),
    h(
      'td',
      { class: 'actions' },
      view.writer && status !== 'succeeded' // a replay needs webhooks:write
        ? h(
            'button',
            {
              type: 'button',
              'aria-label': `Replay ${d.eventType} delivery ${d.deliveryId}`,
              onclick: (ev) => void replay(d, view, ev.currentTarget as HTMLButtonElement),
            },
            'Replay',
          )
        : '',
    ),
  );
  return [row, log];
}

/** What was sent and what the receiver answered to each attempt. */
function deliveryLog(d: DeliveryRow): HTMLElement[] {
  return [
    h('h5', {}, 'Request body'),
    h('pre', { tabindex: '0', 'aria-label': 'Request body' }, JSON.stringify(d.event.data, null, 2)),
    h('h5', {}, 'Attempts'),
    d.attempts.length
      ? h(
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
        )
      : h('p', { class: 'help' }, 'Not attempted yet.'),
  ];
}

/** Queues a delivery to be sent again now (the retryWebhookDelivery mutation), then draws the view again. */
async function replay(d: DeliveryRow, view: DeliveryView, control: HTMLButtonElement): Promise<void> {
  control.disabled = true;
  try {
    const { retryWebhookDelivery } = await view.ctx.query(RetryDelivery, { id: d.id });
    say(
      `Delivery ${d.deliveryId} queued to be sent again now (${lower(retryWebhookDelivery.webhookDelivery!.status)}).`,
    );
  } catch (err) {
    say(`Replay of ${d.deliveryId} failed: ${(err as Error).message}`, true);
  }
  await view.redraw();
}
