// Writes test/durations.json (seconds per test file, what test/_setup/duration-sequencer.ts orders
// by) from vitest's JSON report of a full run. Usage: node scripts/record-test-durations.mjs [.vitest/report.json]
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";

const report = JSON.parse(readFileSync(process.argv[2] ?? ".vitest/report.json", "utf8"));
const durations = Object.fromEntries(
  report.testResults.map((file) => [relative(process.cwd(), file.name), Math.round((file.endTime - file.startTime) / 100) / 10]).sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync("test/durations.json", `${JSON.stringify(durations, null, 1)}\n`);
console.log(`test/durations.json: ${Object.keys(durations).length} files`);
