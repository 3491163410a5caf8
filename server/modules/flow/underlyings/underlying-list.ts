// GET /v1/underlying: every ticker that traded options on a date, largest total premium first
// (flowseeker.yaml `listUnderlyings`). @see docs/methodology.md#flow-daily-rollups-and-the-screener
import { UnderlyingListDataSchema, UnderlyingListQuerySchema } from "../../../../lib/api/flow-underlyings";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { scanTickers, summariesOf } from "../sessions/session-summary";
import { resolveFlowDate } from "../sessions/tape";

export const underlyingListRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying",
  operationId: "listUnderlyings",
  cost: 1,
  query: UnderlyingListQuerySchema,
  data: UnderlyingListDataSchema,
  summary: "Tickers active on a date",
  description:
    "Every ticker (of the caller's plan) that traded options on `date`, largest total premium first (ties by ticker), with its premium " +
    "and volume, after the `min_premium` and `min_volume` floors and cut to `limit`.",
  tags: ["Underlying"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = resolveFlowDate(q.date, nowMs);
    const summaries = await summariesOf(state, await scanTickers(state, principal), date, nowMs, signal);
    const rows = [];
    for (const s of summaries) {
      if (s.row === null) continue;
      const { totalPremium, totalVolume } = s.row;
      if ((q.min_premium !== undefined && totalPremium < q.min_premium) || (q.min_volume !== undefined && totalVolume < q.min_volume)) continue;
      rows.push({ ticker: s.ticker, totalPremium, totalVolume });
    }
    rows.sort((a, b) => b.totalPremium - a.totalPremium || (a.ticker < b.ticker ? -1 : 1));
    return { data: rows.slice(0, q.limit), meta: flowMeta(services, requestId) };
  },
});
