// GET /v1/underlying/{ticker}/chart: zero-filled bars of a ticker's option volume and premium by
// right, P/C ratio, bid/ask execution split and the underlying price (flowseeker.yaml
// `getUnderlyingChart`). Priced 3 credits per started 30 trading days.
// @see docs/methodology.md#flow-chart-bars
import { barIntervals, underlyingBars, withBaselines, type ScoredTrade } from "../../../../lib/flow";
import { chartCost, ChartQuerySchema, UnderlyingChartDataSchema } from "../../../../lib/api/flow-charts";
import { FlowRefTickerParamsSchema } from "../../../../lib/api/flow-feed";
import { cachedChartBaselines } from "../shared/chart-baseline-cache";
import { chartSessions, checkChartRange } from "../shared/chart-window";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { yieldToTimers } from "../sessions/session-summary";
import { resolveFlowTicker, sessionTape, tapeTrades } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

export const underlyingChartRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/chart",
  operationId: "getUnderlyingChart",
  cost: (q) => chartCost(q.interval),
  query: ChartQuerySchema,
  params: FlowRefTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: checkChartRange,
  data: UnderlyingChartDataSchema,
  summary: "Chart bars of a ticker's options flow",
  description:
    "Every bar of the last `interval` trading days at `bucket` size, oldest first and zero-filled: call and put volume and premium, " +
    "P/C volume ratio, the percent of volume at or below the bid and at or above the ask, and the underlying price at the bar's end. " +
    "`avgVolume`/`avgPremium`: the average of the bar's time of day over the 30 sessions before the window (omitted without history). " +
    "Priced 3 credits per started 30 trading days.",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const sessions = chartSessions(q.interval, nowMs);
    const trades: ScoredTrade[] = [];
    for (const s of sessions) {
      await yieldToTimers();
      if (signal.aborted) throw signal.reason;
      const tape = await sessionTape(state, ticker, s.date, nowMs, { cache: s === sessions[sessions.length - 1] });
      for (const t of tapeTrades(tape)) trades.push(t);
    }
    const bars = barIntervals(sessions, q.bucket);
    const prices = new Map<number, number>();
    for (const b of bars) {
      const atMs = Math.min(b.endMs, nowMs) - 1;
      prices.set(b.endMs, (await services.market.spot(ticker, atMs)) ?? lastUnderlyingBefore(trades, b.endMs));
    }
    const baselines = await cachedChartBaselines(
      state,
      ticker,
      { kind: "ticker" },
      sessions.map((s) => s.date),
      q.bucket,
      nowMs,
      signal,
    );
    return {
      data: withBaselines(
        underlyingBars(trades, bars, (endMs) => prices.get(endMs) ?? 0),
        baselines,
      ),
      meta: flowMeta(services, requestId),
    };
  },
});

/** The underlying price of the last print before `tsMs` (0 when none): for roots the market prices no spot for. */
function lastUnderlyingBefore(trades: readonly ScoredTrade[], tsMs: number): number {
  let lo = 0;
  let hi = trades.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (trades[mid].tsMs < tsMs) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? trades[lo - 1].underlyingPrice : 0;
}
