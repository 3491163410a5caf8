// How `optionscope serve` starts the fill: on by default with the default flow horizon,
// `--daily-fill-sessions N|all` (or OPTIONSCOPE_DAILY_FILL_SESSIONS) sets the horizon, bad values
// are usage errors naming the flag and what it accepts, and `--no-daily-fill` starts no filler.
import { afterAll, describe, expect, it } from "vitest";
import { resolveServeConfig, UsageError } from "../../../server/config";
import { DEFAULT_FLOW_FILL_SESSIONS } from "../../../server/daily-store";
import { startServer } from "../../../server/serve";
import { tempDir } from "./_store-fixtures";

const t = tempDir();
afterAll(() => t.remove());
const ARGS = ["--port", "0", "--hostname", "127.0.0.1", "--data-dir", t.dir, "--seed", "42", "--now", "2024-03-06T15:00:00Z", "--no-access-log", "--ip-ceiling", "off"];

describe("serve options", () => {
  it("the horizon: default absent (the filler's 21), N, all, from the flag or the environment (the flag wins)", () => {
    expect(resolveServeConfig([], {}).dailyFillSessions).toBeUndefined();
    expect(resolveServeConfig(["--daily-fill-sessions", "60"], {}).dailyFillSessions).toBe(60);
    expect(resolveServeConfig(["--daily-fill-sessions", "all"], {}).dailyFillSessions).toBe(Number.POSITIVE_INFINITY);
    expect(resolveServeConfig([], { OPTIONSCOPE_DAILY_FILL_SESSIONS: "0" }).dailyFillSessions).toBe(0);
    expect(resolveServeConfig(["--daily-fill-sessions", "5"], { OPTIONSCOPE_DAILY_FILL_SESSIONS: "all" }).dailyFillSessions).toBe(5);
    for (const bad of ["-3", "1.5", "twenty", "ALL"]) {
      expect(() => resolveServeConfig([`--daily-fill-sessions=${bad}`], {})).toThrow(UsageError);
      expect(() => resolveServeConfig([], { OPTIONSCOPE_DAILY_FILL_SESSIONS: bad })).toThrow(
        /OPTIONSCOPE_DAILY_FILL_SESSIONS: expected a whole number of sessions \(0 or more\) or `all`/,
      );
    }
  });

  it("fill threads: absent by default (one per core), N from the flag or the environment; bad values name the flag and the range", () => {
    expect(resolveServeConfig([], {}).fillThreads).toBeUndefined();
    expect(resolveServeConfig(["--fill-threads", "3"], {}).fillThreads).toBe(3);
    expect(resolveServeConfig([], { OPTIONSCOPE_FILL_THREADS: "1" }).fillThreads).toBe(1);
    for (const bad of ["0", "65", "1.5", "two", "-1"]) {
      expect(() => resolveServeConfig([`--fill-threads=${bad}`], {})).toThrow(/--fill-threads \/ OPTIONSCOPE_FILL_THREADS.*an integer from 1 to 64/);
    }
  });

  it("serve starts the filler with the default horizon; --daily-fill-sessions sets it; --no-daily-fill starts none", async () => {
    const runs: [string[], unknown][] = [
      [[], DEFAULT_FLOW_FILL_SESSIONS],
      [["--daily-fill-sessions", "all"], "all"],
      [["--no-daily-fill"], null],
    ];
    for (const [extra, expected] of runs) {
      const logs: Record<string, unknown>[] = [];
      const running = await startServer(resolveServeConfig([...ARGS, ...extra], {}), { log: (l) => logs.push(l), stderr: () => {} });
      try {
        await running.ready;
        const start = logs.find((l) => l.msg === "daily_fill_start");
        if (expected === null) expect(start).toBeUndefined();
        else expect(start).toMatchObject({ flowSessions: expected, volSessions: 253 });
      } finally {
        await running.shutdown(100);
      }
    }
  }, 60_000);
});
