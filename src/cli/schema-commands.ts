import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema as buildFromSdl } from 'graphql';
import { resolvers } from '../modules/index.js';
import { buildGraphSchema, printGraphSchema } from '../platform/graphql/schema.js';

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
  const pick = (level: CriticalityLevel) => changes.filter((c) => c.criticality.level === level).map((c) => `${c.message}${c.criticality.reason ? ` (${c.criticality.reason})` : ''}`);
  return { breaking: pick(CriticalityLevel.Breaking), dangerous: pick(CriticalityLevel.Dangerous), safe: pick(CriticalityLevel.NonBreaking) };
}

/**
 * Lists breaking, dangerous and safe changes from the schema.graphql at git `ref` to the schema
 * the resolvers emit now; exits 1 on a breaking change when `--fail-on-breaking` is given.
 */
export async function schemaDiff(ref: string | undefined, failOnBreaking = process.argv.includes('--fail-on-breaking')): Promise<number> {
  if (!ref || ref.startsWith('--')) throw new Error('usage: npm run schema:diff -- REF [--fail-on-breaking]');
  const old = execFileSync('git', ['show', `${ref}:${SCHEMA_FILE}`], { encoding: 'utf8' });
  const changes = await schemaChanges(old, await currentSdl());
  for (const [label, list] of [
    ['Breaking', changes.breaking],
    ['Dangerous', changes.dangerous],
    ['Safe', changes.safe],
  ] as const) {
    process.stdout.write(`${label} changes (${list.length})\n`);
    for (const message of list) process.stdout.write(`  - ${message}\n`);
  }
  return changes.breaking.length && failOnBreaking ? 1 : 0;
}
