// `optionscope precompute`: fills exactly the sessions asked for, newest first, with progress on
// stderr; refuses (exit 1, naming the holder) while another process holds the fill lease, or waits
// for it with --wait; bad arguments are usage errors (exit 2) naming the flag and what it accepts.
import { afterAll, describe, expect, it } from "vitest";
import { previousTradingDay } from "../../../lib/time";
import { runPrecomputeCli } from "../../../server/cli/precompute-cli";
import { dailyDbPath, FLOW_SUMMARY, marketIdentity, openDailyStore, openFillLease, VOL_READING } from "../../../server/daily-store";
import { LAST_SESSION, tempDir } from "./_store-fixtures";

const t = tempDir();
afterAll(() => t.remove());
const BASE = ["precompute", "--data-dir", t.dir, "--seed", "42", "--now", "2024-03-06T15:00:00Z", "--symbols", "KO", "--kinds", "flow-summary"];

async function run(args: string[], options: Parameters<typeof runPrecomputeCli>[3] = {}) {
  let stdout = "";
  let stderr = "";
  const code = await runPrecomputeCli(
    args,
    {},
    {
      stdout: (s) => {
        stdout += s;
      },
      stderr: (s) => {
        stderr += s;
      },
    },
    { lowerPriority: false, ...options },
  );
  return { code, stdout, stderr };
}

function storedKo(): string[] {
  const store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
  try {
    expect(store.count(VOL_READING)).toBe(0);
    return [...store.range(FLOW_SUMMARY, "KO", "2000-01-01", "2100-01-01").keys()].sort();
  } finally {
    store.close();
  }
}

describe("optionscope precompute", () => {
  it("fills the last N flow sessions of the kinds and symbols asked for, with progress; a second run computes nothing", async () => {
    const r = await run([...BASE, "--sessions", "2"]);
    expect(r.stderr).toContain("flow summaries of 1 tickers over 2 sessions (2024-03-05 back to 2024-03-04)");
    expect(r.stderr).toContain("flow-summary 2/2 rows (done)");
    expect(r.stderr).toContain("done: 2 rows computed");
    expect(r.stderr).not.toContain("vol-reading 0/0"); // a kind left out prints no progress
    expect(r.code).toBe(0);
    expect(storedKo()).toEqual([previousTradingDay(LAST_SESSION), LAST_SESSION]);
    const again = await run([...BASE, "--sessions", "2"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("done: 0 rows computed");
  }, 60_000);

  it("exits 1 naming the holder while another process fills the store; --wait waits for it and then fills", async () => {
    const holder = openFillLease(dailyDbPath(t.dir));
    try {
      expect(holder.take().held).toBe(true);
      const refused = await run([...BASE, "--sessions", "3"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`is being filled by pid ${process.pid}`);
      expect(refused.stderr).toContain("--wait");
      expect(storedKo()).toHaveLength(2);
      const waiting = run([...BASE, "--sessions", "3", "--wait"], { waitRetryMs: 50 });
      await new Promise((r) => setTimeout(r, 300));
      holder.release();
      const w = await waiting;
      expect(w.stderr).toContain("waiting:");
      expect(w.stderr).toContain("done: 1 rows computed");
      expect(w.code).toBe(0);
      expect(storedKo()).toHaveLength(3);
    } finally {
      holder.close();
    }
  }, 60_000);

  it.each([
    [["--sessions=-1"], ["--sessions", "`all`"]],
    [
      ["--sessions", "2x"],
      ["--sessions", "whole number"],
    ],
    [
      ["--kinds", "flow"],
      ["--kinds", "flow-summary, vol-reading"],
    ],
    [
      ["--now", "yesterday"],
      ["--now", "ISO"],
    ],
    [["--bogus"], ["--bogus"]],
  ])("usage error %j: exit 2, naming the flag and what it accepts", async (args, words) => {
    const r = await run(["precompute", "--data-dir", t.dir, ...args]);
    expect(r.code).toBe(2);
    for (const w of words) expect(r.stderr).toContain(w);
  });
});
