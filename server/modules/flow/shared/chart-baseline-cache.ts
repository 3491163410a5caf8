/**
 * The chart bars' 30-session time-of-day baselines, cached: the baselines of a window's complete
 * bars are computed once per (ticker or contract, bucket, window) and kept in a bounded LRU; only
 * the bar that holds "now" (partial: cut at now's time of day) is computed per request, from the
 * baseline sessions' prints over that bar's offsets alone. Same `rvol` arithmetic over the same
 * prints, so the values equal the direct computation (rvol over the 30 sessions' whole prints:
 * the oracle of test/server/modules/flow/chart-baseline-cache.test.ts).
 * @see docs/methodology.md#flow-chart-baseline-cache
 */
import { CHART_BASELINE_SESSIONS, rvol, type BarBaseline, type ChartBucket, type RvolPrint, type RvolSession } from "../../../../lib/flow";
import { addTradingDays, previousTradingDay, sessionBounds, tradingDaysBetween } from "../../../../lib/time";
import { cacheShareBytes } from "../../../cache/cache-budget";
import { LruCache } from "../../../cache/lru-cache";
import type { FlowState } from "../flow-route";
import { yieldToTimers } from "../sessions/session-summary";
import { FLOW_FIRST_DATE, sessionPrints } from "../sessions/tape";

/** One bar's baseline with its end (ms): a bar ending after now is partial and not taken from the cache. */
interface CachedBar {
  baseline: BarBaseline;
  endMs: number;
}

/** Windows kept per app, within the budget's `flowChartBaselines` share: one is at most 30 sessions x 390 one-minute bars (~1 MB); most are a few hundred bars. */

const caches = new WeakMap<FlowState, LruCache<string, Promise<Map<number, CachedBar>>>>();

function cacheOf(state: FlowState): LruCache<string, Promise<Map<number, CachedBar>>> {
  let c = caches.get(state);
  if (!c) {
    c = new LruCache<string, Promise<Map<number, CachedBar>>>({ maxBytes: cacheShareBytes(state.services.cacheBytes, "flowChartBaselines") });
    caches.set(state, c);
  }
  return c;
}

type Scope = { kind: "contract"; symbol: string } | { kind: "ticker" };

/** The baseline sessions of a window starting on `first`: the 30 trading sessions before it, none before the first with data. */
function baselineDates(first: string): string[] {
  return tradingDaysBetween(addTradingDays(first, -CHART_BASELINE_SESSIONS), previousTradingDay(first)).filter((d) => d >= FLOW_FIRST_DATE);
}

/** Each bar's baseline by start (ms), from `rvol` over the baseline sessions' prints, as of `asOfMs`. */
function baselineBars(scope: Scope, baseline: readonly RvolSession[], view: readonly string[], bucket: ChartBucket, asOfMs: number): Map<number, CachedBar> {
  const options = {
    date: view[view.length - 1],
    interval: `${view.length}D`,
    bucket,
    avgPeriod: `${CHART_BASELINE_SESSIONS}d`,
    asOfMs,
    orderBy: "time",
    order: "asc",
    format: "full",
  } as const;
  // The view's own prints do not enter the averages: the view sessions are left out.
  const bars = (scope.kind === "contract" ? rvol(scope, baseline, options).bars : rvol(scope, baseline, options).bars) ?? [];
  const out = new Map<number, CachedBar>();
  for (const b of bars) {
    if (b.avgVolume !== null && b.avgPremium !== null)
      out.set(Date.parse(b.timestamp), { baseline: { avgVolume: b.avgVolume, avgPremium: b.avgPremium }, endMs: Date.parse(b.timestampEnd) });
  }
  return out;
}

/** Reads the baseline sessions one by one (yielding to timers, honouring the request's abort). */
async function readBaseline(dates: readonly string[], read: (d: string) => Promise<readonly RvolPrint[]>, signal: AbortSignal): Promise<RvolSession[]> {
  const out: RvolSession[] = [];
  for (const d of dates) {
    await yieldToTimers();
    if (signal.aborted) throw signal.reason;
    out.push({ date: d, prints: await read(d) });
  }
  return out;
}

/**
 * Each bar's baseline by bar start (ms) for the window `view` (its sessions, oldest first) as of
 * `nowMs`: rvol's averages over the 30 baseline sessions, with the complete bars' values cached.
 */
export async function cachedChartBaselines(
  state: FlowState,
  ticker: string,
  scope: Scope,
  view: readonly string[],
  bucket: ChartBucket,
  nowMs: number,
  signal: AbortSignal,
): Promise<Map<number, BarBaseline>> {
  const out = new Map<number, BarBaseline>();
  if (view.length === 0) return out;
  const baseline = baselineDates(view[0]);
  if (baseline.length === 0) return out;
  const lastClose = sessionBounds(view[view.length - 1]).closeMs;

  // Every bar of the window as if it were over: a complete bar's baseline does not depend on now.
  const cache = cacheOf(state);
  const key = `${ticker}|${scope.kind === "contract" ? scope.symbol : "*"}|${bucket}|${view[0]}|${view[view.length - 1]}`;
  let whole = cache.get(key);
  if (!whole) {
    whole = readBaseline(baseline, (d) => sessionPrints(state, ticker, d, sessionBounds(d).closeMs), signal).then((sessions) =>
      baselineBars(scope, sessions, view, bucket, lastClose),
    );
    cache.set(key, whole);
    whole.catch(() => cache.delete(key));
  }
  let partialStart = Number.NaN;
  for (const [startMs, bar] of await whole) {
    if (startMs >= nowMs) continue; // not begun: not shown
    if (bar.endMs <= nowMs) out.set(startMs, bar.baseline);
    else partialStart = startMs;
  }
  if (Number.isNaN(partialStart)) return out;

  // The bar holding now: its pieces' offsets are cut at now's time of day. Each baseline
  // session's prints (the finished sessions' cached prints) are kept over those offsets only, so
  // rvol sums that bar alone (a piece spans [0, its end) for daily bars; a weekly bar also holds
  // earlier whole sessions of the week). A narrow market read would cost as much as a whole
  // session's on the simulated market, and the whole sessions are usually cached.
  const fromOffset = bucket === "1d" || bucket === "1w" ? 0 : partialStart - sessionBounds(view[view.length - 1]).openMs;
  const toOffset = bucket === "1w" ? Number.POSITIVE_INFINITY : nowMs - sessionBounds(view[view.length - 1]).openMs;
  const sessions = await readBaseline(
    baseline,
    async (d) => {
      const { openMs, closeMs } = sessionBounds(d);
      const prints = await sessionPrints(state, ticker, d, closeMs);
      return prints.filter((p) => p.tsMs >= openMs + fromOffset && p.tsMs < openMs + toOffset);
    },
    signal,
  );
  const partial = baselineBars(scope, sessions, view, bucket, nowMs).get(partialStart);
  if (partial) out.set(partialStart, partial.baseline);
  return out;
}
