import { CriticalityLevel, diff, type Change, type TypeOfChangeType } from '@graphql-inspector/core';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLSchema,
} from 'graphql';

// The schema-change gate (docs/schema-changes.md): the working schema against the schema of the
// newest release in CHANGELOG.md. Pure: the command reads the files and git, this decides.

export const CHANGELOG_FILE = 'CHANGELOG.md';
/** The schema as of the newest release in CHANGELOG.md (committed; written by `npm run schema:release`). */
export const RELEASE_SCHEMA_FILE = 'schema.release.graphql';

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;
const HEADING = /^## \[([^\]]*)\](?: - (.*?))?\s*$/;
const RELEASE_HEADER = /^# Release (\d+\.\d+\.\d+)\b/;
const REMOVAL = /\bRemoval on (\d{4}-\d{2}-\d{2})\b/;

/** One `## [...]` section of CHANGELOG.md: a release (`date`), unreleased (`date` undefined), with its text. */
export interface ChangelogSection {
  heading: string;
  /** X.Y.Z; undefined for `## [Unreleased]`. */
  version?: string;
  /** YYYY-MM-DD of a release; undefined while unreleased. */
  date?: string;
  body: string;
}

function isDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
}

/** The `## [...]` sections of CHANGELOG.md, newest first; `errors` names the headings that are neither `## [X.Y.Z] - YYYY-MM-DD`, `## [X.Y.Z] - Unreleased` nor `## [Unreleased]`. */
export function changelogSections(text: string): { sections: ChangelogSection[]; errors: string[] } {
  const sections: ChangelogSection[] = [];
  const errors: string[] = [];
  let current: ChangelogSection | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('## ')) {
      if (current) current.body += `${line}\n`;
      continue;
    }
    const [, label = '', tail] = HEADING.exec(line) ?? [];
    const unreleased = /^unreleased$/i;
    current = undefined;
    if (VERSION.test(label) && tail !== undefined && (isDate(tail) || unreleased.test(tail)))
      current = { heading: line.trim(), version: label, date: isDate(tail) ? tail : undefined, body: '' };
    else if (unreleased.test(label) && tail === undefined) current = { heading: line.trim(), body: '' };
    else errors.push(`${CHANGELOG_FILE}: a heading the gate does not understand: "${line.trim()}"`);
    if (current) sections.push(current);
  }
  return { sections, errors };
}

/** The newest release section (`## [X.Y.Z] - YYYY-MM-DD`), if any. */
export function newestRelease(
  sections: ChangelogSection[],
): (ChangelogSection & { version: string; date: string }) | undefined {
  return sections.find((s): s is ChangelogSection & { version: string; date: string } => s.date !== undefined);
}

function parts(version: string): [number, number, number] {
  const [, x, y, z] = VERSION.exec(version) ?? [];
  return [Number(x), Number(y), Number(z)];
}

/** The part of a version an npm caret range keeps (1.4.2 → 1, 0.4.2 → 0.4, 0.0.2 → 0.0.2): versions that share it are compatible. */
function majorOf(version: string): string {
  const [x, y, z] = parts(version);
  return x ? `${x}` : y ? `0.${y}` : `0.0.${z}`;
}

/** Whether `next` is a new major version after `last`: higher, and outside `^last` (0.1.0 → 0.2.0 or 1.0.0; 1.4.2 → 2.0.0). */
export function isNewMajor(next: string, last: string): boolean {
  const [a, b] = [parts(next), parts(last)];
  const higher = a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  return higher > 0 && majorOf(next) !== majorOf(last);
}

/** The smallest new major version after `last`. */
export function nextMajor(last: string): string {
  const [x, y, z] = parts(last);
  return x ? `${x + 1}.0.0` : y ? `0.${y + 1}.0` : `0.0.${z + 1}`;
}

/** Every deprecated field, argument, input field and enum value of `schema`, by path (`Type.field`, `Type.field.arg`, `Enum.VALUE`), with its reason. */
export function deprecations(schema: GraphQLSchema): Map<string, string> {
  const out = new Map<string, string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isEnumType(type))
      for (const value of type.getValues())
        if (value.deprecationReason != null) out.set(`${type.name}.${value.name}`, value.deprecationReason);
    if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
    for (const field of Object.values<GraphQLField<unknown, unknown> | GraphQLInputField>(type.getFields())) {
      if (field.deprecationReason != null) out.set(`${type.name}.${field.name}`, field.deprecationReason);
      for (const arg of 'args' in field ? field.args : [])
        if (arg.deprecationReason != null) out.set(`${type.name}.${field.name}.${arg.name}`, arg.deprecationReason);
    }
  }
  return out;
}

/** The date a deprecation reason announces (`… Removal on YYYY-MM-DD.`), if it names a real one. */
export function removalDate(reason: string): string | undefined {
  const date = REMOVAL.exec(reason)?.[1];
  return date && isDate(date) ? date : undefined;
}

/** `Type.field.arg` → itself, `Type.field`, `Type`: the deprecation nearest to what a change touches. */
function deprecationOf(
  path: string | undefined,
  deprecated: Map<string, string>,
): { path: string; reason: string } | undefined {
  const names = path?.split('.') ?? [];
  for (let n = names.length; n > 0; n--) {
    const at = names.slice(0, n).join('.');
    const reason = deprecated.get(at);
    if (reason !== undefined) return { path: at, reason };
  }
  return undefined;
}

/** A change as the lists print it: graphql-inspector's message, and its reason when it gives one. */
export function changeLine(change: Change): string {
  return `${change.message}${change.criticality.reason ? ` (${change.criticality.reason})` : ''}`;
}

/** The lists `schema:diff` prints: breaking, dangerous and safe, each with its count. */
export function changeLists(lists: readonly (readonly [string, readonly string[]])[]): string[] {
  return lists.flatMap(([label, list]) => [`${label} changes (${list.length})`, ...list.map((line) => `  - ${line}`)]);
}

export interface GateInput {
  changelog: string;
  /** schema.release.graphql as committed: `# Release X.Y.Z …` and the SDL. */
  releaseSchema: string;
  /** The SDL the resolvers emit now. */
  currentSchema: string;
  /** package.json's version. */
  packageVersion: string;
  /** schema.graphql at tag `v<newest release>`, when that tag exists in this clone. */
  taggedSchema?: string;
  /** Today, YYYY-MM-DD (UTC). */
  today: string;
}

export interface GateVerdict {
  ok: boolean;
  /** What the command prints, the verdict last. */
  lines: string[];
}

/**
 * The gate: FAIL when a breaking change (graphql-inspector's criticality BREAKING) from the newest
 * release's schema is not listed, verbatim, in a `## [X.Y.Z] - Unreleased` section of CHANGELOG.md
 * whose X.Y.Z is a new major version; when it touches something deprecated whose removal date has
 * not come; when a deprecation made since the release names no removal date (or an earlier one); or
 * when the release bookkeeping disagrees (package.json, schema.release.graphql, the release tag).
 */
export async function schemaGate(input: GateInput): Promise<GateVerdict> {
  const { sections, errors: problems } = changelogSections(input.changelog);
  const newest = newestRelease(sections);
  if (!newest)
    return { ok: false, lines: [...problems, `FAIL: ${CHANGELOG_FILE} names no release (## [X.Y.Z] - YYYY-MM-DD).`] };
  const release = newest.version;
  const majors = sections
    .slice(0, sections.indexOf(newest))
    .filter((s) => s.version !== undefined && isNewMajor(s.version, release));
  const snapshotVersion = RELEASE_HEADER.exec(input.releaseSchema)?.[1];
  if (input.packageVersion !== release)
    problems.push(
      `package.json's version is ${input.packageVersion}, ${CHANGELOG_FILE}'s newest release is ${release}: they are bumped together.`,
    );
  if (snapshotVersion !== release)
    problems.push(
      `${RELEASE_SCHEMA_FILE} is ${snapshotVersion ? `release ${snapshotVersion}'s schema` : 'not a release schema'}, ${CHANGELOG_FILE}'s newest release is ${release}: run \`npm run schema:release\` on the release commit.`,
    );

  const before = buildSchema(input.releaseSchema);
  const after = buildSchema(input.currentSchema);
  if (input.taggedSchema !== undefined && (await diff(buildSchema(input.taggedSchema), before)).length)
    problems.push(`${RELEASE_SCHEMA_FILE} differs from schema.graphql at tag v${release}.`);
  const changes = await diff(before, after);
  const released = deprecations(before);

  const breaking: string[] = [];
  const refused: Change[] = [];
  for (const change of changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking)) {
    const listedIn = majors.find((s) => s.body.includes(change.message));
    const deprecated = deprecationOf(change.path, released);
    const date = deprecated && removalDate(deprecated.reason);
    const early = date !== undefined && date > input.today;
    const noted = deprecated
      ? `deprecated in ${release}, ${date ? `removal on ${date}` : 'no removal date'}`
      : `not deprecated in ${release}`;
    breaking.push(
      `${change.message} [${listedIn ? `listed in ${listedIn.heading.slice(3)}; ${noted}` : `NOT LISTED under a new major version; ${noted}`}]`,
    );
    if (!listedIn) refused.push(change);
    if (early)
      problems.push(
        `${change.message}: ${deprecated?.path} is deprecated until ${date}; the change lands no earlier (today is ${input.today}).`,
      );
  }

  for (const [path, reason] of deprecations(after)) {
    if (released.get(path) === reason) continue;
    const date = removalDate(reason);
    const was = released.has(path) ? removalDate(released.get(path)!) : undefined;
    if (!date)
      problems.push(
        `${path} is deprecated without a removal date: end its reason with "Removal on YYYY-MM-DD." (deprecationReason).`,
      );
    else if (was && date < was)
      problems.push(`${path}'s removal date moves earlier, from ${was} to ${date}: integrators were promised ${was}.`);
  }

  const lines = [
    `Schema gate: the working schema against release ${release} (${RELEASE_SCHEMA_FILE}), rules in docs/schema-changes.md`,
    ...changeLists([
      ['Breaking', breaking],
      ['Dangerous', changes.filter((c) => c.criticality.level === CriticalityLevel.Dangerous).map(changeLine)],
      ['Safe', changes.filter((c) => c.criticality.level === CriticalityLevel.NonBreaking).map(changeLine)],
    ]),
  ];
  if (refused.length)
    problems.push(
      `${refused.length === 1 ? '1 breaking change is' : `${refused.length} breaking changes are`} not listed in ${CHANGELOG_FILE} under a new major version.`,
    );
  if (problems.length)
    return {
      ok: false,
      lines: [
        ...lines,
        'FAIL',
        ...problems.map((p) => `  * ${p}`),
        ...(refused.length ? pasteBlock(majors[0]?.heading ?? `## [${nextMajor(release)}] - Unreleased`, refused) : []),
      ],
    };
  return {
    ok: true,
    lines: [
      ...lines,
      breaking.length
        ? `OK: every breaking change is listed under ${majors.map((s) => s.heading.slice(3)).join(', ')}.`
        : `OK: no breaking change since release ${release}.`,
    ],
  };
}

/** What to do about `refused`, and the CHANGELOG.md lines that list them, ready to paste under `heading`. */
function pasteBlock(heading: string, refused: Change[]): string[] {
  const under = (kind: 'Removed' | 'Changed') => {
    const of = refused.filter((c) => (c.type as TypeOfChangeType).endsWith('_REMOVED') === (kind === 'Removed'));
    return of.length ? [`### ${kind}`, ...of.map((c) => `- ${c.message}`)] : [];
  };
  return [
    'A breaking change needs a deprecation first (the field stays, `@deprecated` with "… Removal on YYYY-MM-DD."), then lands in a new major',
    `version no earlier than that date, listed in ${CHANGELOG_FILE} (docs/schema-changes.md):`,
    ...[heading, ...under('Removed'), ...under('Changed')].map((line) => `    ${line}`),
  ];
}
