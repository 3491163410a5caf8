// GET /v1/contract/unusual-volume: contracts trading far above their own average daily volume
// (flowseeker.yaml `getContractUnusualVolume`). @see docs/methodology.md#flow-market-wide-screens
import { UnusualVolumeDataSchema, UnusualVolumeMetaSchema, UnusualVolumeQuerySchema } from "../../../../lib/api/flow-market";
import { unusualVolume, type TopContractRow } from "../../../../lib/flow";
import { apiErrors } from "../../../errors";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { contractRowsOf, sessionsBefore, settledFlowDate, tickersToScan } from "../sessions/market-scan";

export const contractUnusualVolumeRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/unusual-volume",
  operationId: "getContractUnusualVolume",
  cost: 3,
  query: UnusualVolumeQuerySchema,
  symbolsOf: (q) => (q.ticker ? [q.ticker.toUpperCase()] : []),
  check: (q) => {
    checkBounds(q, [
      ["min_dte", "max_dte"],
      ["min_strike", "max_strike"],
      ["min_oi_change", "max_oi_change"],
      ["min_moneyness_pct", "max_moneyness_pct"],
      ["min_iv", "max_iv"],
    ]);
    if (q.only_multi_leg && q.exclude_multi_leg) throw apiErrors.invalidParameter("exclude_multi_leg", "cannot be true together with `only_multi_leg`.");
  },
  data: UnusualVolumeDataSchema,
  meta: UnusualVolumeMetaSchema,
  summary: "Contracts with unusual relative volume",
  description:
    "Contracts whose volume on the target session is at least `min_rvol` times their mean daily volume over the `avg_period` sessions " +
    "before it, with the reference's filters on volume, OI change, premium, IV, moneyness, side imbalance, sweeps and multi-leg trades; " +
    "ranked by `order_by`, largest first. The first call over a new baseline reads every ticker's sessions once.",
  tags: ["Contracts"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = settledFlowDate(q.date, nowMs);
    const tickers = await tickersToScan(state, principal, q.ticker);
    const marketWide = q.ticker === undefined;
    const today = await contractRowsOf(state, tickers, date, nowMs, marketWide, signal);
    const baselineDates = sessionsBefore(date, q.avg_period);
    const baseline: TopContractRow[][] = [];
    for (const d of baselineDates) baseline.push(await contractRowsOf(state, tickers, d, nowMs, marketWide, signal));
    const data = unusualVolume(date, today, baseline, {
      limit: q.limit,
      minRvol: q.min_rvol,
      minAvgVolume: q.min_avg_volume,
      minPremium: q.min_premium,
      right: q.right,
      minDte: q.min_dte,
      maxDte: q.max_dte,
      minStrike: q.min_strike,
      maxStrike: q.max_strike,
      expiration: q.expiration,
      minVolOiRatio: q.min_vol_oi_ratio,
      minOiChange: q.min_oi_change,
      maxOiChange: q.max_oi_change,
      minOiChangePct: q.min_oi_change_pct,
      onlySweeps: q.only_sweeps,
      onlyMultiLeg: q.only_multi_leg,
      excludeMultiLeg: q.exclude_multi_leg,
      minBidImbalance: q.min_bid_imbalance,
      minAskImbalance: q.min_ask_imbalance,
      moneyness: q.moneyness,
      minMoneynessPct: q.min_moneyness_pct,
      maxMoneynessPct: q.max_moneyness_pct,
      minIv: q.min_iv,
      maxIv: q.max_iv,
      excludeTickers: q.exclude_tickers,
      orderBy: q.order_by,
    });
    return { data, meta: flowMeta(services, requestId, { date, avgPeriod: q.avg_period, baselineSessions: baselineDates.length }) };
  },
});
