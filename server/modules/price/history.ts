import { HistoryBodySchema, HistoryQuerySchema } from "../../../lib/api/price";
import { historyBody, historyCacheControl, planHistory, selectBars, withoutSidedVolume, type HistoryPlan } from "../../../lib/price";
import { priceRoute } from "./price-route";
import { loadPlanBars, nearestEarlierBarMs } from "./history-bars";
import { resolveSymbol } from "./resolve-symbol";

/** `GET /v1/history` on {atlas_url}: UDF bars with the spec's window, cap and cache rules. */
export const historyRoute = priceRoute({
  host: "atlas",
  module: "price",
  method: "GET",
  path: "/v1/history",
  operationId: "getHistory",
  cost: 1,
  entitlement: "price",
  query: HistoryQuerySchema,
  symbolsOf: (q) => [q.symbol],
  data: HistoryBodySchema,
  envelope: false,
  summary: "OHLCV bars (UDF history)",
  description:
    "Bars of one symbol at one resolution whose start lies in [from, to) (Unix seconds), oldest first, in equal-length " +
    "columns `t o h l c v` (plus `bv sv uv` on equities). `countback` returns exactly that many bars ending at `to`. " +
    'An empty window is `200 {s: "no_data"}` with `nextTime` when an earlier bar exists. A window spanning more NYSE ' +
    "trading days than the resolution's tier allows (1-minute tier 90, 1-hour tier 720, 1-day tier 2600) is " +
    '`400 {s: "error", errmsg, requested_days, max_days}` (refunded), never shortened. Intraday bars are anchored at ' +
    "the session open; `D` and `W` come from the regular session, `t` at 00:00 UTC of the (first) session date. " +
    "Cache-Control: private; max-age=2 when the window reaches today's session, 60 for the prior session, immutable for " +
    "older days. Simulated data is labelled by `/v1/symbols`.",
  tags: ["History"],
  handler: async ({ query, services, state, nowMs, signal }) => {
    const info = await resolveSymbol(services, query.symbol, false);
    // Indices have no pre- or post-market: their extended request is the regular session.
    const extended = query.extended && info.type !== "index";
    const plan: HistoryPlan = planHistory({ resolution: query.resolution, fromSec: query.from, toSec: query.to, countback: query.countback, extended }, nowMs);
    let bars = selectBars(await loadPlanBars(state, info.ticker, plan, nowMs, signal), plan);
    // Indices do not trade: their (zero) sided volume is not data, so the columns are left out.
    if (info.type === "index") bars = withoutSidedVolume(bars);
    const nextTimeMs = bars.t.length === 0 ? await nearestEarlierBarMs(state, info.ticker, plan, nowMs, signal) : null;
    return {
      data: historyBody(bars, nextTimeMs),
      cacheControl: historyCacheControl(query.resolution, query.to, nowMs),
    };
  },
});
