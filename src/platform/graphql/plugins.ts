import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';

type Listener<T extends BaseContext> = GraphQLRequestListener<T>;
/** A request hook as the combined listener calls it: one request context in, a promise out. */
type Hook = (requestContext: unknown) => Promise<unknown>;

/** The request hooks a combined listener forwards (the ones that return nothing; Apollo runs them all alike). */
const FORWARDED = [
  'didResolveSource',
  'parsingDidStart',
  'validationDidStart',
  'didResolveOperation',
  'didEncounterErrors',
  'willSendResponse',
] as const;

function combinedListener<T extends BaseContext>(listeners: Listener<T>[]): Listener<T> | undefined {
  if (listeners.length <= 1) return listeners[0];
  const combined: Record<string, Hook> = {};
  for (const name of FORWARDED) {
    const hooks = listeners.flatMap((l): Hook[] => {
      const hook = (l as Record<string, Hook | undefined>)[name];
      return hook ? [(requestContext) => hook.call(l, requestContext)] : [];
    });
    // Started in order, as Apollo starts them; one promise for all of them.
    if (hooks.length === 1) combined[name] = hooks[0];
    else if (hooks.length) combined[name] = (requestContext) => Promise.all(hooks.map((h) => h(requestContext)));
  }
  return combined;
}

/**
 * Our request plugins as one, for Apollo: it awaits every hook of every plugin at each of the
 * ~7 stages of a request (a `Promise.all` over the listeners, defined hooks or not), so five
 * plugins cost five times the promises of one. The combined listener calls each plugin's hooks in
 * the order given, as Apollo would, and answers one promise per stage. Plugins with only
 * `requestDidStart` and the request hooks above are combined; any other (Apollo's internal ones,
 * those with server hooks, `executionDidStart` or `responseForOperation`) is passed on unchanged.
 */
export function combineRequestPlugins<T extends BaseContext>(
  plugins: ApolloServerPlugin<T>[],
): ApolloServerPlugin<T>[] {
  const combinable = (p: ApolloServerPlugin<T>) =>
    Object.keys(p).every((k) => k === 'requestDidStart') && p.requestDidStart !== undefined;
  const requestPlugins = plugins.filter(combinable);
  if (requestPlugins.length <= 1) return plugins;
  const starts = requestPlugins.map((p) => p.requestDidStart!.bind(p));
  const merged: ApolloServerPlugin<T> = {
    async requestDidStart(requestContext) {
      const listeners = (await Promise.all(starts.map((start) => start(requestContext)))).filter(
        (l): l is Listener<T> => l !== undefined && l !== null,
      );
      for (const l of listeners) {
        const extra = Object.keys(l).find((k) => !(FORWARDED as readonly string[]).includes(k));
        if (extra) throw new Error(`combineRequestPlugins: a request listener has ${extra}, which it does not forward`);
      }
      return combinedListener(listeners);
    },
  };
  return [...plugins.filter((p) => !combinable(p)), merged];
}
