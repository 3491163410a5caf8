// The warm-up's progress (`/v1/vol/status` coverage.historyWarm) counts every step, the last one
// (the minute's screener rows) included: done reaches total only when the warm-up has finished,
// never while it is still working (docs/api.md#volatility-daily-store).
import { afterAll, describe, expect, it } from "vitest";
import { createSimulatedMarket } from "../../../../lib/market/simulated";
import { moduleStateOf } from "../../../../server/modules";
import { metaModule } from "../../../../server/modules/meta";
import { createVolModule } from "../../../../server/modules/vol";
import { makeHarness, NOW_MS } from "../../_harness";
import { TEST_HISTORY_SESSIONS, TEST_SYMBOLS } from "./_vol-harness";

const clock = { now: () => NOW_MS };
const vol = createVolModule({ historySessions: TEST_HISTORY_SESSIONS, symbols: TEST_SYMBOLS });
const h = makeHarness({ market: createSimulatedMarket({ seed: 42, clock }), clock, credits: 100_000, modules: [metaModule, vol] });
const state = moduleStateOf(h.app.services, vol);

afterAll(() => h.app.shutdown(0));

type Progress = { done: number; total: number; finished: boolean };

describe("vol warm-up progress", () => {
  it("is done = total only once finished: each symbol's history and board, then the screener rows", async () => {
    const seen: Progress[] = [];
    let over = false;
    const warm = state.warmUp().finally(() => (over = true));
    // Sample between the warm-up's own yields (it yields after every symbol and every row).
    while (!over) {
      const p = state.warmProgress();
      if (p && JSON.stringify(p) !== JSON.stringify(seen.at(-1))) seen.push(p);
      await new Promise((r) => setImmediate(r));
    }
    await warm;
    const last = state.warmProgress()!;
    const total = 2 * TEST_SYMBOLS.length + 1;
    expect(last).toEqual({ done: total, total, finished: true });
    // While it worked, every step but the last was seen, and none claimed done = total.
    const working = seen.filter((p) => !p.finished);
    expect(working.every((p) => p.total === total && p.done < total)).toBe(true);
    expect(working.at(-1)).toEqual({ done: total - 1, total, finished: false });
    // The status route shows the same figures.
    const status = await (await h.get("/v1/vol/status")).json();
    expect(status.data.coverage.historyWarm).toEqual(last);
  }, 120_000);
});
