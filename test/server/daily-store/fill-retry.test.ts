// A failed fill pass is retried (issue 38, item 6): the store refuses the worker's first write (a
// real SQLITE_BUSY: another connection holds the write lock, as a full disk refuses it with
// SQLITE_FULL), the filler logs the error with its retry, shows it in the tracker and
// `/v1/vol/status`, and a new worker finishes the plan once the store takes writes again. The
// backoff doubles per failure in a row up to its bound (docs/operations.md#daily-fill-retries).
import { afterAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../../lib/market/clock";
import { dailyDbPath, FLOW_SUMMARY, marketIdentity, openDailyStore, startDailyFill, VOL_READING, type FillerRole } from "../../../server/daily-store";
import { FILL_RETRY_MAX_MS, FILL_RETRY_MIN_MS, fillRetryDelayMs } from "../../../server/daily-store/filler";
import type { FillRetry } from "../../../server/daily-store/progress";
import { metaModule } from "../../../server/modules/meta";
import { createVolModule } from "../../../server/modules/vol";
import { openSqlite } from "../../../server/sqlite";
import { makeHarness } from "../_harness";
import { LAST_SESSION, NOW_MS, tempDir } from "./_store-fixtures";
import { simulatedMarketAt } from "../../_helpers/simulated-market";

const t = tempDir();
afterAll(() => t.remove());

describe("fill retry backoff", () => {
  it("doubles from the minimum per failure in a row and stops at the maximum", () => {
    expect([1, 2, 3, 4].map((n) => fillRetryDelayMs(n))).toEqual([FILL_RETRY_MIN_MS, 2 * FILL_RETRY_MIN_MS, 4 * FILL_RETRY_MIN_MS, 8 * FILL_RETRY_MIN_MS]);
    expect(fillRetryDelayMs(40)).toBe(FILL_RETRY_MAX_MS);
    expect(fillRetryDelayMs(1000)).toBe(FILL_RETRY_MAX_MS); // no overflow to Infinity or NaN
    expect([1, 2, 3, 4].map((n) => fillRetryDelayMs(n, 50, 120))).toEqual([50, 100, 120, 120]);
  });
});

describe("a store error during a pass", () => {
  it("is logged with its retry, shown in the status, and the next pass completes the plan", async () => {
    const path = dailyDbPath(t.dir);
    const store = openDailyStore(path, marketIdentity({ kind: "simulated", seed: 42 }));
    const locker = openSqlite(path);
    const logs: Record<string, unknown>[] = [];
    const atError: { retry: FillRetry | null; running: boolean; role: FillerRole | undefined; status?: unknown }[] = [];
    let filler: ReturnType<typeof startDailyFill> | undefined;
    const h = makeHarness({
      market: simulatedMarketAt(42, NOW_MS),
      nowMs: NOW_MS,
      modules: [metaModule, createVolModule({ historySessions: 2, symbols: ["KO"] })],
      dailyStore: store,
    });
    try {
      filler = startDailyFill({
        store,
        source: { kind: "simulated", seed: 42 },
        clock: fixedClock(NOW_MS),
        symbols: ["KO"],
        volSessions: 2,
        flowFrom: LAST_SESSION,
        retryMinMs: 50,
        retryMaxMs: 100,
        log: (l) => {
          logs.push(l);
          if (l.msg === "daily_fill_error") {
            const s = store.fill.snapshot();
            atError.push({ retry: s.retry, running: s.running, role: filler?.role() });
            // The disk has room again: the next write goes through.
            if (locker.inTransaction) locker.exec("ROLLBACK");
          }
        },
      });
      // The lease is taken at start; from here on the store refuses writes (busy timeout, then SQLITE_BUSY).
      expect(filler.role()).toBe("filling");
      locker.exec("BEGIN EXCLUSIVE");
      const computed = await filler.idle();

      expect(atError).toHaveLength(1);
      expect(atError[0]).toMatchObject({ retry: { attempt: 1, reason: "SQLITE_BUSY" }, running: false, role: "retrying" });
      const error = logs.find((l) => l.msg === "daily_fill_error")!;
      expect(error).toMatchObject({ attempt: 1, retryInMs: 50 });
      expect(String(error.error)).toMatch(/SQLITE_BUSY|database is locked/);
      const msgs = logs.map((l) => l.msg);
      expect(msgs.indexOf("daily_fill_retry")).toBeGreaterThan(msgs.indexOf("daily_fill_error"));
      expect(msgs.indexOf("daily_fill_idle")).toBeGreaterThan(msgs.indexOf("daily_fill_retry"));
      // Nothing of the refused batch was stored; the retried pass computed the whole plan.
      expect(computed).toBe(4);
      expect([store.count(FLOW_SUMMARY), store.count(VOL_READING)]).toEqual([1, 3]);
      expect(filler.role()).toBe("idle");
      expect(store.fill.snapshot().retry).toBeNull();
      const status = await (await h.get("/v1/vol/status")).json();
      expect(status.data.coverage.dailyFill).toEqual({ running: false, retry: null });
    } finally {
      if (locker.inTransaction) locker.exec("ROLLBACK");
      locker.close();
      await filler?.close();
      store.close();
    }
  }, 120_000);

  it("/v1/vol/status shows a pending retry: attempt, when (ISO UTC) and the error code", async () => {
    const store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
    try {
      const h = makeHarness({
        market: simulatedMarketAt(42, NOW_MS),
        nowMs: NOW_MS,
        modules: [metaModule, createVolModule({ historySessions: 2, symbols: ["KO"] })],
        dailyStore: store,
      });
      store.fill.setRetry({ attempt: 3, nextAtMs: Date.parse("2026-01-02T03:04:05Z"), reason: "SQLITE_FULL" });
      const res = await h.get("/v1/vol/status");
      expect(res.status).toBe(200);
      expect((await res.json()).data.coverage.dailyFill).toEqual({ running: false, retry: { attempt: 3, nextAt: "2026-01-02T03:04:05Z", reason: "SQLITE_FULL" } });
      const plain = makeHarness({
        market: simulatedMarketAt(42, NOW_MS),
        nowMs: NOW_MS,
        modules: [metaModule, createVolModule({ historySessions: 2, symbols: ["KO"] })],
      });
      expect((await (await plain.get("/v1/vol/status")).json()).data.coverage.dailyFill).toBeNull();
    } finally {
      store.close();
    }
  }, 60_000);
});
