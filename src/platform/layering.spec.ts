import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The platform is the ground floor: modules register their entities and the authenticator into
// it, and it never imports a domain module (directly, or through the top-level ORM config).
const platformDir = path.resolve('src/platform');
const files = (readdirSync(platformDir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => path.join(platformDir, f));
const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/g)].map((m) => m[1]);

test('the platform finds its files', () => {
  expect(files.length).toBeGreaterThan(30);
  expect(importsOf(path.join(platformDir, 'rest/routes.ts'))).toContain('../context.js');
});

test.each(files.map((f) => [path.relative(platformDir, f), f]))('%s imports no domain module', (_name, file) => {
  const reaching = importsOf(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.resolve(path.dirname(file), spec))
    .filter((target) => !target.startsWith(platformDir + path.sep) && !target.includes(`${path.sep}node_modules${path.sep}`));
  expect(reaching.filter((t) => t.includes(`${path.sep}modules${path.sep}`) || t.endsWith('mikro-orm.config.js'))).toEqual([]);
});
