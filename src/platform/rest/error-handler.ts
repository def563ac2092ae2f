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
      return new DomainError('unsupported_media_type', 'Send request bodies as JSON with Content-Type: application/json.');
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
  for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
  reply.code(error.status);
  if (isGraphqlRoute(req)) {
    const { code, param, details } = error.toBody().error;
    return reply.send({ errors: [{ message: error.message, extensions: { code, param, details } }] });
  }
  return reply.send(error.toBody());
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, req, reply) => sendError(req, reply, err));
  app.setNotFoundHandler((req, reply) =>
    sendError(req, reply, new DomainError('route_not_found', `No route ${req.method} ${req.url.split('?')[0]}. See /api/v2/openapi.json.`)),
  );
}
