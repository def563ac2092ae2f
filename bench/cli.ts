/**
 * The CLI's start on a built tree: `npm run cli -- …` and the `health-commerce` bin check that the
 * build is current and run the command in one process. Target: a command answers in under 1 s.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { formatTable } from './common.js';

const RUNS = 10;
const TARGET_MS = 1000;

/** Milliseconds of one run of `args` (a command that needs no database: its usage). */
function timed(command: string, args: string[]): number {
  const started = process.hrtime.bigint();
  spawnSync(command, args, { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

execFileSync('node', ['src/cli/build-if-stale.mjs']); // built and current before measuring
const rows = [
  {
    case: 'node src/cli/run.mjs (the bin)',
    ms: median(Array.from({ length: RUNS }, () => timed(process.execPath, ['src/cli/run.mjs']))),
  },
  { case: 'npm run -s cli', ms: median(Array.from({ length: RUNS }, () => timed('npm', ['run', '-s', 'cli']))) },
];
console.log(`\nCLI start on a built tree (median of ${RUNS} runs; target < ${TARGET_MS} ms)`);
console.log(
  formatTable(
    ['case', 'ms', 'target'],
    rows.map((r) => [r.case, r.ms.toFixed(0), r.ms < TARGET_MS ? 'holds' : 'missed']),
  ),
);
