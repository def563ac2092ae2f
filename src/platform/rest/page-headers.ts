import type { FastifyReply } from 'fastify';

/** Headers of every HTML page the service serves: its CSP, no framing, no referrer, no caching, no sniffing. */
export function securePage(reply: FastifyReply, csp: string): FastifyReply {
  return reply
    .header('Content-Security-Policy', csp)
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff');
}
