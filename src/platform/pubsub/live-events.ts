import type { IncomingMessage } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { createContext, type Authenticator, type Principal } from '../context.js';
import { randomBase62 } from '../db/ids.js';
import type { GraphContext } from '../graphql/context.js';
import { bridgeEvents, EVENTS_CHANNEL, EventPubSub } from './event-pubsub.js';
import { PgListener } from './pg-listener.js';

export interface LiveEvents {
  pubSub: EventPubSub;
  listener: PgListener;
}

/**
 * This process's PostgreSQL LISTEN connection, on `listenUrl` (a direct connection; default the
 * ORM's): committed events go to the local GraphQL subscribers, every notification on
 * `hintChannels` calls `onHint` (prompt work after a commit, e.g. webhook delivery), `channels`
 * get their own handlers and `onMissed` runs whenever notifications may have been missed (every
 * (re)connection, and every half second while the listener does not hear: see `PgListener`), as
 * do the event tail and the `events` hint. Closed with the HTTP server.
 */
export async function startLiveEvents(
  http: FastifyInstance,
  orm: MikroORM,
  opts: {
    listenUrl?: string;
    hintChannels?: string[];
    onHint?: (channel: string) => void;
    channels?: Record<string, (payload: string) => void>;
    onMissed?: () => void;
  } = {},
): Promise<LiveEvents> {
  // The probe notification goes the way every other one does: through the request pool.
  const notify = (channel: string, payload: string) =>
    orm.em.getConnection().execute('select pg_notify(?, ?)', [channel, payload]);
  const listener = new PgListener(opts.listenUrl ?? orm.config.get('clientUrl'), http.log, { notify });
  const pubSub = new EventPubSub();
  const stopBridge = bridgeEvents(listener, pubSub, orm, http.log);
  for (const channel of opts.hintChannels ?? []) listener.on(channel, () => opts.onHint?.(channel));
  for (const [channel, handler] of Object.entries(opts.channels ?? {})) listener.on(channel, handler);
  if (opts.onMissed) listener.onMissed(opts.onMissed);
  // New events may have been missed: each hint that says so (`events`) is given once more.
  if (opts.hintChannels?.includes(EVENTS_CHANNEL)) listener.onMissed(() => opts.onHint?.(EVENTS_CHANNEL));
  await listener.start();
  http.addHook('onClose', async () => {
    stopBridge();
    await listener.close();
  });
  return { pubSub, listener };
}

/**
 * Authenticates a websocket without an API key by a signed-in session: its upgrade request's
 * cookie and the CSRF token in `connectionParams.csrfToken` (the team module provides it); null
 * when it carries none.
 */
export type WsSessionAuthenticator = (
  request: IncomingMessage,
  params: Record<string, unknown>,
) => Promise<Principal | null>;

/** Close code for a connection without a valid API key (graphql-ws's Unauthorized). */
export const WS_UNAUTHORIZED = 4401;

/**
 * graphql-ws on `ws://HOST/graphql` (the HTTP GET/POST route is untouched). The connection
 * authenticates once with `connectionParams.authorization` (`Bearer glm_…`) or, without one, a
 * console session (`sessionAuth`); a missing or bad key is closed with 4401. Each operation gets its own service context (a fresh EntityManager
 * fork) for that merchant and mode.
 */
export function registerGraphqlWs(
  http: FastifyInstance,
  schema: GraphQLSchema,
  orm: MikroORM,
  authenticate: Authenticator,
  sessionAuth?: WsSessionAuthenticator,
): void {
  const wss = new WebSocketServer({ server: http.server, path: '/graphql' });
  const server = useServer<Record<string, unknown> | undefined, { principal: Principal }>(
    {
      schema,
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const authorization = params.authorization ?? params.Authorization;
        try {
          const bySession =
            authorization === undefined && sessionAuth ? await sessionAuth(ctx.extra.request, params) : null;
          ctx.extra.principal =
            bySession ?? (await authenticate(orm.em, typeof authorization === 'string' ? authorization : undefined));
          return true;
        } catch {
          ctx.extra.socket.close(WS_UNAUTHORIZED, 'Unauthorized');
          return false;
        }
      },
      context: (ctx): GraphContext => {
        const principal = ctx.extra.principal!;
        const requestId = `ws_${randomBase62(20)}`;
        return {
          ctx: createContext(
            orm.em,
            principal,
            requestId,
            http.log.child({ request_id: requestId, merchant: principal.merchantId, livemode: principal.livemode }),
          ),
        };
      },
    },
    wss,
  );
  http.addHook('preClose', async () => {
    await server.dispose();
  });
}
