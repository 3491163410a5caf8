// GET /v1/flow/{ticker}/momentum: the 5-minute, 30-minute and 1-hour flow against the same time
// of day in the trailing sessions (spec names the endpoint; parameters and shape from the
// reference's getFlowMomentum).
import { FlowMomentumDataSchema, FlowMomentumQuerySchema, FlowTickerParamsSchema } from "../../../../lib/api/flow";
import { aggressionOf, classifySide, flowMomentum, premiumUsd, type TideTrade } from "../../../../lib/flow";
import type { OptionPrint } from "../../../../lib/market/market-data";
import { isCrossPrint } from "../../../../lib/market/prints/conditions";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { apiErrors } from "../../../errors";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { yieldToTimers } from "../sessions/session-summary";
import { FLOW_FIRST_DATE, currentFlowDate, resolveFlowTicker, sessionPrints, sessionTape, tapeTrades } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

/**
 * A baseline print as the momentum windows read it: direction and premium only (the windows do not
 * read Flow Scores, so baseline sessions need no scoring). @see docs/methodology.md#flow-momentum
 */
function windowTrade(p: OptionPrint): TideTrade {
  return {
    tsMs: p.tsMs,
    right: p.right,
    premiumUsd: premiumUsd(p.price, p.size),
    size: p.size,
    aggression: isCrossPrint(p) ? 0 : aggressionOf(classifySide(p.price, p.nbboBid, p.nbboAsk)),
    isSweep: false,
    flowScore: 0,
  };
}

export const flowMomentumRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/flow/:ticker/momentum",
  operationId: "getFlowMomentum",
  cost: 3,
  query: FlowMomentumQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q, { nowMs }) => {
    checkBounds(q, [["min_dte", "max_dte"]]);
    if (q.as_of !== undefined && q.as_of > nowMs) throw apiErrors.invalidParameter("as_of", "must not be in the future.");
    // Before the first session there is no flow (and `0` has no session date at all: once a 500).
    if (q.as_of !== undefined && q.as_of < sessionBounds(FLOW_FIRST_DATE).openMs) {
      throw apiErrors.invalidParameter("as_of", `must not be before the open of the first session (${FLOW_FIRST_DATE}).`);
    }
  },
  data: FlowMomentumDataSchema,
  summary: "Flow momentum against the time-of-day baseline",
  description:
    "Trades, premium and FIR of the last 5 minutes, 30 minutes and hour, the 5-minute premium and FIR as z-scores against the same " +
    "time of day over `lookback_days` sessions, and a trend label (accelerating, directional or neutral).",
  tags: ["Flow"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const started = services.wallNowMs();
    const ticker = await resolveFlowTicker(state, p.ticker);
    const asOfMs = q.as_of ?? nowMs;
    const date = currentFlowDate(asOfMs);
    const inDte = (dte: number) => (q.min_dte === undefined || dte >= q.min_dte) && (q.max_dte === undefined || dte <= q.max_dte);
    const tape = await sessionTape(state, ticker, date, asOfMs);
    const today = tapeTrades(tape).filter((t) => inDte(t.dte));
    const baseline: { date: string; trades: TideTrade[] }[] = [];
    let d = date;
    for (let k = 0; k < q.lookback_days; k++) {
      d = previousTradingDay(d);
      if (d < FLOW_FIRST_DATE) break;
      await yieldToTimers();
      if (signal.aborted) throw signal.reason;
      const dayMs = Date.parse(`${d}T00:00:00Z`);
      const prints = await sessionPrints(state, ticker, d, sessionBounds(d).closeMs);
      baseline.push({
        date: d,
        trades: prints.filter((x) => inDte(Math.max(0, Math.round((Date.parse(`${x.expiry}T00:00:00Z`) - dayMs) / 86_400_000)))).map(windowTrade),
      });
    }
    const data = flowMomentum(today, baseline.reverse(), { date, asOfMs: Math.min(asOfMs, tape.closeMs), lookbackDays: q.lookback_days });
    return { data: { ticker, ...data, queryTimeMs: Math.max(0, Math.round(services.wallNowMs() - started)) }, meta: flowMeta(services, requestId) };
  },
});
