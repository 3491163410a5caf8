// CI's one-line count (scripts/ci-summary.mjs), run as .ci/run runs it on vitest's JSON report:
// failed tests, files that failed outside their tests, a failed check, and a run vitest reports
// failed with none of those (a configuration error) each count; no test passed fails the run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const script = join(__dirname, "..", "..", "scripts", "ci-summary.mjs");
const dir = mkdtempSync(join(tmpdir(), "optionscope-ci-summary-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The summary's last line and exit code for `report` (and `check.json` when `checkCode` is given). */
function summarise(report: object, checkCode?: number): { line: string; code: number | null } {
  const path = join(dir, "report.json");
  writeFileSync(path, JSON.stringify(report));
  rmSync(join(dir, "check.json"), { force: true });
  if (checkCode !== undefined) writeFileSync(join(dir, "check.json"), JSON.stringify({ code: checkCode }));
  const r = spawnSync(process.execPath, [script, path], { encoding: "utf8" });
  return { line: r.stdout.trim().split("\n").at(-1) ?? "", code: r.status };
}

const file = (status: string, tests: string[]) => ({
  name: "/x/test/a.test.ts",
  status,
  startTime: 0,
  endTime: 1000,
  assertionResults: tests.map((s) => ({ status: s })),
});

describe("scripts/ci-summary.mjs", () => {
  it("a clean run: its passed tests, exit 0", () => {
    expect(summarise({ success: true, numPassedTests: 2, numFailedTests: 0, testResults: [file("passed", ["passed", "passed"])] }, 0)).toEqual({
      line: "2 passed, 0 failed",
      code: 0,
    });
  });

  it("a failed test, a file failed outside its tests and a failed check each count once", () => {
    const report = { success: false, numPassedTests: 1, numFailedTests: 1, testResults: [file("failed", ["passed", "failed"]), file("failed", [])] };
    expect(summarise(report, 1)).toEqual({ line: "1 passed, 3 failed", code: 1 });
  });

  it("a run vitest reports failed with no failed test (a configuration error) is one failure", () => {
    expect(summarise({ success: false, numPassedTests: 0, numFailedTests: 0, testResults: [] }, 0)).toEqual({ line: "0 passed, 1 failed", code: 1 });
  });

  it("a run with no passed test fails, and a missing report is one failure", () => {
    expect(summarise({ success: true, numPassedTests: 0, numFailedTests: 0, testResults: [] }).code).toBe(1);
    const r = spawnSync(process.execPath, [script, join(dir, "absent.json")], { encoding: "utf8" });
    expect([r.stdout.trim(), r.status]).toEqual(["0 passed, 1 failed", 1]);
  });
});
