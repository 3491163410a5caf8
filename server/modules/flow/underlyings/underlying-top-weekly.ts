// GET /v1/underlying/top/weekly: the top-underlying rows over the trailing 5 sessions ending on
// `date` (flowseeker.yaml `getTopUnderlyingsWeekly`). @see docs/methodology.md#flow-market-wide-screens
import { TopUnderlyingsWeeklyDataSchema, TopUnderlyingsWeeklyQuerySchema } from "../../../../lib/api/flow-market";
import { rankTopUnderlyings, topUnderlyingRow, WEEKLY_SESSIONS, type TickerSessionTotals, type TopUnderlyingRow } from "../../../../lib/flow";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { sessionTotalsOf } from "../sessions/market-session-table";
import { trailingSessions } from "../sessions/market-scan";
import { scanTickers } from "../sessions/session-summary";
import { resolveFlowDate } from "../sessions/tape";

export const underlyingTopWeeklyRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/top/weekly",
  operationId: "getTopUnderlyingsWeekly",
  cost: 1,
  query: TopUnderlyingsWeeklyQuerySchema,
  data: TopUnderlyingsWeeklyDataSchema,
  summary: "Top underlyings of the trailing week",
  description:
    "The rows of `/v1/underlying/top/daily` summed over the 5 trading sessions ending on `date` (today's session so far when it is " +
    "the current one), with the same floors, order and limit.",
  tags: ["Underlying"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = resolveFlowDate(q.date, nowMs);
    const tickers = await scanTickers(state, principal);
    // Each finished session's market-wide table when there is one (docs/methodology.md#flow-market-session-table).
    const days: Array<Array<TickerSessionTotals | null>> = [];
    for (const d of trailingSessions(date, WEEKLY_SESSIONS)) days.push(await sessionTotalsOf(state, tickers, d, nowMs, signal));
    const rows = tickers
      .map((t, j) =>
        topUnderlyingRow(
          t,
          days.map((d) => d[j]),
        ),
      )
      .filter((r): r is TopUnderlyingRow => r !== null);
    const data = rankTopUnderlyings(rows, { limit: q.limit, minPremium: q.min_premium, minVolume: q.min_volume, orderBy: q.order_by, order: q.order });
    return { data, meta: flowMeta(services, requestId) };
  },
});
