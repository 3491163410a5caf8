import { HeatmapQuerySchema } from "../../../lib/api/positioning";
import { heatmapResponse, liveEntry } from "./frames";
import { gridRoute, HeatmapDataSchema } from "./grid-route";

/** `GET /v1/heatmap`: live per-strike exposure for up to 10 symbols. 1 credit per call. */
export const heatmapRoute = gridRoute({
  path: "/v1/heatmap",
  operationId: "getHeatmap",
  cost: 1,
  entitlement: "positioning",
  query: HeatmapQuerySchema,
  data: HeatmapDataSchema,
  cacheControl: "private, max-age=5",
  summary: "Live per-strike heatmap (one or more symbols)",
  description:
    "The latest one-minute board of each symbol: net dealer exposure (gamma, vanna, delta, charm or vomma) per strike around spot, its node " +
    "type, and velocityPct against the same strike five minutes earlier. Unknown symbols are left out; 404 " +
    "symbol_not_found only when none is known. Answers are cached per symbol, parameters and market minute (a board changes only at minute boundaries); clients may reuse one for 5 seconds (Cache-Control).",
  handler: ({ query, state, nowMs }) => heatmapResponse(state, query, "live", (s) => liveEntry(state, s, query, nowMs)),
});
