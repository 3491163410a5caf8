// The board query every positioning route shares (heatmap, replay, levels, stream), the route
// helper that fills a board route's common fields, and the response schemas.
import { z } from "zod";
import {
  HeatmapCellSchema,
  HeatmapFrameSchema,
  POSITIONING_DEFAULTS as D,
  type ExposureGridOptionsInput,
} from "../../../lib/positioning";
import { etInstant } from "../../../lib/time";
import type { Principal } from "../../accounts/types";
import type { RouteDef } from "../define-route";
import { boolParam, dateListParam, enumParam, intOrAllParam, symbolsParam } from "../params";
import { positioningRoute } from "./positioning-route";
import type { PositioningState } from "./service";

/** First session date with history (spec: replay and statistics go back to 2023-03-28). */
export const FIRST_HISTORY_DATE = "2023-03-28";
/** Midnight ET starting that date, ms. */
export const FIRST_HISTORY_MS = etInstant(FIRST_HISTORY_DATE, "00:00");
/** Hard ceiling of symbols per positioning call (spec: at most 10). */
export const MAX_POSITIONING_SYMBOLS = 10;

/** Query parameters shared by heatmap, replay and levels (reference names and defaults). */
export const gridQueryShape = {
  symbols: symbolsParam(
    MAX_POSITIONING_SYMBOLS,
    "One ticker or option root, or a comma-separated list (at most limits.symbolsPerHeatmapCall, never more than 10). " +
      "SPXW is every daily and weekly S&P 500 expiration; SPX only the AM-settled monthlies.",
  ),
  metric: enumParam(["gamma", "vanna"], "gamma", "Which dealer exposure each strike carries."),
  maxStrikes: intOrAllParam({
    min: 1,
    max: D.maxStrikesCap,
    default: D.maxStrikes,
    description: "How many strikes nearest spot to return (1-1000), or all.",
  }),
  maxExpirations: intOrAllParam({
    min: 1,
    max: D.maxExpirationsCap,
    default: D.maxExpirations,
    description: "How many of the nearest unexpired expirations to net into each strike (1-60), or all. Ignored with expirations.",
  }),
  expirations: dateListParam(
    "Net each strike over exactly these expirations (comma-separated YYYY-MM-DD). Dates the board lacks are ignored; none matching is 404 expiration_not_found.",
  ),
  includeEmpty: boolParam(false, "Keep interior strikes whose every cell is below $50 in absolute value."),
  layout: enumParam(["net", "matrix"], "net", "net: one value per strike; matrix: also the strike x expiration grid."),
};

/**
 * `extended` of the board routes (heatmap, replay, stream): boards of the extended session too.
 * The reference takes it on `/v1/stats/daily` only; the board routes accept it so every
 * extended statistics frame can be replayed on its own (docs/api.md#extended-hours).
 */
export const extendedParam = boolParam(
  false,
  "Serve extended-session boards too (04:00-20:00 ET; 17:00 on early closes): option quotes carried from the session's board, repriced at the extended-hours spot. Default false: regular-session boards only (09:30-16:00 ET), the last close outside it.",
);

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

/** The board query (the grid query shape, validated). */
export const GridQuerySchema = z.object(gridQueryShape);

/** The validated grid query. */
export type GridQuery = z.output<typeof GridQuerySchema>;

/** The board options of a query: everything but the symbols (`extended` absent means false). */
export type BoardQuery = Omit<GridQuery, "symbols"> & { extended?: boolean };

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
  return [q.metric, q.maxStrikes, q.maxExpirations, q.includeEmpty, q.expirations?.join("+") ?? "", q.layout, q.extended === true ? "ext" : "reg"].join("|");
}

export { attribution } from "../../attribution";

// --- response schemas (the library's, with the route documentation layered on) ---

/** A heatmap strike as the API documents it: the library's cell. */
export const StrikeNodeSchema = HeatmapCellSchema.extend({
  value: HeatmapCellSchema.shape.value.meta({ description: "Net dealer exposure at this strike over the returned expirations, dollars." }),
  velocityPct: HeatmapCellSchema.shape.velocityPct.meta({
    description: "Live heatmap only: percent change against the same strike 5 frames earlier.",
  }),
});

const { symbol, asOf, spot, ...frameRest } = HeatmapFrameSchema.shape;

/**
 * A heatmap entry: the library's frame plus the previous close and the change against it,
 * placed after `spot` as the responses place them.
 */
export const HeatmapEntrySchema = z.object({
  symbol,
  asOf: asOf.meta({ description: "ISO-8601 UTC instant of the board." }),
  spot,
  previousClose: z.number().optional(),
  priceChange: z.number().optional(),
  priceChangePercent: z.number().optional(),
  ...frameRest,
  strikes: z.array(StrikeNodeSchema),
});

/** One symbol's heatmap entry, as served. */
export type HeatmapEntry = z.output<typeof HeatmapEntrySchema>;

/** `data` of `/v1/heatmap` and `/v1/historical`. */
export const HeatmapDataSchema = z.object({ symbols: z.array(HeatmapEntrySchema) });

export const PositioningMetaSchema = z.object({
  metric: z.enum(["gamma", "vanna"]),
  resolution: z.string(),
  mode: z.enum(["live", "historical"]),
  cached: z.boolean(),
  engine: z.string().optional(),
  simulated: z.boolean().optional(),
  signModel: z.object({ calls: z.number(), puts: z.number() }).optional(),
  unit: z.string().optional(),
  delayed: z.boolean().optional(),
  delayMinutes: z.number().optional(),
  extended: z.boolean().optional().meta({ description: "Whether extended-session boards were asked for (heatmap, replay)." }),
  attribution: z.object({}).loose().optional(),
  flipMethod: z.string().optional().meta({ description: "How `summary.flip` was found (key levels only)." }),
  zeroGammaMethod: z.string().optional().meta({ description: "How `summary.zeroGamma` was found (key levels only)." }),
});
