import type { FastifyInstance } from 'fastify';

/** The service's icon: a cross on a rounded square (SVG; browsers read it whatever the file name says). */
const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0f766e"/><path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill="#fff"/></svg>';

/**
 * `GET /favicon.ico`: what every browser asks of the hosted pages and the console. Public and
 * served without the database, so the shopper's console never shows a 401 for it.
 */
export function registerFavicon(app: FastifyInstance): void {
  app.get('/favicon.ico', { config: { public: true, withoutDatabase: true }, schema: { hide: true } }, (_req, reply) =>
    reply.header('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(ICON),
  );
}
