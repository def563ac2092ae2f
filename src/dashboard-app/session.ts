/** The signed-in session as the panels see it: who is signed in, the graph in that session, and the panels' refresh timers. */
import { ApiError, gql, gqlText } from './api.js';
import { $ } from './dom.js';

/** What the console knows of its session (GET /console/session, POST /console/sign-in). */
export interface Session {
  member: { id: string; email: string; role: string; two_factor_enabled: boolean };
  merchant: { id: string; name: string };
  livemode: boolean;
  csrf_token: string;
}

let session: Session | null = null;
let epoch = 0; // one more at every sign-in and sign-out: answers of an older session are dropped
const timers = new Map<string, number>();
let ended: (message: string) => void = () => undefined;

/** The signed-in session, or null. */
export const currentSession = (): Session | null => session;

/** The signed-in member's role ('' when signed out). */
export const currentRole = (): string => session?.member.role ?? '';

/** Starts (or, with null, ends) the session the panels query in; pending refreshes of the previous one are dropped. */
export function setSession(s: Session | null): void {
  session = s;
  epoch++;
  if (s) return;
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
}

/** What the shell does when the service says the session ended (a 401): sign out, saying why. */
export function onSessionEnded(handler: (message: string) => void): void {
  ended = handler;
}

/** Thrown for an answer that arrived after the session it was asked in was signed out: dropped. */
export class SignedOut extends Error {}

/** Runs a call in the signed-in session; its answer is dropped if the session ended meanwhile. */
async function inSession<T>(call: () => Promise<T>): Promise<T> {
  const asked = epoch;
  if (!session) throw new SignedOut();
  const data = await call();
  if (asked !== epoch) throw new SignedOut();
  return data;
}

/** A typed GraphQL document in the signed-in session. */
export const query: typeof gql = (document, ...variables) => inSession(() => gql(document, ...variables));

/** A document assembled at run time (fields found by introspection) in the signed-in session. */
export const queryText: typeof gqlText = (q, variables) => inSession(() => gqlText(q, variables));

/** Shows an error on the connection line; a 401 ends the session. */
export function showError(err: unknown): void {
  if (err instanceof SignedOut) return;
  if (err instanceof ApiError && err.status === 401) return ended('Your session ended; sign in again.');
  $('connection').textContent = `Error: ${err instanceof Error ? err.message : String(err)}`;
}

/**
 * Runs `fn` once after a burst of calls with the same name. A refresh refused because the key's
 * query-cost bucket is short (`throttled`) runs again once it has refilled enough, instead of
 * showing an error: the panels stay live under a busy key.
 */
export function soon(name: string, fn: () => Promise<void>, ms = 120): void {
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
