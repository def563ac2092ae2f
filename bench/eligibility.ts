/**
 * The name classifier on the labelled set (test/fixtures/eligibility/labelled-names.csv, sources in the
 * README beside it): accuracy, the confusion matrix, precision and recall per status, every miss, and the
 * time per name (the engine runs on every product create and on every imported row). Figures only:
 * the labelled-set spec is what fails when accuracy drops or a false `eligible` appears.
 */
import path from 'node:path';
import { checkEligibility } from '../src/modules/eligibility/eligibility.engine.js';
import { evaluate, formatEvaluation, readLabelledNames } from '../src/modules/eligibility/eligibility-evaluation.js';

const ROUNDS = 200;

function main(): void {
  const file = path.join(process.cwd(), 'test/fixtures/eligibility/labelled-names.csv');
  const cases = readLabelledNames(file);
  const evaluation = evaluate(cases);

  const names = cases.map((c) => c.name);
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) for (const name of names) checkEligibility({ name });
  const perName = ((performance.now() - started) * 1000) / (ROUNDS * names.length);

  process.stdout.write(
    `\nEligibility by name, ${cases.length} labelled product names (${path.relative(process.cwd(), file)})\n${formatEvaluation(evaluation)}\n\n` +
      `time per name: ${perName.toFixed(1)} µs (${ROUNDS} rounds of the set)\n`,
  );
}

main();
