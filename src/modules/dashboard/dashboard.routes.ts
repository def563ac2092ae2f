import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bundleAssetRoute } from '../../platform/rest/bundle-assets.js';
import { securePage } from '../../platform/rest/page-headers.js';
import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { renderDashboardPage } from './dashboard-page.js';

/** The page's policy: scripts and styles only from this origin (the bundle, with the page's nonce), API and graphql-ws calls to it, no framing. */
function protect(req: FastifyRequest, reply: FastifyReply, nonce: string): FastifyReply {
  const host = req.headers.host ?? '';
  const csp = [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ws://${host} wss://${host}`,
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return securePage(reply, csp);
}

// Public, and served while the database is down: the page holds no data; its script signs in to
// the console (session cookie, /console/*) and calls /graphql with the session.

/** The console's HTML shell at `url`. */
function shellAt(url: string): PublicRoute {
  return {
    method: 'GET',
    url,
    withoutDatabase: true,
    async handler(req, reply) {
      const nonce = randomBytes(18).toString('base64');
      return protect(req, reply, nonce).type('text/html; charset=utf-8').send(renderDashboardPage({ nonce }));
    },
  };
}

/** `GET /dashboard`: the merchant console; `GET /console/setup?token=…`: the same page, setting an invited member's password. */
const shells = [shellAt('/dashboard'), shellAt('/console/setup')];

/** `GET /dashboard/app.js`, `app.css`: its bundle. */
const asset = bundleAssetRoute('dashboard', {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
});

/** The merchant dashboard's routes. */
export const dashboardRoutes: PublicRoute[] = [...shells, asset];
