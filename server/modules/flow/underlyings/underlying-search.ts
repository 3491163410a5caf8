// GET /v1/underlying/search: case-insensitive prefix search over the tickers active on a date
// (spec "Flow endpoints", `/v1/underlying/search` parameters; record "Ticker search row").
import { UnderlyingSearchDataSchema, UnderlyingSearchQuerySchema } from "../../../../lib/api/flow";
import { apiErrors } from "../../../errors";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { scanTickers, summariesOf } from "../sessions/session-summary";
import { resolveFlowDate } from "../sessions/tape";

export const underlyingSearchRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/search",
  operationId: "searchUnderlyings",
  cost: 1,
  query: UnderlyingSearchQuerySchema,
  check: (q) => {
    if (!/^[A-Z0-9._-]+$/.test(q.q)) throw apiErrors.invalidParameter("q", "must be letters, digits, `.`, `-` or `_`.");
  },
  data: UnderlyingSearchDataSchema,
  summary: "Prefix search of active tickers",
  description: "Tickers starting with `q` that traded options on the date, largest total premium first, with their premium and volume.",
  tags: ["Underlying"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = resolveFlowDate(q.date, nowMs);
    const tickers = (await scanTickers(state, principal)).filter((t) => t.startsWith(q.q));
    const rows = (await summariesOf(state, tickers, date, nowMs, signal))
      .filter((s) => s.row !== null)
      .map((s) => ({ ticker: s.ticker, totalPremium: s.row!.totalPremium, totalVolume: s.row!.totalVolume }))
      .sort((a, b) => b.totalPremium - a.totalPremium || (a.ticker < b.ticker ? -1 : 1))
      .slice(0, q.limit);
    return { data: rows, meta: flowMeta(services, requestId) };
  },
});
