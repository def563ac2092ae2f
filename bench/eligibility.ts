/**
 * The name classifier on the newest labelled set (test/fixtures/eligibility/, the first of LABELLED_SETS: names written
 * after the rules and committed before the engine ran on them): the confusion matrix, precision and recall, the misses,
 * the share answered `requires_review`, and the time per name (what product create and import pay on every row). One
 * line each for the older sets, which have been tuned on (regression sets; the training set is in-sample).
 * Figures only: the held-out spec is what fails when a set's figures fall below its floors.
 */
import path from 'node:path';
import { checkEligibility } from '../src/modules/eligibility/eligibility.engine.js';
import {
  answeredReview,
  evaluate,
  formatEvaluation,
  LABELLED_SETS,
  readLabelledNames,
  type Evaluation,
} from '../src/modules/eligibility/eligibility-evaluation.js';

const BATCHES = 5;
const ROUNDS_PER_BATCH = 40;

/** Median over batches of the time per name, in µs: the machine is shared, and one slow batch says little. */
function microsecondsPerName(names: readonly string[]): number {
  const batches: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    const started = performance.now();
    for (let round = 0; round < ROUNDS_PER_BATCH; round++) for (const name of names) checkEligibility({ name });
    batches.push(((performance.now() - started) * 1000) / (ROUNDS_PER_BATCH * names.length));
  }
  return batches.sort((a, b) => a - b)[Math.floor(BATCHES / 2)];
}

const share = (part: number, whole: number): string => `${((part / whole) * 100).toFixed(1)}%`;

const measured = (measuredOnce: string | null): string =>
  measuredOnce === null ? '' : `; measured once: ${measuredOnce}`;

function oneLine(role: string, measuredOnce: string | null, evaluation: Evaluation): string {
  const costly = evaluation.falseEligible.filter((miss) => miss.expected !== 'requires_review').length;
  return `${role}: ${evaluation.correct}/${evaluation.total} = ${share(evaluation.correct, evaluation.total)}, false eligible ${evaluation.falseEligible.length} (${costly} labelled not_eligible or requires_lmn), answered requires_review ${answeredReview(evaluation)}${measured(measuredOnce)}\n`;
}

function main(): void {
  const dir = path.join(process.cwd(), 'test/fixtures/eligibility');
  const [newest, ...older] = LABELLED_SETS.map(({ file, role, measuredOnce }) => ({
    file,
    role,
    measuredOnce,
    names: readLabelledNames(path.join(dir, file)),
  }));
  const evaluation = evaluate(newest.names);
  const review = answeredReview(evaluation);
  const training = older[older.length - 1];
  const newestSpeed = microsecondsPerName(newest.names.map((c) => c.name));
  const trainingSpeed = microsecondsPerName(training.names.map((c) => c.name));

  process.stdout.write(
    `\nEligibility by name, ${newest.role}: ${newest.names.length} names (test/fixtures/eligibility/${newest.file})\n` +
      `the figure to report is the one measured once, before any rule was written from the set${measured(newest.measuredOnce)}\n` +
      `${formatEvaluation(evaluation)}\n\n` +
      `answered requires_review: ${review}/${newest.names.length} = ${share(review, newest.names.length)} (target ≤ 3%); accuracy target ≥ 95%, no not_eligible or requires_lmn name answered eligible\n` +
      older.map(({ role, measuredOnce, names }) => oneLine(role, measuredOnce, evaluate(names))).join('') +
      `time per name: ${newestSpeed.toFixed(1)} µs on the ${newest.file} names, ${trainingSpeed.toFixed(1)} µs on the training names (median of ${BATCHES} batches of ${ROUNDS_PER_BATCH} rounds)\n`,
  );
}

main();
