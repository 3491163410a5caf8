// Reads vitest's JSON report (what CI counts): prints the 20 slowest test files with their times
// and layers' totals, then one plain "N passed, N failed" line, the last line of the CI log.
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const path = process.argv[2] ?? ".vitest/report.json";
let report;
try {
  report = JSON.parse(readFileSync(path, "utf8"));
} catch {
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const suites = report.testResults ?? [];
const seconds = (s) => ((s.endTime ?? 0) - (s.startTime ?? 0)) / 1000;
const slowest = [...suites].sort((a, b) => seconds(b) - seconds(a)).slice(0, 20);
if (slowest.length > 0) {
  console.log("Slowest test files (wall seconds, while sharing the machine with the other workers):");
  for (const s of slowest) console.log(`${seconds(s).toFixed(1).padStart(8)}  ${relative(process.cwd(), s.name)}`);
}
const passed = report.numPassedTests ?? 0;
// A file that fails outside its tests (a load error, a failing beforeAll) counts once even though
// none of its tests is marked failed.
const failedSuites = suites.filter((s) => s.status === "failed" && !(s.assertionResults ?? []).some((a) => a.status === "failed")).length;
// `npm test` also ran the static checks (scripts/test-all.mjs): a failure there is one more.
let checkFailed = 0;
try {
  checkFailed = JSON.parse(readFileSync(join(dirname(path), "check.json"), "utf8")).code === 0 ? 0 : 1;
} catch {
  // Not run through npm test (vitest alone): nothing to add.
}
if (checkFailed) console.log("npm run check failed (Biome, tsc or knip): see its output above.");
// A run vitest itself reports failed with no failed test or file (a configuration error, an
// unhandled error between tests) is one failure too: "0 passed, 0 failed" would read as nothing wrong.
const counted = (report.numFailedTests ?? 0) + failedSuites;
const runFailed = report.success === false && counted === 0 ? 1 : 0;
const failed = counted + runFailed + checkFailed;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
