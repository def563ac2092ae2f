import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { securePage } from '../../platform/rest/page-headers.js';
import { renderDashboardPage } from './dashboard-page.js';

// Public: the page holds no data; its script asks for an API key and calls /graphql with it.
const routeOptions = { config: { public: true, withoutDatabase: true }, schema: { hide: true } };

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

/** `GET /dashboard`: the merchant dashboard (HTML shell), and its bundle under `/dashboard/`. */
export function registerDashboard(http: FastifyInstance): void {
  const dir = bundleDir();
  http.get('/dashboard', routeOptions, async (req, reply) => {
    const nonce = randomBytes(18).toString('base64');
    return protect(req, reply, nonce).type('text/html; charset=utf-8').send(renderDashboardPage({ nonce }));
  });
  http.get<{ Params: { file: string } }>('/dashboard/:file', routeOptions, async (req, reply) => {
    const type = ASSETS[req.params.file];
    if (!type) return reply.code(404).type('text/plain').send('not found');
    const body = await readFile(`${dir}${req.params.file}`).catch(() => null);
    if (!body) return reply.code(503).type('text/plain').send('The dashboard is not built: run npm run build');
    return reply.type(type).header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff').send(body);
  });
}
