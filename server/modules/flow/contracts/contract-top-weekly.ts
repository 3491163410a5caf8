// GET /v1/contract/top/weekly: the top-contract screener over the trailing 5 sessions ending on
// `date` (flowseeker.yaml `getTopContractsWeekly`). @see docs/methodology.md#flow-market-wide-screens
import type { z } from "zod";
import { TopContractsWeeklyDataSchema, TopContractsWeeklyQuerySchema } from "../../../../lib/api/flow-market";
import { rankTopContracts, weeklyContractRows, WEEKLY_SESSIONS, type TopContractRow } from "../../../../lib/flow";
import { apiErrors } from "../../../errors";
import { marketContractRows } from "../sessions/contract-top-table";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { summariesOverSessions, tickersToScan, trailingSessions } from "../sessions/market-scan";
import { resolveFlowDate } from "../sessions/tape";

type Query = z.output<typeof TopContractsWeeklyQuerySchema>;

function filtersOf(q: Query) {
  return {
    limit: q.limit,
    minPremium: q.min_premium,
    maxPremium: q.max_premium,
    minVolume: q.min_volume,
    maxVolume: q.max_volume,
    minOi: q.min_oi,
    maxOi: q.max_oi,
    right: q.right,
    minDte: q.min_dte,
    maxDte: q.max_dte,
    minStrike: q.min_strike,
    maxStrike: q.max_strike,
    expiration: q.expiration,
    minIv: q.min_iv,
    maxIv: q.max_iv,
    orderBy: q.order_by,
    order: q.order,
    onlySweeps: q.only_sweeps,
    onlyMultiLeg: q.only_multi_leg,
    excludeMultiLeg: q.exclude_multi_leg,
  };
}

export const contractTopWeeklyRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/top/weekly",
  operationId: "getTopContractsWeekly",
  cost: 1,
  query: TopContractsWeeklyQuerySchema,
  symbolsOf: (q) => (q.ticker ? [q.ticker.toUpperCase()] : []),
  check: (q) => {
    checkBounds(q, [
      ["min_premium", "max_premium"],
      ["min_volume", "max_volume"],
      ["min_oi", "max_oi"],
      ["min_dte", "max_dte"],
      ["min_strike", "max_strike"],
      ["min_iv", "max_iv"],
    ]);
    if (q.only_multi_leg && q.exclude_multi_leg) throw apiErrors.invalidParameter("exclude_multi_leg", "cannot be true together with `only_multi_leg`.");
  },
  data: TopContractsWeeklyDataSchema,
  summary: "Top contracts of the trailing week",
  description:
    "Each contract's daily rows over the 5 trading sessions ending on `date` folded into one (sums; last price, IV and open interest " +
    "of its latest session; OI change since before its first), then the filters and ranking of `/v1/contract/top/daily`.",
  tags: ["Contracts"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = resolveFlowDate(q.date, nowMs);
    const tickers = await tickersToScan(state, principal, q.ticker);
    const sessions = trailingSessions(date, WEEKLY_SESSIONS);
    // Market-wide: each finished session's contract table when stored (docs/methodology.md#flow-contract-top-table).
    const days: TopContractRow[][] = [];
    if (q.ticker === undefined) for (const d of sessions) days.push(await marketContractRows(state, tickers, d, nowMs, signal));
    else for (const day of await summariesOverSessions(state, tickers, sessions, nowMs, signal)) days.push(day.flatMap((s) => s.contracts));
    const rows = weeklyContractRows(date, days);
    return { data: rankTopContracts(rows, filtersOf(q)), meta: flowMeta(services, requestId) };
  },
});
