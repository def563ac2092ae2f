import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { PublicRoute } from './public-routes.js';

/** Where `npm run build` put bundle `name` (dist/<name>/), whether we run from dist/ or from the sources (tests). */
function bundleDir(name: string, probe: string): string {
  const candidates = [`../../../${name}/`, `../../../dist/${name}/`].map((rel) =>
    fileURLToPath(new URL(rel, import.meta.url)),
  );
  return candidates.find((dir) => existsSync(`${dir}${probe}`)) ?? candidates[0];
}

/**
 * `GET /<name>/:file`: the files of the esbuild bundle dist/<name>/ that `files` lists (file →
 * content type), public and served while the database is down; 404 for any other name.
 */
export function bundleAssetRoute(
  name: string,
  files: Record<string, string>,
): PublicRoute<{ Params: { file: string } }> {
  let dir: string | undefined; // found at the first request
  return {
    method: 'GET',
    url: `/${name}/:file`,
    withoutDatabase: true,
    async handler(req, reply) {
      const type = files[req.params.file];
      if (!type) return reply.code(404).type('text/plain').send('not found');
      const body = await readFile(`${(dir ??= bundleDir(name, Object.keys(files)[0]))}${req.params.file}`).catch(
        () => null,
      );
      if (!body) return reply.code(503).type('text/plain').send(`The ${name} bundle is not built: run npm run build`);
      return reply
        .type(type)
        .header('Cache-Control', 'no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .send(body);
    },
  };
}
