/** Dashboard → Live activity: every event once, in order, over graphql-ws; after a reconnect, what was missed, from the last cursor seen. */
import { print } from '@0no-co/graphql.web';
import { createClient, type Client } from 'graphql-ws';
import { currentCsrfToken } from '../api.js';
import { $, h, when } from '../dom.js';
import { graphql, type ResultOf } from '../graphql.js';
import { currentSession, query, showError } from '../session.js';

const CURSOR_STORAGE = 'dashboard.eventCursor';

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

let ws: Client | undefined;
const seen = new Set<string>();
let lastCursor: string | null = null;
let catchingUp = false;
let buffered: LiveEvent[] = [];

/** What the shell does with the stream: refresh the panels an event of `type` touches, all of them after a reconnect, or sign out. */
export interface LiveWiring {
  touched: (type: string) => void;
  reconnected: () => void;
  ended: (message: string) => void;
}
let wiring: LiveWiring | undefined;

/** Signed in: the stream continues after the last cursor this tab saw (kept through a reload). */
export function resumeActivity(): void {
  lastCursor = sessionStorage.getItem(CURSOR_STORAGE);
}

/** Signed out, or the mode switched: the next session starts from its own latest events. */
export function forgetActivityCursor(): void {
  sessionStorage.removeItem(CURSOR_STORAGE);
}

/** Signed out: the connection closed, nothing of the stream kept. */
export function stopActivity(): void {
  forgetActivityCursor();
  void ws?.dispose();
  ws = undefined;
  seen.clear();
  lastCursor = null;
}

/** The last events so far (the stream continues after the newest one's cursor); nothing when the tab resumes from a cursor. */
export async function loadRecentActivity(): Promise<void> {
  if (lastCursor) return;
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

/** Opens the live connection (it reconnects by itself, then catches up). */
export function connect(wired: LiveWiring): void {
  wiring = wired;
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
        void catchUp().then(() => wiring?.reconnected(), showError);
      },
      closed: (event) => {
        if (!currentSession()) return; // closed by signing out: nothing is reconnecting
        if ((event as CloseEvent | undefined)?.code === 4401)
          return wiring?.ended('Your session ended; sign in again.');
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
  wiring?.touched(e.type);
}
