import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PageAuthorizer, ServiceContext } from '../context.js';
import { DomainError } from '../errors.js';
import { requestFingerprint, runIdempotent } from '../idempotency/idempotency.service.js';
import { permission, requirePermission, type Access } from '../permissions.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One REST operation: its documentation schemas and a handler that calls one service method. */
export interface RouteSpec {
  method: Method;
  url: string;
  operationId: string;
  summary: string;
  tags: string[];
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** Request content types other than JSON (e.g. `text/csv`: the body is then the text). */
  consumes?: string[];
  /** Response body schema of the success status (documentation). */
  response?: z.ZodType;
  /** Success status (200 unless given). */
  status?: number;
  /** State-changing routes honour Idempotency-Key unless this is false (test clock). */
  idempotent?: boolean;
  /**
   * The handler runs its own short transactions because it calls the payment processor (which
   * must never wait inside one): an idempotent call stores its response after the work commits.
   */
  ownTransactions?: boolean;
  /** Also authorised by a hosted page's capability instead of an API key (see `PageAuthorizer`). */
  pageAuth?: PageAuthorizer;
  /** The resource whose permission the caller needs (set per table by `guardedBy`). */
  resource?: string;
  /** `read` or `write` permission of `resource`: `read` for GET, `write` otherwise unless given (a POST that only reads). */
  access?: Access;
  handler: (ctx: ServiceContext, req: FastifyRequest) => Promise<unknown>;
}

/** A handler's answer with a status of its own (e.g. a declined payment that still records a failed order). */
export class HttpResult {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx?: ServiceContext;
  }
}

/** The authenticated context of `req` (set by the auth hook). */
export function contextOf(req: FastifyRequest): ServiceContext {
  if (!req.ctx) throw new DomainError('unauthorized', 'Missing or invalid API key.');
  return req.ctx;
}

/** `routes` guarded by `resource`'s permissions (a route that names its own resource keeps it). */
export function guardedBy(resource: string, routes: RouteSpec[]): RouteSpec[] {
  return routes.map((route) => ({ ...route, resource: route.resource ?? resource }));
}

/**
 * Registers REST routes. Schemas feed the OpenAPI document; input is validated by the service
 * (the one definition shared with GraphQL). Every state-changing call honours `Idempotency-Key`.
 */
export function registerRoutes(app: FastifyInstance, routes: RouteSpec[]): void {
  for (const route of routes) {
    const status = route.status ?? 200;
    const required =
      route.resource && permission(route.resource, route.access ?? (route.method === 'GET' ? 'read' : 'write'));
    app.route({
      method: route.method,
      url: route.url,
      ...(route.pageAuth && { config: { pageAuth: route.pageAuth } }),
      schema: {
        operationId: route.operationId,
        summary: route.summary,
        tags: route.tags,
        ...(route.params && { params: route.params }),
        ...(route.querystring && { querystring: route.querystring }),
        ...(route.body && { body: route.body }),
        ...(route.consumes && { consumes: route.consumes }),
        ...(route.method !== 'GET' && route.idempotent !== false && { headers: idempotencyHeader }),
        security: [{ bearerAuth: [] }],
        response: {
          ...(route.response && { [status]: route.response }),
          '4XX': errorResponse,
        },
      },
      // Not async: a read answers with the handler's own promise and one `then`, no further promise per layer.
      handler: (req: FastifyRequest, reply: FastifyReply) => {
        const ctx = contextOf(req);
        if (required) requirePermission(ctx.principal, required);
        if (route.method === 'GET' || route.idempotent === false) {
          return route
            .handler(ctx, req)
            .then((out) =>
              out instanceof HttpResult ? reply.code(out.status).send(out.body) : reply.code(status).send(out),
            );
        }
        return sendIdempotent(route, status, ctx, req, reply);
      },
    });
  }
}

/** Runs a state-changing route under its `Idempotency-Key` (a replay answers the stored response). */
async function sendIdempotent(
  route: RouteSpec,
  status: number,
  ctx: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const key = req.headers['idempotency-key'];
  const result = await runIdempotent(
    ctx,
    Array.isArray(key) ? key[0] : key,
    () => requestFingerprint(route.method, req.url, req.body),
    async (c) => {
      const out = await route.handler(c, req);
      return out instanceof HttpResult
        ? { status: out.status, body: JSON.stringify(out.body ?? null) }
        : { status, body: JSON.stringify(out ?? null) };
    },
    { transactional: !route.ownTransactions },
  );
  if (result.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.code(result.status).type('application/json; charset=utf-8').send(result.body);
}

// Shared documentation schemas (zod, like every route schema, for the OpenAPI transform).
const idempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .max(255)
    .optional()
    .describe('Replays the first response for 24 hours; use a UUID v4 per operation.'),
});

const errorResponse = z
  .object({
    error: z.object({
      code: z.string().describe('Spec error code, e.g. validation_error, not_found, rate_limit_exceeded'),
      message: z.string(),
      param: z.string().optional().describe('The offending parameter'),
      details: z
        .union([z.array(z.object({ field: z.string(), message: z.string() })), z.record(z.string(), z.unknown())])
        .optional()
        .describe('One entry per bad field, or amounts for amount errors'),
    }),
  })
  .meta({ id: 'Error' });
