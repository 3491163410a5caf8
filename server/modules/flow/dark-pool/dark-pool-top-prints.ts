// GET /v1/dark-pool/top-prints/{ticker}: the largest single off-exchange prints over a trailing
// window of calendar days. Spec "Flow endpoints" (`/v1/dark-pool/top-prints/{ticker}` parameters).
import { DarkPoolTickerParamsSchema, DarkPoolTopPrintsDataSchema, DarkPoolTopPrintsMetaSchema, DarkPoolTopPrintsQuerySchema } from "../../../../lib/api/flow";
import { compareDarkPoolRows, type DarkPoolRow } from "../../../../lib/flow/dark-pool-trades";
import { etDateOf } from "../../../../lib/time";
import { apiErrors } from "../../../errors";
import { addCalendarDays, calendarDates } from "../shared/date-params";
import { darkPoolDay, symbolTable } from "./dark-pool-tape";
import { flowMeta, flowRoute, type FlowState } from "../flow-route";
import { tickerOfPath } from "../shared/path-symbols";

/**
 * The `n` largest prints of a ticker (notional descending; ties newest first) from `fromDate` to
 * `toDate` inclusive, as served. Also used by `flow_context`.
 */
async function topPrints(state: FlowState, ticker: string, fromDate: string, toDate: string, n: number, nowMs: number) {
  const best: DarkPoolRow[] = [];
  for (const date of calendarDates(fromDate, toDate)) {
    for (const r of await darkPoolDay(state, date, [ticker], nowMs)) {
      if (best.length === n && r.notionalUsd <= best[n - 1].notionalUsd) continue;
      best.push(r);
      best.sort((a, b) => b.notionalUsd - a.notionalUsd || compareDarkPoolRows(b, a));
      if (best.length > n) best.pop();
    }
  }
  return best.map((r) => ({ timestamp: new Date(r.tsMs).toISOString(), price: r.price, notional: r.notionalUsd, size: r.size }));
}

export const darkPoolTopPrintsRoute = flowRoute({
  host: "flow",
  module: "flow",
  method: "GET",
  path: "/v1/dark-pool/top-prints/:ticker",
  operationId: "getDarkPoolTopPrints",
  cost: 3,
  entitlement: "flow",
  query: DarkPoolTopPrintsQuerySchema,
  params: DarkPoolTickerParamsSchema,
  symbolsOf: tickerOfPath,
  data: DarkPoolTopPrintsDataSchema,
  meta: DarkPoolTopPrintsMetaSchema,
  summary: "Largest individual off-exchange prints",
  description: "The `top_n` largest single off-exchange prints of a ticker over a trailing window, by notional, largest first; each row is one print, not an aggregate.",
  tags: ["Dark Pool"],
  handler: async ({ query: q, params, state, nowMs, services, requestId }) => {
    if (!(await symbolTable(state)).has(params.ticker)) throw apiErrors.symbolNotFound([params.ticker]);
    const toDate = q.as_of_date ?? etDateOf(nowMs);
    const data = await topPrints(state, params.ticker, addCalendarDays(toDate, -q.lookback_days), toDate, q.top_n, nowMs);
    return { data, meta: flowMeta(services, requestId) };
  },
});
