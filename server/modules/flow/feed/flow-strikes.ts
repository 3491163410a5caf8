// GET /v1/flow/{ticker}/strikes: the strikes carrying a window's premium, with the top-3
// concentration (flowseeker.yaml `getFlowStrikes`). @see docs/methodology.md#flow-strike-concentration
import { strikeBreakdown } from "../../../../lib/flow";
import { FlowRefTickerParamsSchema, FlowStrikesDataSchema, FlowStrikesQuerySchema } from "../../../../lib/api/flow-feed";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { resolveFlowInstantDate, resolveFlowTicker, sessionTape, tapeTradesInWindow } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

export const flowStrikesRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/flow/:ticker/strikes",
  operationId: "getFlowStrikes",
  cost: 3,
  query: FlowStrikesQuerySchema,
  params: FlowRefTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q) => {
    checkBounds(q, [
      ["min_dte", "max_dte"],
      ["start_time", "end_time"],
    ]);
  },
  data: FlowStrikesDataSchema,
  summary: "Strike concentration of a time window",
  description:
    "The ticker's traded strikes in `[start_time, end_time)` of one session, each with premium, volume, bullish, bearish and net " +
    "premium, ask and bid premium shares, the dominant expiration and open interest, ordered by `order_by` and cut to `top_n`; " +
    "plus the share and net premium of the top three.",
  tags: ["Flow"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowInstantDate(q.start_time, nowMs, "start_time");
    const tape = await sessionTape(state, ticker, date, nowMs);
    const fromMs = Math.max(tape.openMs, q.start_time);
    const toMs = Math.max(fromMs, Math.min(tape.uptoMs, q.end_time));
    const trades = tapeTradesInWindow(tape, fromMs, toMs).filter(
      (t) => (q.min_dte === undefined || t.dte >= q.min_dte) && (q.max_dte === undefined || t.dte <= q.max_dte),
    );
    const { byStrike, concentration } = strikeBreakdown(trades, {
      topN: q.top_n,
      orderBy: q.order_by,
      right: q.right === undefined ? undefined : q.right === "call" ? "C" : "P",
      minPremiumUsd: q.min_premium,
      openInterest: tape.oi,
    });
    return {
      data: { ticker, date, startTime: new Date(fromMs).toISOString(), endTime: new Date(toMs).toISOString(), byStrike, concentration },
      meta: flowMeta(services, requestId),
    };
  },
});
