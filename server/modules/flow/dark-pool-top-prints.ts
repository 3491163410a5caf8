// GET /v1/dark-pool/top-prints/{ticker}: the largest single off-exchange prints over a trailing
// window of calendar days. Spec "Flow endpoints" (`/v1/dark-pool/top-prints/{ticker}` parameters).
import { z } from "zod";
import { compareDarkPoolRows, type DarkPoolRow } from "../../../lib/flow/dark-pool-trades";
import { etDateOf } from "../../../lib/time";
import { apiErrors } from "../../errors";
import { dateParam, intParam } from "../params";
import { addCalendarDays, calendarDates, tickerPath } from "./dark-pool-params";
import { darkPoolDay, symbolTable } from "./dark-pool-tape";
import { flowMeta, flowRoute, type FlowState } from "./flow-route";

const query = z.object({
  top_n: intParam({ min: 1, max: 20, default: 5, description: "Number of prints." }),
  lookback_days: intParam({ min: 1, max: 180, default: 45, description: "Calendar days before `as_of_date`." }),
  as_of_date: dateParam("Anchor date: the window is [as_of_date - lookback_days, as_of_date]; default today (ET)."),
});

export const DarkPoolTopPrintSchema = z.object({
  timestamp: z.string().meta({ description: "Trade time, ISO-8601 UTC." }),
  price: z.number(),
  notional: z.number().meta({ description: "price x size, USD." }),
  size: z.number().int(),
});

/**
 * The `n` largest prints of a ticker (notional descending; ties newest first) from `fromDate` to
 * `toDate` inclusive, as served. Also used by `flow_context`.
 */
export async function topPrints(state: FlowState, ticker: string, fromDate: string, toDate: string, n: number, nowMs: number) {
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
  query,
  params: tickerPath,
  symbolsOf: (_q, p) => [p.ticker],
  data: z.array(DarkPoolTopPrintSchema),
  meta: z.object({ timestamp: z.string(), requestId: z.string() }),
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
