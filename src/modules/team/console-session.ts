import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifySession from '@fastify/session';
import fastifyPlugin from 'fastify-plugin';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../platform/errors.js';
import type { WsSessionAuthenticator } from '../../platform/pubsub/live-events.js';
import type { SessionAuthenticator } from '../../platform/rest/auth.js';
import { sessionPrincipal } from './console-sign-in.js';
import { runStatement } from '../../platform/db/sql.js';

declare module 'fastify' {
  interface Session {
    /** The signed-in team member. */
    memberId?: string;
    /** A member whose password was right, between it and the second factor. */
    pendingMemberId?: string;
    pendingSince?: number;
    /** The mode the console shows (test unless switched). */
    livemode?: boolean;
  }
}

export const SESSION_COOKIE = 'glm_console';
/** A console session ends after 12 hours without a request. */
export const SESSION_IDLE_MS = 12 * 3_600_000;

/** @fastify/session's store on PostgreSQL (`console_sessions`): every API process sees every session; signing out ends it everywhere. */
function postgresSessionStore(orm: MikroORM): fastifySession.SessionStore {
  return {
    get(sid, callback) {
      runStatement<{ data: Record<string, unknown> }>(
        orm.em,
        'select data from console_sessions where sid = ? and expires_at > now()',
        [sid],
        { autocommit: true },
      ).then(([row]) => callback(null, (row?.data ?? null) as never), callback);
    },
    set(sid, session, callback) {
      const expires = session.cookie.expires
        ? new Date(session.cookie.expires)
        : new Date(Date.now() + SESSION_IDLE_MS);
      // A rolling save of a request that changed nothing only moves the expiry: writing its copy
      // back would undo what a concurrent request of the same session changed (the mode switch).
      if ((session as unknown as { isModified?: () => boolean }).isModified?.() === false) {
        runStatement(
          orm.em,
          `update console_sessions set expires_at = ?, data = jsonb_set(data, '{cookie,expires}', to_jsonb(?::text)) where sid = ?`,
          [expires, expires.toISOString(), sid],
          { autocommit: true },
        ).then(() => callback(), callback);
        return;
      }
      runStatement(
        orm.em,
        'insert into console_sessions (sid, data, expires_at) values (?, ?::jsonb, ?) on conflict (sid) do update set data = excluded.data, expires_at = excluded.expires_at',
        [sid, JSON.stringify(session), expires],
        { autocommit: true },
      ).then(() => callback(), callback);
    },
    destroy(sid, callback) {
      runStatement(orm.em, 'delete from console_sessions where sid = ?', [sid], { autocommit: true }).then(
        () => callback(),
        callback,
      );
    },
  };
}

/** The secret that signs session cookies, made once per database so every process shares it. */
async function sessionSecret(orm: MikroORM): Promise<string> {
  await runStatement(
    orm.em,
    `insert into service_secrets (name, value) values ('console_session', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')) on conflict (name) do nothing`,
    [],
    { autocommit: true },
  );
  const [row] = await runStatement<{ value: string }>(
    orm.em,
    `select value from service_secrets where name = 'console_session'`,
    [],
    { autocommit: true },
  );
  return row.value;
}

/**
 * Console sessions: an `HttpOnly`, `SameSite=Lax` cookie (`Secure` over HTTPS, behind a proxy
 * too with TRUST_PROXY), the session in PostgreSQL, rolled on every request and ended after 12
 * hours idle; a CSRF token (`x-csrf-token`) on every state-changing request it authenticates.
 */
export async function registerConsoleSessions(http: FastifyInstance, orm: MikroORM): Promise<void> {
  await http.register(fastifyCookie);
  const options: fastifySession.FastifySessionOptions = {
    secret: await sessionSecret(orm),
    cookieName: SESSION_COOKIE,
    store: postgresSessionStore(orm),
    saveUninitialized: false,
    rolling: true,
    cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: SESSION_IDLE_MS },
  };
  await http.register(
    fastifyPlugin((instance: FastifyInstance, _opts: unknown, done: (err?: Error) => void) =>
      fastifySession(onlyForConsoleRequests(instance), options, done),
    ),
  );
  await http.register(fastifyCsrf, { sessionPlugin: '@fastify/session' });
}

/** A request that goes to a console page or carries the console's cookie; API-key traffic is neither. */
const meetsTheSession = (req: FastifyRequest) =>
  req.url.startsWith('/console') || req.cookies[SESSION_COOKIE] !== undefined;

/**
 * The instance @fastify/session registers on, with its `onRequest` hook run only for requests
 * that meet the session: without it every API request would build (and hash twice) an empty
 * session it never saves. Elsewhere `req.session` stays null.
 */
function onlyForConsoleRequests(instance: FastifyInstance): FastifyInstance {
  return new Proxy(instance, {
    get(target, prop) {
      if (prop !== 'addHook') return Reflect.get(target, prop, target) as unknown;
      return (name: string, hook: (req: FastifyRequest, reply: FastifyReply, done: () => void) => void) =>
        target.addHook(
          name as 'onRequest',
          name === 'onRequest'
            ? (req, reply, done) => (meetsTheSession(req) ? hook(req, reply, done) : done())
            : (hook as never),
        );
    },
  });
}

/** Throws 403 `invalid_csrf_token` unless the request carries the session's CSRF token (`x-csrf-token`). */
export function requireCsrf(req: FastifyRequest): void {
  let sent = false;
  const probe = {
    send: () => {
      sent = true;
      return probe;
    },
  };
  let passed = false;
  req.server.csrfProtection(req, probe as unknown as FastifyReply, () => {
    passed = true;
  });
  if (sent || !passed)
    throw new DomainError(
      'invalid_csrf_token',
      'Missing or invalid CSRF token: send the x-csrf-token header the console session gave you (GET /console/session).',
    );
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The console session of a websocket (the live dashboard): the session cookie of its upgrade
 * request, and the session's CSRF token in `connectionParams.csrfToken` (a page of another site
 * cannot read it), else null.
 */
export function consoleWsSessionAuth(http: FastifyInstance, orm: MikroORM): WsSessionAuthenticator {
  return async (request, params) => {
    const cookie = request.headers.cookie && http.parseCookie(request.headers.cookie)[SESSION_COOKIE];
    if (!cookie) return null;
    const holder: {
      session?: FastifyRequest['session'];
      headers: Record<string, unknown>;
      log: FastifyRequest['log'];
      server: FastifyInstance;
    } = {
      headers: { 'x-csrf-token': typeof params.csrfToken === 'string' ? params.csrfToken : undefined },
      log: http.log,
      server: http,
    };
    await new Promise<void>((resolve, reject) =>
      http.decryptSession(cookie, holder, (err?: unknown) =>
        err ? reject(err instanceof Error ? err : new Error('the session could not be read')) : resolve(),
      ),
    );
    const memberId = holder.session?.memberId;
    if (!memberId) return null;
    requireCsrf(holder as unknown as FastifyRequest);
    const found = await sessionPrincipal(orm.em.fork(), memberId, holder.session?.livemode === true);
    return found?.principal ?? null;
  };
}

/** The console session as the API's caller (a request without Authorization): the member's role is its permissions. */
export const consoleSessionAuth: SessionAuthenticator = async (em, req) => {
  const memberId = req.session?.memberId;
  if (!memberId) return null;
  if (!SAFE_METHODS.has(req.method)) requireCsrf(req);
  const found = await sessionPrincipal(em.fork(), memberId, req.session.livemode === true);
  return found?.principal ?? null;
};
