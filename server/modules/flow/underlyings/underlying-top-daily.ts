// GET /v1/underlying/top/daily: tickers of one session ranked by premium, volume, net premium or
// call/put ratio (flowseeker.yaml `getTopUnderlyingsDaily`). @see docs/methodology.md#flow-market-wide-screens
import { TopUnderlyingsDailyDataSchema, TopUnderlyingsDailyQuerySchema } from "../../../../lib/api/flow-market";
import { rankTopUnderlyings, topUnderlyingRow, type TopUnderlyingRow } from "../../../../lib/flow";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { scanTickers, summariesOf } from "../sessions/session-summary";
import { resolveFlowDate } from "../sessions/tape";

export const underlyingTopDailyRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/top/daily",
  operationId: "getTopUnderlyingsDaily",
  cost: 1,
  query: TopUnderlyingsDailyQuerySchema,
  data: TopUnderlyingsDailyDataSchema,
  summary: "Top underlyings of one session",
  description:
    "Every ticker of the caller's plan that traded options on `date`, with premium and volume by right, net premium and the call/put " +
    "premium ratio; floors on premium and volume, ranked by `order_by` (ties by ticker) and cut to `limit`.",
  tags: ["Underlying"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = resolveFlowDate(q.date, nowMs);
    const summaries = await summariesOf(state, await scanTickers(state, principal), date, nowMs, signal);
    const rows = summaries.map((s) => topUnderlyingRow(s.ticker, [s.row])).filter((r): r is TopUnderlyingRow => r !== null);
    const data = rankTopUnderlyings(rows, { limit: q.limit, minPremium: q.min_premium, minVolume: q.min_volume, orderBy: q.order_by, order: q.order });
    return { data, meta: flowMeta(services, requestId) };
  },
});
