// While the background fill computes the volatility window, the vol warm-up waits for it (no
// closing board is built on the request thread) and reports the fill's rows as its progress; once
// the fill has the window, the warm-up loads it from the store on its own.
import { afterAll, describe, expect, it } from "vitest";
import { dailyDbPath, marketIdentity, openDailyStore, VOL_READING } from "../../../server/daily-store";
import { dailyProducer } from "../../../server/daily-store/compute";
import { moduleStateOf } from "../../../server/modules";
import { metaModule } from "../../../server/modules/meta";
import { createVolModule } from "../../../server/modules/vol";
import { sessionsBefore } from "../../../server/modules/vol/daily-store";
import { makeHarness } from "../_harness";
import { countingMarket, NOW_MS, tempDir } from "./_store-fixtures";
import { simulatedMarketAt } from "../../_helpers/simulated-market";

const t = tempDir();
afterAll(() => t.remove());

describe("vol warm-up with a background fill", () => {
  it("waits for the fill, shows its progress, then loads the window from the store without a board", async () => {
    const store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
    try {
      const { market, calls, chainAt } = countingMarket(simulatedMarketAt(42, NOW_MS));
      const vol = createVolModule({ historySessions: 2, symbols: ["KO"] });
      const h = makeHarness({ market, nowMs: NOW_MS, modules: [metaModule, vol], dailyStore: store });
      const state = moduleStateOf(h.app.services, vol);
      // A fill is running and has 1 of 3 rows of the window.
      store.fill.setRunning(true);
      store.fill.update(VOL_READING, { done: 1, total: 3, finished: false });
      const warm = state.warmUp();
      expect(state.warmProgress()).toEqual({ done: 1, total: 3, finished: false });
      const status = await (await h.get("/v1/vol/status")).json();
      expect(status.data.coverage.historyWarm).toEqual({ done: 1, total: 3, finished: false });
      // The screener answers 503 warming_up meanwhile, naming the progress.
      const busy = await h.get("/v1/vol/screener");
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect((await busy.json()).error.message).toContain("(1 of 3 steps done)");
      // Before the fill has planned its rows the message says it is starting, never "0 of 0".
      store.fill.update(VOL_READING, { done: 0, total: 0, finished: false });
      const starting = (await (await h.get("/v1/vol/screener")).json()).error.message;
      expect(starting).toContain("(starting)");
      expect(starting).not.toContain("0 of 0");
      store.fill.update(VOL_READING, { done: 1, total: 3, finished: false });
      // Nothing was computed by the warm-up itself (a computed finished session would be stored).
      expect(store.count(VOL_READING)).toBe(0);
      // Status reads the live board; from here on no board of the history window is built (the
      // warm-up still reads today's boards and the earnings record's closes, outside the window).
      const liveBoards = calls.chain;
      const dates = sessionsBefore("2024-03-06", 2);
      // (The screener rows' `iv` module also reads the reference symbol's window, not covered here.)
      const windowBoards = () =>
        chainAt.slice(liveBoards).filter((c) => c.symbol === "KO" && dates.includes(new Date(c.atMs - 5 * 3_600_000).toISOString().slice(0, 10)));
      // The "worker" writes the window (here: computed in this thread on a separate market) and finishes.
      const produce = dailyProducer(simulatedMarketAt(42, NOW_MS));
      store.putMany(VOL_READING, await Promise.all(dates.map(async (d) => ({ symbol: "KO", session: d, value: await produce(VOL_READING, "KO", d) }))));
      store.fill.update(VOL_READING, { done: 3, total: 3, finished: true });
      await warm;
      // One symbol: its history, its board of today, the minute's screener rows.
      expect(state.warmProgress()).toEqual({ done: 3, total: 3, finished: true });
      expect(windowBoards()).toEqual([]);
      expect((await state.daily.before("KO", "2024-03-06", 2)).map((r) => r.date)).toEqual(dates);
      expect(windowBoards()).toEqual([]);
    } finally {
      store.close();
    }
  }, 60_000);
});
