import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { LogFn } from 'pino';

/** The logging a service needs (pino's methods; the request logger carries the request id). */
export interface Log {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  debug: LogFn;
}

/** Who is calling: a merchant in one mode. */
export interface Principal {
  merchantId: string;
  livemode: boolean;
  /** Offset of the merchant's test clock (0 in live mode). */
  clockOffsetMs: number;
  /** Stable id of the API key used, for rate limiting and logs. */
  keyId: string;
  /**
   * The `resource:read|write` permissions the caller holds (a restricted key's scopes, a console
   * user's role); undefined: every permission of the API (a secret key, the system, a hosted page).
   * Checked by `requirePermission` (src/platform/permissions.ts).
   */
  permissions?: ReadonlySet<string>;
  /** Who acts, for the audit log: an API key or a signed-in console user (undefined: the system), its name then, and the address of the request. */
  actor?: { kind: 'key' | 'user'; id: string; label?: string; ip?: string };
  /** A request limit of its own instead of the per-key one (a hosted page's token: payment attempts per page and network). */
  rateLimit?: { max: number; windowMs: number; message(max: number, waitSeconds: number): string };
}

/**
 * Authorises a request by a hosted page's capability instead of an API key (a checkout page's
 * `?token=`), for the one resource its URL names; null when the request carries none. A
 * capability that does not match throws (404 `not_found`, as an unknown id).
 */
export type PageAuthorizer = (
  em: EntityManager,
  request: { params: unknown; query: unknown; ip: string },
) => Promise<Principal | null>;

/**
 * Resolves `Authorization: Bearer <key>` to the caller or throws 401 `unauthorized`: the
 * principal itself when it is at hand (a cached key), else a promise of it. The merchants module
 * provides it; the REST hook and graphql-ws are given it when the app is wired.
 */
export type Authenticator = (em: EntityManager, authorization: string | undefined) => Principal | Promise<Principal>;

/**
 * Passed first to every service method: the forked EntityManager of this unit of work, the
 * caller, the clock and the request id. Built per request, websocket operation or job.
 */
export interface ServiceContext {
  em: EntityManager;
  /**
   * The EntityManager this context forks from: read models borrow connections of its pool
   * (`queryRows`) without forking an identity map. Never used for entities.
   */
  readonly base: EntityManager;
  principal: Principal;
  requestId: string;
  log: Log;
  /** Current time as the caller's mode sees it (the test clock in test mode). */
  now: () => Date;
  /** Per-request memo for DataLoaders (see `<x>.loaders.ts`). */
  loaders: Map<string, unknown>;
}

/**
 * Builds a context for `principal` on a fork of `em`, made when first used (a hot read that runs
 * one statement on the pg driver never needs an identity map).
 */
export function createContext(em: EntityManager, principal: Principal, requestId: string, log: Log): ServiceContext {
  let forked: EntityManager | undefined;
  return {
    get em() {
      return (forked ??= em.fork());
    },
    set em(value: EntityManager) {
      forked = value;
    },
    base: em,
    principal,
    requestId,
    log,
    now: () => new Date(Date.now() + principal.clockOffsetMs),
    loaders: new Map(),
  };
}

/** A child of `parent` with `bindings`, made when something is first logged (most requests log nothing; a pino child serialises and redacts its bindings). */
export function lazyChildLog(
  parent: { child(bindings: Record<string, unknown>): Log },
  bindings: Record<string, unknown>,
): Log {
  let child: Log | undefined;
  const get = () => (child ??= parent.child(bindings));
  const forward =
    (level: keyof Log): LogFn =>
    (...args: Parameters<LogFn>) =>
      get()[level](...args);
  return { info: forward('info'), warn: forward('warn'), error: forward('error'), debug: forward('debug') };
}

/** The ownership filter every merchant-scoped query starts from. */
export function scope(ctx: ServiceContext): { merchant: string; livemode: boolean } {
  return { merchant: ctx.principal.merchantId, livemode: ctx.principal.livemode };
}

/**
 * A context for background work on behalf of a merchant and mode (sweeps, hosted pages), on a
 * fork of `em` made when first used; `withEm` puts it on a transaction or fork the caller holds.
 */
export function systemContext(
  em: EntityManager,
  merchantId: string,
  livemode: boolean,
  clockOffsetMs: number,
  log: Log,
  requestId = `job_${Date.now().toString(36)}`,
): ServiceContext {
  return createContext(
    em,
    { merchantId, livemode, clockOffsetMs: livemode ? 0 : clockOffsetMs, keyId: 'system' },
    requestId,
    log,
  );
}

/**
 * The one way to run `ctx` on another EntityManager (a transaction's, or a fork): the same caller,
 * clock, log and loaders on `em`. It never reads `ctx.em`, so a context whose fork was not made
 * yet (see `createContext`) does not make one only to drop it, as spreading `{ ...ctx, em }` would.
 */
export function withEm(ctx: ServiceContext, em: EntityManager, requestId = ctx.requestId): ServiceContext {
  return { em, base: ctx.base, principal: ctx.principal, requestId, log: ctx.log, now: ctx.now, loaders: ctx.loaders };
}

/**
 * Set while a unit of work runs inside a transaction it did not open itself (an idempotent
 * request's): code that must never run inside one (a payment processor call) checks it.
 */
export const insideTransaction = new AsyncLocalStorage<true>();
