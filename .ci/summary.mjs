// Prints the plain closing line CI reads: "N passed, N failed" (from vitest's JSON report).
import { existsSync, readFileSync } from 'node:fs';

const [file, status] = process.argv.slice(2);
if (!existsSync(file)) {
  console.log(`0 passed, ${status === '0' ? 0 : 1} failed`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
let failed = report.numFailedTests ?? 0;
// A suite that failed to load has no failed tests but must still count as a failure.
if (failed === 0 && status !== '0') failed = Math.max(1, report.numFailedTestSuites ?? 1);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
