import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { computeProbe } from "./_tz-cases";
import { tsEntryArgs } from "../_helpers/ts-entry";

const run = promisify(execFile);
const probe = fileURLToPath(new URL("./_tz-probe.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Process time zones to try, with their UTC offset in minutes on 2024-07-01 as getTimezoneOffset reports it. */
const ZONES: Array<[string, number]> = [
  ["UTC", 0],
  ["America/New_York", 240],
  ["Asia/Tokyo", -540],
  ["Pacific/Chatham", -765],
];

describe("results do not depend on the process TZ", () => {
  it("child processes under UTC, New York, Tokyo and Chatham print the in-process results", async () => {
    const expected = computeProbe();
    const entry = await tsEntryArgs(probe);
    const outputs = await Promise.all(ZONES.map(([tz]) => run(process.execPath, entry, { cwd: repoRoot, env: { ...process.env, TZ: tz }, timeout: 60_000 })));
    outputs.forEach(({ stdout }, i) => {
      const got = JSON.parse(stdout);
      expect(got.tz).toBe(ZONES[i][0]);
      expect(got.localOffsetMin).toBe(ZONES[i][1]); // the child really ran in that zone
      expect(got.probe).toEqual(JSON.parse(JSON.stringify(expected)));
      // Independent anchors, computed by hand: 09:30 EST = 14:30Z, 09:30 EDT = 13:30Z.
      const sessions = new Map(got.probe.sessions.map(([d, r]: [string, { openMs: number }]) => [d, r.openMs]));
      expect(sessions.get("2024-03-08")).toBe(Date.UTC(2024, 2, 8, 14, 30));
      expect(sessions.get("2024-03-11")).toBe(Date.UTC(2024, 2, 11, 13, 30));
      expect(sessions.get("2024-11-01")).toBe(Date.UTC(2024, 10, 1, 13, 30));
      expect(sessions.get("2024-11-04")).toBe(Date.UTC(2024, 10, 4, 14, 30));
      // AM settlement of the April 2025 SPX monthly moves to Thursday 09:30 EDT; SPXW on an early close settles 13:00 EST.
      expect(got.probe.settlement).toEqual([Date.UTC(2025, 3, 17, 13, 30), Date.UTC(2024, 10, 29, 18, 0)]);
    });
  }, 60_000);
});
