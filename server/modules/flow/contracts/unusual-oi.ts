// GET /v1/contract/unusual-oi: contracts whose open interest moved sharply into the session
// (flowseeker.yaml `getContractUnusualOi`). @see docs/methodology.md#flow-market-wide-screens
import { UnusualOiDataSchema, UnusualOiQuerySchema } from "../../../../lib/api/flow-market";
import { unusualOi } from "../../../../lib/flow";
import { apiErrors } from "../../../errors";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { contractRowsOf, settledFlowDate, tickersToScan } from "../sessions/market-scan";

export const contractUnusualOiRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/unusual-oi",
  operationId: "getContractUnusualOi",
  cost: 3,
  query: UnusualOiQuerySchema,
  symbolsOf: (q) => (q.ticker ? [q.ticker.toUpperCase()] : []),
  check: (q) => {
    checkBounds(q, [["min_dte", "max_dte"]]);
    if (q.only_multi_leg && q.exclude_multi_leg) throw apiErrors.invalidParameter("exclude_multi_leg", "cannot be true together with `only_multi_leg`.");
  },
  data: UnusualOiDataSchema,
  summary: "Contracts with large open-interest changes",
  description:
    "Contracts traded on the target session whose open interest changed into it (OI at its start minus OI at the previous start) by " +
    "at least `min_oi_change` contracts and `min_oi_change_pct` percent; `direction` keeps openings (OI up), closings (OI down) or both.",
  tags: ["Contracts"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = settledFlowDate(q.date, nowMs);
    const rows = await contractRowsOf(state, await tickersToScan(state, principal, q.ticker), date, nowMs, q.ticker === undefined, signal);
    const data = unusualOi(date, rows, {
      limit: q.limit,
      minOiChange: q.min_oi_change,
      minOiChangePct: q.min_oi_change_pct,
      minPremium: q.min_premium,
      minVolume: q.min_volume,
      right: q.right,
      minDte: q.min_dte,
      maxDte: q.max_dte,
      direction: q.direction,
      orderBy: q.order_by,
      onlySweeps: q.only_sweeps,
      onlyMultiLeg: q.only_multi_leg,
      excludeMultiLeg: q.exclude_multi_leg,
    });
    return { data, meta: flowMeta(services, requestId) };
  },
});
