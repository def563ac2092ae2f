import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema as buildFromSdl } from 'graphql';
import { resolvers } from '../modules/index.js';
import { buildGraphSchema, printGraphSchema } from '../platform/graphql/schema.js';
import {
  CHANGELOG_FILE,
  changelogSections,
  changeLists,
  newestRelease,
  RELEASE_SCHEMA_FILE,
  schemaGate,
} from './schema-gate.js';

const SCHEMA_FILE = 'schema.graphql';

async function currentSdl(): Promise<string> {
  return printGraphSchema(await buildGraphSchema(resolvers));
}

/** Writes schema.graphql from the resolvers. */
export async function schemaEmit(): Promise<number> {
  await writeFile(SCHEMA_FILE, await currentSdl());
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
  return 0;
}

/** Fails when the committed schema.graphql differs from what the resolvers emit. */
export async function schemaCheck(): Promise<number> {
  const [committed, built] = await Promise.all([readFile(SCHEMA_FILE, 'utf8').catch(() => ''), currentSdl()]);
  if (committed === built) {
    process.stdout.write(`${SCHEMA_FILE} is up to date\n`);
    return 0;
  }
  const changes = await diff(buildFromSdl(committed || 'type Query { _empty: String }'), buildFromSdl(built));
  process.stderr.write(`${SCHEMA_FILE} is stale: run \`npm run schema:emit\` and commit it.\n`);
  for (const c of changes) process.stderr.write(`  ${c.criticality.level}: ${c.message}\n`);
  return 1;
}

export interface SchemaChanges {
  breaking: string[];
  dangerous: string[];
  safe: string[];
}

/** Classifies the changes from SDL `before` to SDL `after` (graphql-inspector's criticality). */
export async function schemaChanges(before: string, after: string): Promise<SchemaChanges> {
  const changes = await diff(buildFromSdl(before), buildFromSdl(after));
  const pick = (level: CriticalityLevel) =>
    changes
      .filter((c) => c.criticality.level === level)
      .map((c) => `${c.message}${c.criticality.reason ? ` (${c.criticality.reason})` : ''}`);
  return {
    breaking: pick(CriticalityLevel.Breaking),
    dangerous: pick(CriticalityLevel.Dangerous),
    safe: pick(CriticalityLevel.NonBreaking),
  };
}

/**
 * Without `ref`, the gate CI runs: the working schema against the newest release's
 * (schema.release.graphql), failing on a breaking change CHANGELOG.md does not list under a new major
 * version (schema-gate.ts, docs/schema-changes.md). With a git `ref`, lists breaking, dangerous and
 * safe changes from the schema.graphql at `ref`; exits 1 on a breaking change when
 * `--fail-on-breaking` is given.
 */
export async function schemaDiff(
  ref: string | undefined,
  failOnBreaking = process.argv.includes('--fail-on-breaking'),
): Promise<number> {
  if (!ref) return schemaGateCommand();
  if (ref.startsWith('--')) throw new Error('usage: npm run schema:diff [-- REF [--fail-on-breaking]]');
  const old = execFileSync('git', ['show', `${ref}:${SCHEMA_FILE}`], { encoding: 'utf8' });
  const changes = await schemaChanges(old, await currentSdl());
  for (const line of changeLists([
    ['Breaking', changes.breaking],
    ['Dangerous', changes.dangerous],
    ['Safe', changes.safe],
  ]))
    process.stdout.write(`${line}\n`);
  return changes.breaking.length && failOnBreaking ? 1 : 0;
}

/** schema.graphql at tag `v<version>`, if this clone has that tag (a clean clone may have none). */
function taggedSchema(version: string): string | undefined {
  try {
    return execFileSync('git', ['show', `refs/tags/v${version}:${SCHEMA_FILE}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
}

async function schemaGateCommand(): Promise<number> {
  const [changelog, releaseSchema, pkg, currentSchema] = await Promise.all([
    readFile(CHANGELOG_FILE, 'utf8'),
    readFile(RELEASE_SCHEMA_FILE, 'utf8'),
    readFile('package.json', 'utf8'),
    currentSdl(),
  ]);
  const packageVersion = (JSON.parse(pkg) as { version: string }).version;
  const release = newestRelease(changelogSections(changelog).sections);
  const verdict = await schemaGate({
    changelog,
    releaseSchema,
    currentSchema,
    packageVersion,
    taggedSchema: release && taggedSchema(release.version),
    today: new Date().toISOString().slice(0, 10),
  });
  process.stdout.write(`${verdict.lines.join('\n')}\n`);
  return verdict.ok ? 0 : 1;
}

/** On a release commit: writes schema.release.graphql, the schema of CHANGELOG.md's newest release (package.json's version). */
export async function schemaRelease(): Promise<number> {
  const [changelog, pkg] = await Promise.all([readFile(CHANGELOG_FILE, 'utf8'), readFile('package.json', 'utf8')]);
  const release = newestRelease(changelogSections(changelog).sections);
  const packageVersion = (JSON.parse(pkg) as { version: string }).version;
  if (!release || release.version !== packageVersion) {
    process.stderr.write(
      `${CHANGELOG_FILE}'s newest release (${release?.heading ?? 'none'}) is not package.json's version ${packageVersion}: date the section and bump package.json together.\n`,
    );
    return 1;
  }
  const header = `# Release ${release.version} (${release.date}) of schema.graphql: what \`npm run schema:diff\` compares with (docs/schema-changes.md).\n# Written by \`npm run schema:release\` on the release commit; never edited by hand.\n`;
  await writeFile(RELEASE_SCHEMA_FILE, header + (await currentSdl()));
  process.stdout.write(`wrote ${RELEASE_SCHEMA_FILE} (release ${release.version})\n`);
  return 0;
}
