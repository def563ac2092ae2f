import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The platform is the ground floor: modules register their entities and the authenticator into
// it, and it never imports a domain module (directly, or through the top-level ORM config).
const platformDir = path.resolve('src/platform');
const files = (readdirSync(platformDir, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => path.join(platformDir, f));
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/g)].map((m) => m[1]);

test('the platform finds its files', () => {
  expect(files.length).toBeGreaterThan(30);
  expect(importsOf(path.join(platformDir, 'rest/routes.ts'))).toContain('../context.js');
});

test.each(files.map((f) => [path.relative(platformDir, f), f]))('%s imports no domain module', (_name, file) => {
  const reaching = importsOf(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.resolve(path.dirname(file), spec))
    .filter(
      (target) => !target.startsWith(platformDir + path.sep) && !target.includes(`${path.sep}node_modules${path.sep}`),
    );
  expect(
    reaching.filter((t) => t.includes(`${path.sep}modules${path.sep}`) || t.endsWith('mikro-orm.config.js')),
  ).toEqual([]);
});

// Arrows between domain modules point one way: folded to one node per module, the import graph
// (dependency-cruiser's) has no two modules importing each other, directly or around a circle.
test('no two domain modules import each other', async () => {
  const { cruise } = await import('dependency-cruiser');
  const result = await cruise(
    ['src/modules'],
    {
      collapse: '^src/modules/[^/]+',
      includeOnly: '^src/modules/',
      tsPreCompilationDeps: true,
      exclude: { path: '\\.spec\\.ts$' },
    },
    { extensions: ['.ts', '.js'] },
    { tsConfig: { fileName: 'tsconfig.json' } },
  );
  const output = result.output as { modules: { source: string; dependencies: { resolved: string }[] }[] };
  const arrows = new Map(
    output.modules.map((m) => [m.source, new Set(m.dependencies.map((d) => d.resolved).filter((r) => r !== m.source))]),
  );
  const circles: string[] = [];
  const visit = (start: string, at: string, trail: string[]) => {
    for (const next of arrows.get(at) ?? []) {
      if (next === start) circles.push([...trail, next].join(' → '));
      else if (!trail.includes(next) && next > start) visit(start, next, [...trail, next]);
    }
  };
  for (const module of arrows.keys()) visit(module, module, [module]);
  expect(arrows.size).toBeGreaterThan(8);
  expect(circles).toEqual([]);
}, 60_000);
