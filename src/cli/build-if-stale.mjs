// Builds the service (npm run build) only when a source changed since the last build: `npm start`
// and `npm run cli` start at once from a built tree. Plain JavaScript: it runs before the build.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STAMP = path.join(root, 'dist', '.built');
/** What the build reads: a change to any of them makes the built tree stale. */
const SOURCES = [
  'src',
  'migrations',
  'bench',
  'mikro-orm.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];

/** The newest modification time under `p` (a file or a folder), in ms. */
function newest(p) {
  let stat;
  try {
    stat = statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(p).reduce((max, name) => Math.max(max, newest(path.join(p, name))), stat.mtimeMs);
}

/** True when the built tree is missing or older than a source. */
export function isStale() {
  let built;
  try {
    built = statSync(STAMP).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((s) => newest(path.join(root, s)) > built);
}

/** Marks the built tree current (the last step of `npm run build`). */
export function stamp() {
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

/** Builds when stale; exits the process with the build's status when the build fails. */
export function buildIfStale() {
  if (!isStale()) return;
  process.stderr.write('Sources changed since the last build: building (npm run build)…\n');
  const run = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--stamp') stamp();
  else buildIfStale();
}
