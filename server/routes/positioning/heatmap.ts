import { z } from "zod";
import { defineRoute } from "../define-route";
import { heatmapMeta, liveEntry } from "./_frames";
import {
  gridQueryShape,
  HeatmapEntrySchema,
  knownSymbols,
  MAX_POSITIONING_SYMBOLS,
  perSymbol,
  PositioningMetaSchema,
} from "./_shared";

/** `GET /v1/heatmap`: live per-strike exposure for up to 10 symbols. 1 credit per call. */
export const heatmapRoute = defineRoute({
  host: "base",
  module: "positioning",
  method: "GET",
  path: "/v1/heatmap",
  operationId: "getHeatmap",
  cost: 1,
  entitlement: "positioning",
  query: z.object(gridQueryShape),
  symbolsOf: (q) => q.symbols,
  symbolsLimit: { param: "symbols", max: (p) => Math.min(MAX_POSITIONING_SYMBOLS, p.limits.symbolsPerHeatmapCall) },
  data: z.object({ symbols: z.array(HeatmapEntrySchema) }),
  meta: PositioningMetaSchema,
  cacheControl: "private, max-age=5",
  summary: "Live per-strike heatmap (one or more symbols)",
  description:
    "The latest one-minute board of each symbol: net dealer gamma or vanna exposure per strike around spot, its node " +
    "type, and velocityPct against the same strike five minutes earlier. Unknown symbols are left out; 404 " +
    "symbol_not_found only when none is known. Answers are cached for 5 seconds per symbol, parameters and minute.",
  tags: ["Heatmap"],
  handler: async ({ query, services, nowMs }) => {
    const symbols = await knownSymbols(services, query.symbols);
    const built = await perSymbol(symbols, (s) => liveEntry(services, s, query, nowMs));
    return { data: { symbols: built.map((b) => b.entry) }, meta: heatmapMeta(built, query, "live") };
  },
});
