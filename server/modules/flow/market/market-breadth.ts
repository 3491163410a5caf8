// GET /v1/flow/market-breadth: index sentiment, advance/decline by FIR and sector rotation
// (flowseeker.yaml `getMarketBreadth`). @see docs/methodology.md#flow-market-wide-screens
import { MarketBreadthDataSchema, MarketBreadthQuerySchema } from "../../../../lib/api/flow-market";
import { directionalPremium, marketBreadth } from "../../../../lib/flow";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { scanTickers, summariesOf } from "../sessions/session-summary";
import { flowUniverse, resolveFlowDate } from "../sessions/tape";

export const marketBreadthRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/flow/market-breadth",
  operationId: "getMarketBreadth",
  cost: 3,
  query: MarketBreadthQuerySchema,
  data: MarketBreadthDataSchema,
  summary: "Market breadth from options flow",
  description:
    "SPY, QQQ and IWM flow sentiment and their combination, the count of tickers whose FIR is at or beyond `fir_threshold` either " +
    "way (advancing, declining) or inside it (unchanged), and each sector's FIR and rotation signal, over the caller's plan's tickers.",
  tags: ["Market"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = resolveFlowDate(q.date, nowMs);
    const universe = await flowUniverse(state);
    const summaries = await summariesOf(state, await scanTickers(state, principal), date, nowMs, signal);
    const tickers = summaries.map((s) => ({
      ticker: s.ticker,
      sector: universe.get(s.ticker)?.sector ?? "",
      traded: s.row !== null,
      ...directionalPremium(s.overviewTrades),
    }));
    return { data: marketBreadth(date, tickers, q.fir_threshold), meta: flowMeta(services, requestId) };
  },
});
