// GET /v1/flow/{ticker}/aggregate: VWF, SDF, FIR, the composite and the premium split over an
// arbitrary [start_time, end_time) window of one session (flowseeker.yaml `getFlowAggregate`).
// @see docs/methodology.md#flow-window-aggregate
import { compositeBias, signalStrength, windowScores } from "../../../../lib/flow";
import { FlowAggregateDataSchema, FlowAggregateQuerySchema, FlowRefTickerParamsSchema } from "../../../../lib/api/flow-feed";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { resolveFlowDate, resolveFlowInstantDate, resolveFlowTicker, sessionTape, tapeTradesInWindow } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

export const flowAggregateRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/flow/:ticker/aggregate",
  operationId: "getFlowAggregate",
  cost: 3,
  query: FlowAggregateQuerySchema,
  params: FlowRefTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q) => {
    checkBounds(q, [
      ["min_dte", "max_dte"],
      ["start_time", "end_time"],
    ]);
  },
  data: FlowAggregateDataSchema,
  summary: "Flow scores over a time window",
  description:
    "Trade and sweep counts, VWF, SDF, FIR and the composite, and the bullish, bearish and neutral premium split of the ticker's " +
    "option trades in `[start_time, end_time)` of one session, after the filters; no row cap.",
  tags: ["Flow"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const started = services.wallNowMs();
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = q.date ? resolveFlowDate(q.date, nowMs, "date") : resolveFlowInstantDate(q.start_time, nowMs, "start_time");
    const tape = await sessionTape(state, ticker, date, nowMs);
    const fromMs = Math.max(tape.openMs, q.start_time);
    const toMs = Math.max(fromMs, Math.min(tape.uptoMs, q.end_time));
    const trades = tapeTradesInWindow(tape, fromMs, toMs).filter(
      (t) =>
        (q.option_type === "all" || (q.option_type === "call") === (t.right === "C")) &&
        (q.min_premium === undefined || t.premiumUsd >= q.min_premium) &&
        (!q.exclude_multi_leg || !t.isMultiLeg) &&
        (q.min_dte === undefined || t.dte >= q.min_dte) &&
        (q.max_dte === undefined || t.dte <= q.max_dte),
    );
    const w = windowScores(trades);
    return {
      data: {
        ticker,
        date,
        startTime: new Date(fromMs).toISOString(),
        endTime: new Date(toMs).toISOString(),
        tradeCount: w.tradeCount,
        sweepCount: w.sweepCount,
        totalPremium: w.totalPremium,
        aggregate: { vwf: w.vwf, sdf: w.sdf, fir: w.fir, composite: w.composite },
        premiumSplit: {
          bullishPremium: w.bullishPremium,
          bearishPremium: w.bearishPremium,
          neutralPremium: w.neutralPremium,
          netPremium: w.netPremium,
          bullishCount: w.bullishCount,
          bearishCount: w.bearishCount,
          neutralCount: w.neutralCount,
          sweepPremium: w.sweepPremium,
        },
        interpretation: { bias: compositeBias(w.composite), signalStrength: signalStrength(w.composite, w.tradeCount) },
        queryTimeMs: Math.max(0, Math.round(services.wallNowMs() - started)),
      },
      meta: flowMeta(services, requestId),
    };
  },
});
