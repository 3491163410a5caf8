// The board query every positioning route shares (heatmap, replay, levels, stream), the route
// helper that fills a board route's common fields; the schemas live in lib/api/positioning.ts.
import type { z } from "zod";
import { type gridQueryShape, type GridQuerySchema, type HeatmapEntrySchema, MAX_POSITIONING_SYMBOLS, PositioningMetaSchema } from "../../../lib/api/positioning";
import type { ExposureGridOptionsInput } from "../../../lib/positioning";
import type { Principal } from "../../accounts/types";
import type { RouteDef } from "../define-route";
import { positioningRoute } from "./positioning-route";
import type { PositioningState } from "./service";

export {
  FIRST_HISTORY_DATE,
  FIRST_HISTORY_MS,
  GridQuerySchema,
  HeatmapDataSchema,
} from "../../../lib/api/positioning";

/** The route fields every board route (heatmap, replay, levels) shares; `gridRoute` fills them. */
type GridRouteCommon = "host" | "module" | "method" | "symbolsOf" | "symbolsLimit" | "meta" | "tags";

/**
 * Declare a board route (`/v1/heatmap`, `/v1/historical`, `/v1/gex/levels`): base host, GET,
 * positioning module, the plan's per-call symbol ceiling (never above 10), the positioning `meta`
 * and the Heatmap tag; the rest is the route's own.
 * @example gridRoute({ path: "/v1/heatmap", operationId: "getHeatmap", cost: 1, ... })
 */
export function gridRoute<QS extends z.ZodObject<{ symbols: typeof gridQueryShape.symbols } & z.core.$ZodLooseShape>>(
  route: Omit<RouteDef<QS, z.ZodObject, PositioningState>, GridRouteCommon>,
): RouteDef<QS, z.ZodObject, PositioningState> {
  return positioningRoute<QS>({
    host: "base",
    module: "positioning",
    method: "GET",
    // QS's shape holds gridQueryShape's `symbols` (the constraint); TypeScript cannot see through
    // z.output of a generic schema, hence the cast.
    symbolsOf: (q) => (q as { symbols: string[] }).symbols,
    symbolsLimit: { param: "symbols", max: (p: Principal) => Math.min(MAX_POSITIONING_SYMBOLS, p.limits.symbolsPerHeatmapCall) },
    meta: PositioningMetaSchema,
    tags: ["Heatmap"],
    ...route,
  });
}

/** The validated grid query. */
export type GridQuery = z.output<typeof GridQuerySchema>;

/** The board options of a query: everything but the symbols (`extended` absent means false). */
export type BoardQuery = Omit<GridQuery, "symbols"> & { extended?: boolean; oi?: "exchange" | "flow" };

/** The market's chain options of a board query. */
export function chainOptionsOf(q: BoardQuery): { extended: boolean } {
  return { extended: q.extended === true };
}

/** Library options from the query (the same object for replay and statistics: they must agree). */
export function gridOptions(q: BoardQuery): ExposureGridOptionsInput {
  return {
    metric: q.metric,
    maxStrikes: q.maxStrikes,
    maxExpirations: q.maxExpirations,
    includeEmpty: q.includeEmpty,
    ...(q.expirations ? { expirations: q.expirations } : {}),
    layout: q.layout,
  };
}

/** Stable cache-key text of grid options. */
export function optionsKey(q: BoardQuery): string {
  const key = [q.metric, q.maxStrikes, q.maxExpirations, q.includeEmpty, q.expirations?.join("+") ?? "", q.layout, q.extended === true ? "ext" : "reg"].join("|");
  // `oi=flow` boards differ from the exchange's (docs/methodology.md#flow-open-interest); the default keeps its key.
  return q.oi === "flow" ? `${key}|flow` : key;
}

export { attribution } from "../../attribution";

/** One symbol's heatmap entry, as served. */
export type HeatmapEntry = z.output<typeof HeatmapEntrySchema>;
