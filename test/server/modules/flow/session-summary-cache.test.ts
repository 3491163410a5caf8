// Session summaries live in a cache of their own, sized for a market-wide scan of several
// sessions: a scan neither evicts the module's small values nor its own earlier summaries, so a
// retried scan resumes instead of starting over.
import { describe, expect, it } from "vitest";
import { moduleStateOf } from "../../../../server/modules";
import { flowModule } from "../../../../server/modules/flow";
import { cacheShareBytes, DEFAULT_CACHE_MB, mebibytes } from "../../../../server/cache/cache-budget";
import type { FlowState } from "../../../../server/modules/flow/flow-route";
import { summariesOf } from "../../../../server/modules/flow/sessions/session-summary";
import { flowHarness, NOW_MS, simMarket, TODAY } from "./_flow-harness";

describe("session summary cache", () => {
  it("the default budget's summary share holds a market-wide scan of 6 sessions of the whole universe", async () => {
    const universe = await simMarket.universe();
    const h = flowHarness({ universe: ["TXN", "XLRE", "XLU", "LMT"] });
    const state = moduleStateOf(h.app.services, flowModule) as FlowState;
    await summariesOf(state, ["TXN", "XLRE", "XLU", "LMT"], TODAY, NOW_MS);
    await new Promise((r) => setTimeout(r, 0)); // each summary sized once settled
    const perSummary = state.summaries.bytes / state.summaries.size;
    expect(state.summaries.maxBytes).toBe(cacheShareBytes(mebibytes(DEFAULT_CACHE_MB), "flowSummaries"));
    expect(perSummary * universe.length * 6).toBeLessThanOrEqual(state.summaries.maxBytes);
  });

  it("a scan fills the summary cache, not the small-value memo; a resumed scan computes only what is left", async () => {
    const h = flowHarness({ universe: ["TXN", "XLRE", "XLU", "LMT"] });
    const state = moduleStateOf(h.app.services, flowModule) as FlowState;
    // A scan stopped after two tickers (the request's time limit aborting it).
    const stop = new AbortController();
    const first = summariesOf(state, ["TXN", "XLRE", "XLU", "LMT"], TODAY, NOW_MS, stop.signal).catch((e) => e);
    const watch = setInterval(() => {
      if (state.summaries.size >= 2) stop.abort(new Error("time limit"));
    }, 1);
    await first;
    clearInterval(watch);
    const kept = state.summaries.size;
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(kept).toBeLessThan(4);
    // The retry reuses the kept summaries (same objects) and adds the rest.
    const keptValues = await Promise.all(["TXN", "XLRE"].slice(0, kept).map((t) => summariesOf(state, [t], TODAY, NOW_MS)));
    const all = await summariesOf(state, ["TXN", "XLRE", "XLU", "LMT"], TODAY, NOW_MS);
    keptValues.forEach(([s], i) => {
      expect(all[i]).toBe(s);
    });
    expect(state.summaries.size).toBe(4);
    const key = (t: string) => `summary|${t}|${TODAY}|${NOW_MS}`;
    for (const t of ["TXN", "XLRE", "XLU", "LMT"]) {
      expect(state.summaries.has(key(t))).toBe(true);
      expect(state.memo.has(key(t))).toBe(false);
    }
  }, 60_000);
});
