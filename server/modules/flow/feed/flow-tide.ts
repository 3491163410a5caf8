// GET /v1/flow/{ticker}/tide: bullish vs bearish premium per bucket with cumulative net premium
// (spec names the endpoint; parameters and shape from the reference's getFlowTide).
import { FlowTickerParamsSchema, FlowTideDataSchema, FlowTideQuerySchema } from "../../../../lib/api/flow";
import { flowTide } from "../../../../lib/flow";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { resolveFlowDate, resolveFlowInstantDate, resolveFlowTicker, sessionTape, tapeTrades } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

export const flowTideRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/flow/:ticker/tide",
  operationId: "getFlowTide",
  cost: 3,
  query: FlowTideQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q) => {
    checkBounds(q, [
      ["min_dte", "max_dte"],
      ["start_time", "end_time"],
    ]);
  },
  data: FlowTideDataSchema,
  summary: "Per-ticker flow tide",
  description:
    "Bullish and bearish premium per bucket from the open (empty buckets included), with the cumulative call-minus-put and " +
    "bullish-minus-bearish premium, and each bucket's VWF, SDF and FIR.",
  tags: ["Flow"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const started = services.wallNowMs();
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = q.date ? resolveFlowDate(q.date, nowMs, "date") : resolveFlowInstantDate(q.start_time, nowMs, "start_time");
    const tape = await sessionTape(state, ticker, date, nowMs);
    const fromMs = Math.max(tape.openMs, q.start_time);
    const toMs = Math.max(fromMs, Math.min(tape.uptoMs, q.end_time));
    const trades = tapeTrades(tape).filter(
      (t) =>
        (q.option_type === "all" || (q.option_type === "call") === (t.right === "C")) &&
        (q.min_premium === undefined || t.premiumUsd >= q.min_premium) &&
        (!q.exclude_multi_leg || !t.isMultiLeg) &&
        (q.min_dte === undefined || t.dte >= q.min_dte) &&
        (q.max_dte === undefined || t.dte <= q.max_dte),
    );
    const bars = flowTide(trades, { date, bucket: q.bucket, fromMs, toMs });
    return {
      data: {
        ticker,
        date,
        bucket: q.bucket,
        startTime: new Date(fromMs).toISOString(),
        endTime: new Date(toMs).toISOString(),
        bars,
        queryTimeMs: Math.max(0, Math.round(services.wallNowMs() - started)),
      },
      meta: flowMeta(services, requestId),
    };
  },
});
