import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, toDomainError } from '../errors.js';

/** Fastify's own request errors (bad JSON, too large, wrong content type) in our vocabulary. */
function fromFastify(err: FastifyError): DomainError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new DomainError('invalid_request', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError('payload_too_large', 'The request body is larger than 1 MB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError(
        'unsupported_media_type',
        'Send request bodies as JSON with Content-Type: application/json.',
      );
    case 'FST_ERR_BAD_URL':
      return new DomainError('invalid_request', 'The URL is not validly percent-encoded.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new DomainError('not_found', 'No such object: the id is longer than any id of this API.');
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new DomainError('invalid_request', 'The request could not be routed.');
    default:
      if (err instanceof SyntaxError) return new DomainError('invalid_request', 'The request body is not valid JSON.');
      return null;
  }
}

/** GraphQL clients expect `errors`; everything else gets the spec's error body. */
function isGraphqlRoute(req: FastifyRequest): boolean {
  return req.url.split('?')[0] === '/graphql';
}

/** Sends `err` in the spec's error shape; unexpected errors are logged and masked (no stack, no SQL). */
export function sendError(req: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const known = err && typeof err === 'object' && 'code' in err ? fromFastify(err as FastifyError) : null;
  const { error, unexpected } = known ? { error: known, unexpected: false } : toDomainError(err);
  if (unexpected) req.log.error({ err }, 'unhandled error');
  else if (error.code === 'service_unavailable' && !(err instanceof DomainError))
    req.log.warn({ err }, 'database unreachable');
  // Also set here: errors the router raises (frameworkErrors) skip the onSend hooks.
  reply.header('X-Request-Id', req.id);
  for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
  reply.code(error.status);
  if (isGraphqlRoute(req)) {
    const { code, param, details } = error.toBody().error;
    return reply.send({ errors: [{ message: error.message, extensions: { code, param, details } }] });
  }
  return reply.send(error.toBody());
}

/** Fastify's `frameworkErrors`: router errors (bad percent-encoding, over-long ids) in the same shape. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  sendError(req, reply, err);
}

/**
 * Fastify's `clientErrorHandler`: requests node's HTTP parser refuses (headers or URL too large,
 * malformed HTTP, timeouts) never reach a route; they still get the error shape and a request id.
 */
export function clientErrorHandler(genReqId: () => string) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const error =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new DomainError('headers_too_large', 'The URL and headers together exceed 16 KB.')
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new DomainError('request_timeout', 'The request was not received in time.')
          : new DomainError('invalid_request', 'The request is not valid HTTP.');
    const body = JSON.stringify(error.toBody());
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${genReqId()}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered so far (method and URL pattern), HEAD and OPTIONS aside. */
    registeredRoutes: () => { method: string; url: string }[];
  }
}

/** Route patterns with their methods, to tell an unknown path (404) from a wrong method (405). */
function routeTable(app: FastifyInstance) {
  const routes: { url: string; pattern: RegExp; methods: Set<string> }[] = [];
  app.decorate('registeredRoutes', () =>
    routes.flatMap((r) => [...r.methods].map((method) => ({ method, url: r.url }))),
  );
  app.addHook('onRoute', (route) => {
    const pattern = new RegExp(
      `^${route.url
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:[^/]+/g, '[^/]+')
        .replace(/\*/g, '.*')}$`,
    );
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(
      (m) => m !== 'HEAD' && m !== 'OPTIONS',
    );
    const known = routes.find((r) => r.pattern.source === pattern.source);
    if (known) methods.forEach((m) => known.methods.add(m));
    else routes.push({ url: route.url, pattern, methods: new Set(methods) });
  });
  return (path: string): string[] =>
    [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => [...r.methods]))].sort();
}

export function registerErrorHandling(app: FastifyInstance): void {
  const allowedMethods = routeTable(app);
  app.setErrorHandler((err, req, reply) => sendError(req, reply, err));
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = allowedMethods(path);
    if (allowed.length && !allowed.includes(req.method)) {
      return sendError(
        req,
        reply,
        new DomainError('method_not_allowed', `${req.method} is not allowed here; use ${allowed.join(' or ')}.`, {
          headers: { Allow: allowed.join(', ') },
        }),
      );
    }
    const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    return sendError(
      req,
      reply,
      new DomainError('route_not_found', `No route ${req.method} ${shown}. See /api/v2/openapi.json.`),
    );
  });
}
