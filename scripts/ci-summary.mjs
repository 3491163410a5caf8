// Prints one plain "N passed, N failed" line from vitest's JSON report (read by CI).
import { readFileSync } from "node:fs";

const path = process.argv[2] ?? ".vitest/report.json";
let report;
try {
  report = JSON.parse(readFileSync(path, "utf8"));
} catch {
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// Suites that fail to load count as failures even though they hold no test results.
const failedSuites = (report.testResults ?? []).filter((s) => s.status === "failed" && (s.assertionResults ?? []).length === 0).length;
const failed = (report.numFailedTests ?? 0) + failedSuites;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
