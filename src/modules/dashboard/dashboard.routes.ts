import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { securePage } from '../../platform/rest/page-headers.js';
import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { renderDashboardPage } from './dashboard-page.js';

/** Where `npm run build` put the bundle (dist/dashboard), whether we run from dist/ or from the sources (tests). */
function bundleDir(): string {
  const candidates = ['../../../dashboard/', '../../../dist/dashboard/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return candidates.find((dir) => existsSync(`${dir}app.js`)) ?? candidates[0];
}

const ASSETS: Record<string, string> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' };

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

// Public, and served while the database is down: the page holds no data; its script asks for an
// API key and calls /graphql with it.

/** `GET /dashboard`: the merchant dashboard (HTML shell). */
const shell: PublicRoute = {
  method: 'GET',
  url: '/dashboard',
  withoutDatabase: true,
  async handler(req, reply) {
    const nonce = randomBytes(18).toString('base64');
    return protect(req, reply, nonce).type('text/html; charset=utf-8').send(renderDashboardPage({ nonce }));
  },
};

let bundle: string | undefined; // found at the first asset request

/** `GET /dashboard/app.js`, `app.css`: its bundle. */
const asset: PublicRoute<{ Params: { file: string } }> = {
  method: 'GET',
  url: '/dashboard/:file',
  withoutDatabase: true,
  async handler(req, reply) {
    const type = ASSETS[req.params.file];
    if (!type) return reply.code(404).type('text/plain').send('not found');
    const body = await readFile(`${(bundle ??= bundleDir())}${req.params.file}`).catch(() => null);
    if (!body) return reply.code(503).type('text/plain').send('The dashboard is not built: run npm run build');
    return reply.type(type).header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff').send(body);
  },
};

/** The merchant dashboard's routes. */
export const dashboardRoutes: PublicRoute[] = [shell, asset];
