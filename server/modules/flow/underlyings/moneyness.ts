// GET /v1/moneyness/{ticker}: premium and sentiment by type and moneyness category, notable
// patterns and an interpretation (flowseeker.yaml `getMoneyness`).
// @see docs/methodology.md#flow-moneyness-breakdown
import { moneynessBreakdown, type ScoredTrade } from "../../../../lib/flow";
import { FlowRefTickerParamsSchema } from "../../../../lib/api/flow-feed";
import { MONEYNESS_TIMEFRAME_SESSIONS, MoneynessDataSchema, MoneynessQuerySchema } from "../../../../lib/api/flow-underlyings";
import { previousTradingDay } from "../../../../lib/time";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { yieldToTimers } from "../sessions/session-summary";
import { FLOW_FIRST_DATE, resolveFlowDate, resolveFlowTicker, sessionTape, tapeTrades, tapeTradesInWindow } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

/** The `intraday` window: the last hour of the session so far. */
const INTRADAY_MS = 3_600_000;

export const moneynessRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/moneyness/:ticker",
  operationId: "getMoneyness",
  cost: 1,
  query: MoneynessQuerySchema,
  params: FlowRefTickerParamsSchema,
  symbolsOf: tickerOfPath,
  data: MoneynessDataSchema,
  summary: "Flow by moneyness with patterns",
  description:
    "Premium, sentiment, share of the total, trade count and weighted premium of calls and puts in each moneyness category " +
    "(deep ITM to deep OTM), the notable patterns whose rules hold, and the conviction focus, dominant strategy and signal.",
  tags: ["Analytics"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    const keep = (t: ScoredTrade) => q.min_premium === undefined || t.premiumUsd >= q.min_premium;
    const trades: ScoredTrade[] = [];
    if (q.timeframe === "intraday") {
      const tape = await sessionTape(state, ticker, date, nowMs);
      trades.push(...tapeTradesInWindow(tape, Math.max(tape.openMs, tape.uptoMs - INTRADAY_MS), tape.uptoMs).filter(keep));
    } else {
      const n = MONEYNESS_TIMEFRAME_SESSIONS[q.timeframe];
      for (let d = date, k = 0; k < n && d >= FLOW_FIRST_DATE; d = previousTradingDay(d), k++) {
        await yieldToTimers();
        if (signal.aborted) throw signal.reason;
        const tape = await sessionTape(state, ticker, d, nowMs, { cache: d === date });
        for (const t of tapeTrades(tape)) if (keep(t)) trades.push(t);
      }
    }
    return { data: { ticker, timeframe: q.timeframe, ...moneynessBreakdown(trades) }, meta: flowMeta(services, requestId) };
  },
});
