// The chart baselines' cache: a window's complete bars are computed once; a repeated request reads
// no baseline print; the bar holding now is recomputed from its own offsets only. Every value equals
// the uncached computation (`chartBaselines`, rvol over the 30 baseline sessions' whole prints).
import { describe, expect, it } from "vitest";
import type { MarketData } from "../../../../lib/market/market-data";
import { sessionBounds } from "../../../../lib/time";
import { cachedChartBaselines } from "../../../../server/modules/flow/shared/chart-baseline-cache";
import { CHART_BASELINE_SESSIONS, rvol, type BarBaseline, type ChartBucket, type RvolSession } from "../../../../lib/flow";
import { addTradingDays, previousTradingDay, tradingDaysBetween } from "../../../../lib/time";
import { chartSessions } from "../../../../server/modules/flow/shared/chart-window";
import { yieldToTimers } from "../../../../server/modules/flow/sessions/session-summary";
import { FLOW_FIRST_DATE, sessionPrints } from "../../../../server/modules/flow/sessions/tape";
import { createFlowState, type FlowState } from "../../../../server/modules/flow/flow-route";
import type { AppServices } from "../../../../server/services";
import { makeHarness } from "../../_harness";
import { flowModule } from "../../../../server/modules/flow";
import { metaModule } from "../../../../server/modules/meta";
import { NOW_MS, PRIOR, simMarket } from "./_flow-harness";
import { watchedMarket } from "../../_watched-market";

const M = 60_000;

/** The simulated market recording each `optionPrints` window. */
function recordingMarket(): { market: MarketData; reads: Array<{ fromMs: number; toMs: number }> } {
  const reads: Array<{ fromMs: number; toMs: number }> = [];
  return { market: watchedMarket(simMarket, { onPrints: (_t, fromMs, toMs) => reads.push({ fromMs, toMs }) }), reads };
}

const stateOf = (market: MarketData): FlowState => createFlowState({ market } as unknown as AppServices);
const signal = new AbortController().signal;

/**
 * The oracle: each bar's baseline by bar start (ms) computed the direct way, rvol over the
 * CHART_BASELINE_SESSIONS whole sessions before the window (those from the first with data)
 * plus the window's sessions (docs/methodology.md#flow-chart-baselines).
 */
async function chartBaselines(
  state: FlowState,
  ticker: string,
  scope: { kind: "contract"; symbol: string } | { kind: "ticker" },
  view: readonly RvolSession[],
  bucket: ChartBucket,
  nowMs: number,
  signal: AbortSignal,
): Promise<Map<number, BarBaseline>> {
  const out = new Map<number, BarBaseline>();
  if (view.length === 0) return out;
  const first = view[0].date;
  const baseline = tradingDaysBetween(addTradingDays(first, -CHART_BASELINE_SESSIONS), previousTradingDay(first)).filter((d) => d >= FLOW_FIRST_DATE);
  if (baseline.length === 0) return out;
  const sessions: RvolSession[] = [];
  for (const d of baseline) {
    await yieldToTimers();
    if (signal.aborted) throw signal.reason;
    sessions.push({ date: d, prints: await sessionPrints(state, ticker, d, sessionBounds(d).closeMs) });
  }
  const options = {
    date: view[view.length - 1].date,
    interval: `${view.length}D`,
    bucket,
    avgPeriod: `${CHART_BASELINE_SESSIONS}d`,
    asOfMs: nowMs,
    orderBy: "time",
    order: "asc",
    format: "full",
  } as const;
  const all = [...sessions, ...view];
  // Two calls for rvol's two overloads (contract and ticker scope).
  const bars = (scope.kind === "contract" ? rvol(scope, all, options).bars : rvol(scope, all, options).bars) ?? [];
  for (const b of bars) {
    if (b.avgVolume !== null && b.avgPremium !== null) out.set(Date.parse(b.timestamp), { avgVolume: b.avgVolume, avgPremium: b.avgPremium });
  }
  return out;
}

/** The uncached baselines (every baseline session read whole, rvol over all of them). */
async function uncached(scope: Parameters<typeof chartBaselines>[2], days: number, bucket: Parameters<typeof chartBaselines>[4], nowMs: number) {
  const view = chartSessions(days, nowMs).map((s) => ({ date: s.date, prints: [] }));
  return chartBaselines(stateOf(simMarket), "XOM", scope, view, bucket, nowMs, signal);
}

/** A contract of XOM that traded on the prior session. */
async function busyContract(): Promise<string> {
  const { openMs, closeMs } = sessionBounds(PRIOR);
  const counts = new Map<string, number>();
  for (const p of await simMarket.optionPrints("XOM", openMs, closeMs)) counts.set(p.symbol, (counts.get(p.symbol) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

describe("chart baseline cache", () => {
  it("equals the uncached baselines at bar ends and inside a bar, for ticker and contract, intraday, 1d and 1w", async () => {
    const symbol = await busyContract();
    const rec = recordingMarket();
    const state = stateOf(rec.market);
    const cases = [
      [{ kind: "ticker" }, 2, "10min", NOW_MS],
      [{ kind: "ticker" }, 2, "10min", NOW_MS + 5.5 * M], // inside the 10:00-10:10 bar
      [{ kind: "ticker" }, 1, "1d", NOW_MS + 2 * M],
      [{ kind: "ticker" }, 5, "1w", NOW_MS + 2 * M],
      [{ kind: "contract", symbol }, 2, "15min", NOW_MS + 7 * M],
    ] as const;
    for (const [scope, days, bucket, nowMs] of cases) {
      const view = chartSessions(days, nowMs).map((s) => s.date);
      const got = await cachedChartBaselines(state, "XOM", scope, view, bucket, nowMs, signal);
      const want = await uncached(scope, days, bucket, nowMs);
      expect(got.size, `${bucket} ${days}D`).toBeGreaterThan(0);
      expect(got.size).toBe(want.size);
      for (const [start, b] of want) expect(got.get(start), `${bucket} bar ${new Date(start).toISOString()}`).toEqual(b);
    }
  }, 60_000);

  it("a second request for the window reads no print; a later one inside a bar reads none either (the baseline sessions' prints are cached)", async () => {
    const rec = recordingMarket();
    const state = stateOf(rec.market);
    const view = chartSessions(2, NOW_MS).map((s) => s.date);
    const first = await cachedChartBaselines(state, "XOM", { kind: "ticker" }, view, "10min", NOW_MS, signal);
    expect(rec.reads.length).toBe(30); // each baseline session once, whole
    rec.reads.length = 0;
    const again = await cachedChartBaselines(state, "XOM", { kind: "ticker" }, view, "10min", NOW_MS, signal);
    expect(rec.reads.length).toBe(0);
    expect(again).toEqual(first);
    const later = NOW_MS + 5.5 * M;
    const inside = await cachedChartBaselines(state, "XOM", { kind: "ticker" }, view, "10min", later, signal);
    expect(rec.reads.length).toBe(0);
    // The complete bars come from the cache unchanged; one more bar (the partial one) is shown.
    expect(inside.size).toBe(first.size + 1);
    for (const [start, b] of first) expect(inside.get(start)).toEqual(b);
  }, 60_000);

  it("through the route: a repeated chart request reads no baseline print and returns the same bars", async () => {
    const rec = recordingMarket();
    const h = makeHarness({ market: rec.market, nowMs: NOW_MS, credits: 1_000, modules: [metaModule, flowModule] });
    const firstView = sessionBounds(PRIOR).openMs;
    const baselineReads = () => rec.reads.filter((r) => r.fromMs < firstView).length;
    const a = await (await h.get("/v1/underlying/XOM/chart?interval=2D&bucket=30min")).json();
    expect(baselineReads()).toBe(30);
    rec.reads.length = 0;
    const b = await (await h.get("/v1/underlying/XOM/chart?interval=2D&bucket=30min")).json();
    expect(baselineReads()).toBe(0);
    expect(b.data).toEqual(a.data);
    expect(a.data.some((bar: { avgVolume?: number }) => (bar.avgVolume ?? 0) > 0)).toBe(true);
  }, 60_000);
});
