// GET /v1/contract/top/daily: the single-day top-contract screener (spec "Flow endpoints",
// `/v1/contract/top/daily` parameters; record "Top contract row").
import type { z } from "zod";
import { TopContractsDailyDataSchema, TopContractsDailyQuerySchema } from "../../../../lib/api/flow";
import { rankContractTable, rankTopContracts } from "../../../../lib/flow";
import { rankInSlices } from "./rank-in-slices";
import { apiErrors } from "../../../errors";
import { isFinishedSession, rememberContractTable, storedContractTable, tableSubset } from "../sessions/contract-top-table";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { scanTickers, summariesOf } from "../sessions/session-summary";
import { resolveFlowDate, resolveFlowTicker } from "../sessions/tape";

/** Credits: 1 with a `ticker` filter, 3 without (spec). */
const TOP_DAILY_COST = { withTicker: 1, marketWide: 3 } as const;

type Query = z.output<typeof TopContractsDailyQuerySchema>;

function filtersOf(q: Query, ticker: string | undefined) {
  return {
    limit: q.limit,
    ticker,
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

export const contractTopDailyRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/top/daily",
  operationId: "getTopContractsDaily",
  cost: (q) => (q.ticker ? TOP_DAILY_COST.withTicker : TOP_DAILY_COST.marketWide),
  query: TopContractsDailyQuerySchema,
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
  data: TopContractsDailyDataSchema,
  summary: "Top contracts of one session",
  description:
    "Each contract's day: premium, volume, open interest and its change, bid/ask/mid volume, VWAP, last price, IV, sweep and " +
    "multi-leg volume; filtered and ranked by premium, volume, OI or IV. 1 credit with `ticker`, 3 across the market.",
  tags: ["Contracts"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = resolveFlowDate(q.date, nowMs);
    const filters = filtersOf(q, undefined);
    if (q.ticker) {
      const rows = (await summariesOf(state, [await resolveFlowTicker(state, q.ticker)], date, nowMs, signal)).flatMap((s) => s.contracts);
      return { data: rankTopContracts(rows, filters), meta: flowMeta(services, requestId) };
    }
    // Market-wide: a finished session's pre-built table when there is one, else every ticker's
    // summary (then the table is kept for the next request). @see docs/methodology.md#flow-contract-top-table
    const tickers = await scanTickers(state, principal);
    const table = await storedContractTable(state, date, nowMs);
    const subset = table && tableSubset(table, tickers);
    if (table && subset !== null) return { data: rankContractTable(table, filters, subset), meta: flowMeta(services, requestId) };
    const parts = (await summariesOf(state, tickers, date, nowMs, signal)).map((s) => s.contracts);
    // Only a finished session's rows are kept as a table: today's are never joined into one array.
    if (isFinishedSession(date, nowMs)) await rememberContractTable(state, date, nowMs, tickers, parts.flat());
    return { data: await rankInSlices(parts, filters), meta: flowMeta(services, requestId) };
  },
});
