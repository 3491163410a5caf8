// GET /v1/market/overview: market-wide (or listed tickers') flow of the session so far (spec
// "Flow endpoints", `/v1/market/overview` parameters; record "Market overview").
import { timeSlicer } from "../../../yield-to-loop";
import { MarketOverviewQuerySchema } from "../../../../lib/api/flow";
import { marketOverview, MarketOverviewSchema, PREMIUM_RVOL_LOOKBACK_SESSIONS } from "../../../../lib/flow";
import { addTradingDays, previousTradingDay, sessionBounds } from "../../../../lib/time";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { cachedSummary, scanTickers, summariesOf, type SessionSummary } from "../sessions/session-summary";
import type { FlowState } from "../flow-route";
import { FLOW_FIRST_DATE, currentFlowDate, resolveFlowTickers } from "../sessions/tape";

/** The `premiumRvol` baseline of a request: the sessions it wants and the premiums of those built. */
interface Baseline {
  /** Trailing sessions the baseline is made of (20, fewer only near the first flow session). */
  wanted: number;
  /** Premium through the same time of day of each wanted session whose summaries are all built. */
  premiums: number[];
}

/**
 * Baseline premiums for `premiumRvol`: each of the trailing 20 sessions' premium through the same
 * time of day, over the same tickers, from the session summaries built or stored (building 20
 * market-wide sessions inside one request would pass its time limit: the daily fill builds them
 * in the background). @see docs/methodology.md#flow-session-summaries
 */
async function baselinePremiums(state: FlowState, tickers: readonly string[], date: string, elapsedMs: number): Promise<Baseline> {
  const premiums: number[] = [];
  let wanted = 0;
  const minute = Math.floor(elapsedMs / 60_000);
  let d = previousTradingDay(date);
  const first = addTradingDays(date, -PREMIUM_RVOL_LOOKBACK_SESSIONS);
  // Up to 20 sessions x the universe of stored summaries, each decoded on first read: sliced.
  const slice = timeSlicer();
  for (; d >= first && d >= FLOW_FIRST_DATE; d = previousTradingDay(d)) {
    wanted++;
    let sum = 0;
    let complete = true;
    for (const t of tickers) {
      const s = await cachedSummary(state, t, d);
      if (!s) {
        complete = false;
        break;
      }
      sum += s.premiumByMinute[Math.min(minute, s.premiumByMinute.length - 1)];
      await slice();
    }
    if (complete) premiums.push(sum);
  }
  return { wanted, premiums };
}

export const marketOverviewRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/market/overview",
  operationId: "getMarketOverview",
  cost: 3,
  query: MarketOverviewQuerySchema,
  symbolsOf: (q) => q.tickers ?? [],
  data: MarketOverviewSchema,
  summary: "Market-wide flow overview",
  description:
    "The current session so far across every ticker (or the listed ones): premium and volume by right, call/put ratio, bullish and " +
    "bearish premium, FIR, premium relative to the trailing 20-session baseline at the same time of day (null until that whole baseline " +
    "is built: `meta.baselineSessions` of `meta.baselineSessionsWanted`), and the top 10 tickers by premium.",
  tags: ["Market"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = currentFlowDate(nowMs);
    const tickers = q.tickers ? await resolveFlowTickers(state, q.tickers) : await scanTickers(state, principal);
    const summaries: SessionSummary[] = await summariesOf(state, tickers, date, nowMs, signal);
    const { openMs, closeMs } = sessionBounds(date);
    const elapsedMs = Math.min(closeMs, nowMs) - openMs;
    const { wanted, premiums } = await baselinePremiums(state, tickers, date, elapsedMs);
    // Only the whole baseline: a part of it would make the ratio depend on what this process has built.
    const complete = premiums.length === wanted;
    const data = marketOverview(
      date,
      summaries.map((s) => ({ ticker: s.ticker, trades: s.overviewTrades })),
      complete ? premiums : [],
    );
    return { data, meta: flowMeta(services, requestId, { baselineSessions: premiums.length, baselineSessionsWanted: wanted }) };
  },
});
