// Prints the ten slowest test files of the jest runs whose `--json --outputFile` reports are given
// (`npm test` and `npm run test:soak` write them to test-results/), with each run's wall time.
// CI prints it after the tests, also when they failed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const files = process.argv.slice(2).filter((f) => existsSync(f));
if (files.length === 0) {
  console.log('slowest test files: no jest report (the tests did not run)');
  process.exit(0);
}
const rows = [];
for (const file of files) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const ends = report.testResults.map((r) => r.endTime).filter(Boolean);
  const wall = ends.length ? (Math.max(...ends) - report.startTime) / 1000 : 0;
  console.log(
    `${path.basename(file, '.json')}: ${report.numTotalTestSuites} files, ${report.numTotalTests} tests, ` +
      `${report.numFailedTests} failed, ${wall.toFixed(0)} s wall`,
  );
  for (const r of report.testResults)
    rows.push({ name: path.relative(process.cwd(), r.name), s: (r.endTime - r.startTime) / 1000, status: r.status });
}
console.log('the ten slowest test files:');
for (const r of rows.sort((a, b) => b.s - a.s).slice(0, 10))
  console.log(`${r.s.toFixed(1).padStart(7)} s  ${r.name}${r.status === 'passed' ? '' : ` (${r.status})`}`);
