// GET /v1/chain-ratio/{ticker}: the chain's bid/ask/mid distribution, call/put and moneyness
// concentration (spec "Flow endpoints", `/v1/chain-ratio/{ticker}` parameters; record "Chain ratio").
import { ChainTimeframeQuerySchema, FlowTickerParamsSchema } from "../../../../lib/api/flow";
import { chainRatio, ChainRatioResultSchema, timeframeWindow } from "../../../../lib/flow";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { resolveFlowDate, resolveFlowTicker, sessionTape, tapeTradesInWindow } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

export const chainRatioRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/chain-ratio/:ticker",
  operationId: "getChainRatio",
  cost: 1,
  query: ChainTimeframeQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q) => checkBounds(q, [["min_dte", "max_dte"]]),
  data: ChainRatioResultSchema,
  summary: "Chain-level bid/ask/mid distribution",
  description:
    "Across the ticker's whole chain: call/put premium ratio, shares of trades at the ask, bid and mid, aggression, and how volume " +
    "concentrates at the money and out of the money, with an interpretation, over the trailing `timeframe` of the session.",
  tags: ["Ratios"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    const tape = await sessionTape(state, ticker, date, nowMs);
    const { fromMs, toMs } = timeframeWindow(date, q.timeframe, nowMs);
    const data = chainRatio(tapeTradesInWindow(tape, fromMs, toMs), {
      ticker,
      date,
      timeframe: q.timeframe,
      optionType: q.option_type,
      minPremiumUsd: q.min_premium,
      minDte: q.min_dte,
      maxDte: q.max_dte,
    });
    return { data, meta: flowMeta(services, requestId) };
  },
});
