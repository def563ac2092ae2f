import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isNewMajor, nextMajor, schemaGate, type GateInput } from './schema-gate.js';

// The gate on the repository's own CHANGELOG.md, schema.release.graphql and schema.graphql, and on
// copies of them with a deliberate change. The two command tests run the built CLI (npm test builds).

const ROOT = process.cwd();
const CLI = path.join(ROOT, 'dist/src/cli/cli.js');
const TODAY = '2026-12-01';
let repo: Omit<GateInput, 'today'>;

beforeAll(async () => {
  const [changelog, releaseSchema, currentSchema, pkg] = await Promise.all(
    ['CHANGELOG.md', 'schema.release.graphql', 'schema.graphql', 'package.json'].map((f) =>
      readFile(path.join(ROOT, f), 'utf8'),
    ),
  );
  repo = { changelog, releaseSchema, currentSchema, packageVersion: (JSON.parse(pkg) as { version: string }).version };
});

const gate = (change: Partial<GateInput> = {}) => schemaGate({ ...repo, today: TODAY, ...change });

/** `sdl` with `from` replaced by `to` inside `type Product`. */
function inProduct(sdl: string, from: string, to: string): string {
  const start = sdl.indexOf('type Product implements Node {');
  const end = sdl.indexOf('\n}', start);
  expect(sdl.slice(start, end)).toContain(from);
  return sdl.slice(0, start) + sdl.slice(start, end).replace(from, to) + sdl.slice(end);
}

/** CHANGELOG.md with `section` inserted above the newest release. */
const withSection = (section: string) => repo.changelog.replace('## [0.1.0] - ', `${section}\n\n## [0.1.0] - `);

const TAGLINE_REMOVED = "Field 'tagline' was removed from object type 'Product'";

test('the repository as committed passes: the working schema is release 0.1.0, package.json says 0.1.0', async () => {
  expect(repo.packageVersion).toBe('0.1.0');
  const verdict = await gate();
  expect(verdict.lines.at(-1)).toBe('OK: no breaking change since release 0.1.0.');
  expect(verdict.ok).toBe(true);
});

test('a removed field fails the gate and says what to list under the next major version', async () => {
  const verdict = await gate({ currentSchema: inProduct(repo.currentSchema, '  tagline: String\n', '') });
  expect(verdict.ok).toBe(false);
  expect(verdict.lines).toContain(
    `  - ${TAGLINE_REMOVED} [NOT LISTED under a new major version; not deprecated in 0.1.0]`,
  );
  expect(verdict.lines.slice(verdict.lines.indexOf('FAIL'))).toEqual([
    'FAIL',
    '  * 1 breaking change is not listed in CHANGELOG.md under a new major version.',
    'A breaking change needs a deprecation first (the field stays, `@deprecated` with "… Removal on YYYY-MM-DD."), then lands in a new major',
    'version no earlier than that date, listed in CHANGELOG.md (docs/schema-changes.md):',
    '    ## [0.2.0] - Unreleased',
    '    ### Removed',
    `    - ${TAGLINE_REMOVED}`,
  ]);
});

test('the same removal listed under an unreleased new major version passes', async () => {
  const verdict = await gate({
    currentSchema: inProduct(repo.currentSchema, '  tagline: String\n', ''),
    changelog: withSection(`## [1.0.0] - Unreleased\n\n### Removed\n\n- ${TAGLINE_REMOVED}`),
  });
  expect(verdict.lines).toContain(`  - ${TAGLINE_REMOVED} [listed in [1.0.0] - Unreleased; not deprecated in 0.1.0]`);
  expect(verdict.lines.at(-1)).toBe('OK: every breaking change is listed under [1.0.0] - Unreleased.');
  expect(verdict.ok).toBe(true);
});

test.each([
  ['an unreleased version that is not a new major', `## [0.1.1] - Unreleased\n\n- ${TAGLINE_REMOVED}`],
  ['[Unreleased] without a version', `## [Unreleased]\n\n- ${TAGLINE_REMOVED}`],
  ['a released major version', `## [0.2.0] - 2026-11-30\n\n- ${TAGLINE_REMOVED}`],
])('a removal listed under %s still fails', async (_, section) => {
  const verdict = await gate({
    currentSchema: inProduct(repo.currentSchema, '  tagline: String\n', ''),
    changelog: withSection(section),
    packageVersion: section.includes('2026-11-30') ? '0.2.0' : '0.1.0',
  });
  expect(verdict.ok).toBe(false);
  expect(verdict.lines.join('\n')).toContain('NOT LISTED under a new major version');
});

test('a deprecation with a removal date passes; one without a date fails', async () => {
  const deprecated = (reason: string) =>
    inProduct(repo.currentSchema, '  tagline: String\n', `  tagline: String @deprecated(reason: "${reason}")\n`);
  const dated = await gate({ currentSchema: deprecated('Use description. Removal on 2027-03-01.') });
  expect(dated.lines).toContain("  - Field 'Product.tagline' is deprecated");
  expect(dated.lines.at(-1)).toBe('OK: no breaking change since release 0.1.0.');
  const undated = await gate({ currentSchema: deprecated('Use description.') });
  expect(undated.ok).toBe(false);
  expect(undated.lines).toContain(
    '  * Product.tagline is deprecated without a removal date: end its reason with "Removal on YYYY-MM-DD." (deprecationReason).',
  );
});

test('a deprecated field removed is refused before its removal date even when listed, and passes on that date', async () => {
  const releaseSchema = inProduct(
    repo.releaseSchema,
    '  tagline: String\n',
    '  tagline: String @deprecated(reason: "Use description. Removal on 2027-03-01.")\n',
  );
  const removed = "Field 'tagline' (deprecated) was removed from object type 'Product'";
  const change = {
    releaseSchema,
    currentSchema: inProduct(repo.currentSchema, '  tagline: String\n', ''),
    changelog: withSection(`## [0.2.0] - Unreleased\n\n### Removed\n\n- ${removed}`),
  };
  const early = await gate({ ...change, today: '2027-02-28' });
  expect(early.ok).toBe(false);
  expect(early.lines).toContain(
    `  * ${removed}: Product.tagline is deprecated until 2027-03-01; the change lands no earlier (today is 2027-02-28).`,
  );
  const due = await gate({ ...change, today: '2027-03-01' });
  expect(due.lines).toContain(
    `  - ${removed} [listed in [0.2.0] - Unreleased; deprecated in 0.1.0, removal on 2027-03-01]`,
  );
  expect(due.ok).toBe(true);
});

test('a removal date moved earlier than the release promised fails', async () => {
  const deprecated = (date: string) => (sdl: string) =>
    inProduct(
      sdl,
      '  tagline: String\n',
      `  tagline: String @deprecated(reason: "Use description. Removal on ${date}.")\n`,
    );
  const verdict = await gate({
    releaseSchema: deprecated('2027-03-01')(repo.releaseSchema),
    currentSchema: deprecated('2027-01-01')(repo.currentSchema),
  });
  expect(verdict.lines).toContain(
    "  * Product.tagline's removal date moves earlier, from 2027-03-01 to 2027-01-01: integrators were promised 2027-03-01.",
  );
});

test('release bookkeeping: package.json, schema.release.graphql and a release tag must agree with CHANGELOG.md', async () => {
  const problems = async (change: Partial<GateInput>) => (await gate(change)).lines.filter((l) => l.startsWith('  * '));
  expect(await problems({ packageVersion: '0.2.0' })).toEqual([
    "  * package.json's version is 0.2.0, CHANGELOG.md's newest release is 0.1.0: they are bumped together.",
  ]);
  expect(await problems({ releaseSchema: repo.releaseSchema.replace('# Release 0.1.0', '# Release 0.0.3') })).toEqual([
    "  * schema.release.graphql is release 0.0.3's schema, CHANGELOG.md's newest release is 0.1.0: run `npm run schema:release` on the release commit.",
  ]);
  expect(await problems({ taggedSchema: inProduct(repo.releaseSchema, '  tagline: String\n', '') })).toEqual([
    '  * schema.release.graphql differs from schema.graphql at tag v0.1.0.',
  ]);
  expect(await problems({ taggedSchema: repo.releaseSchema })).toEqual([]);
  expect(
    await problems({ changelog: repo.changelog.replace('## [0.0.2] - 2026-11-23', '## [0.0.2] - Nov 23') }),
  ).toEqual(['  * CHANGELOG.md: a heading the gate does not understand: "## [0.0.2] - Nov 23"']);
});

test('a new major version is one an npm caret range of the last release excludes', () => {
  expect([
    isNewMajor('0.2.0', '0.1.0'),
    isNewMajor('1.0.0', '0.1.0'),
    isNewMajor('0.1.1', '0.1.0'),
    isNewMajor('0.0.4', '0.0.3'),
    isNewMajor('2.0.0', '1.4.2'),
    isNewMajor('1.5.0', '1.4.2'),
  ]).toEqual([true, true, false, true, true, false]);
  expect([nextMajor('0.1.0'), nextMajor('0.0.3'), nextMajor('1.4.2')]).toEqual(['0.2.0', '0.0.4', '2.0.0']);
});

describe('npm run schema:diff (the built command)', () => {
  const run = (cwd: string) => promisify(execFile)(process.execPath, [CLI, 'schema:diff'], { cwd, encoding: 'utf8' });

  test('passes on the repository as committed', async () => {
    const { stdout } = await run(ROOT);
    expect(stdout.trim().split('\n').at(-1)).toBe('OK: no breaking change since release 0.1.0.');
  }, 60_000);

  test('fails, exit code 1, when the schema drops a field the release had', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'schema-gate-'));
    try {
      await writeFile(path.join(dir, 'CHANGELOG.md'), repo.changelog);
      await writeFile(path.join(dir, 'package.json'), JSON.stringify({ version: repo.packageVersion }));
      await writeFile(
        path.join(dir, 'schema.release.graphql'),
        inProduct(repo.releaseSchema, '  tagline: String\n', '  tagline: String\n  legacySku: String\n'),
      );
      const failed = await run(dir).then(
        () => undefined,
        (err: { code: number; stdout: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stdout).toContain(
        "  - Field 'legacySku' was removed from object type 'Product' [NOT LISTED under a new major version; not deprecated in 0.1.0]\n",
      );
      expect(failed?.stdout).toContain(
        'FAIL\n  * 1 breaking change is not listed in CHANGELOG.md under a new major version.\n',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
