import { z } from "zod";
import { jsKernels, loadKernelsSync, type KernelEngine } from "../../../lib/kernels";
import type { ChainSnapshot, SymbolInfo } from "../../../lib/market/market-data";
import {
  exposureGrid,
  HeatmapCellSchema,
  HeatmapFrameSchema,
  PositioningError,
  POSITIONING_DEFAULTS as D,
  type ExposureGrid,
  type ExposureGridOptionsInput,
} from "../../../lib/positioning";
import { etInstant } from "../../../lib/time";
import type { Principal } from "../../accounts/types";
import { ApiError, apiErrors } from "../../errors";
import { moduleState, type AppServices } from "../../services";
import { defineRoute, type RouteDef } from "../define-route";
import { boolParam, dateListParam, enumParam, intOrAllParam, symbolsParam } from "../params";

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

/** The route fields every board route (heatmap, replay, levels) shares; `gridRoute` fills them. */
type GridRouteCommon = "host" | "module" | "method" | "symbolsOf" | "symbolsLimit" | "meta" | "tags";

/**
 * Declare a board route (`/v1/heatmap`, `/v1/historical`, `/v1/gex/levels`): base host, GET,
 * positioning module, the plan's per-call symbol ceiling (never above 10), the positioning `meta`
 * and the Heatmap tag; the rest is the route's own.
 * @example gridRoute({ path: "/v1/heatmap", operationId: "getHeatmap", cost: 1, ... })
 */
export function gridRoute<QS extends z.ZodObject<{ symbols: typeof gridQueryShape.symbols } & z.core.$ZodLooseShape>>(
  route: Omit<RouteDef<QS>, GridRouteCommon>,
): RouteDef<QS> {
  return defineRoute<QS>({
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
export interface GridQuery {
  symbols: string[];
  metric: "gamma" | "vanna";
  maxStrikes: number | "all";
  maxExpirations: number | "all";
  expirations?: string[];
  includeEmpty: boolean;
  layout: "net" | "matrix";
}

/** Library options from the query (the same object for replay and statistics: they must agree). */
export function gridOptions(q: Omit<GridQuery, "symbols">): ExposureGridOptionsInput {
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
export function optionsKey(q: Omit<GridQuery, "symbols">): string {
  return [q.metric, q.maxStrikes, q.maxExpirations, q.includeEmpty, q.expirations?.join("+") ?? "", q.layout].join("|");
}

/** The app's kernel engine (WASM when it loads, else the JS engine). */
export function kernelEngine(services: AppServices): KernelEngine {
  return moduleState(services, "positioning.engine", () => {
    try {
      return loadKernelsSync();
    } catch {
      return jsKernels;
    }
  });
}

/** Every positioning symbol (option roots and tickers) the market serves, by name. */
export async function symbolCatalog(services: AppServices): Promise<Map<string, SymbolInfo>> {
  const slot = moduleState(services, "positioning.catalog", () => ({ value: null as Promise<Map<string, SymbolInfo>> | null }));
  slot.value ??= services.market.universe().then((infos) => {
    const out = new Map<string, SymbolInfo>();
    for (const info of infos) {
      for (const root of info.optionRoots) if (!out.has(root)) out.set(root, info);
      if (!out.has(info.ticker)) out.set(info.ticker, info);
    }
    return out;
  });
  try {
    return await slot.value;
  } catch (error) {
    slot.value = null;
    throw error;
  }
}

/** The known symbols of a request, in order; 404 `symbol_not_found` when none is known. */
export async function knownSymbols(services: AppServices, requested: readonly string[]): Promise<string[]> {
  const catalog = await symbolCatalog(services);
  const known = requested.filter((s) => catalog.has(s));
  if (known.length === 0) throw apiErrors.symbolNotFound(requested);
  return known;
}

/** A library error as the API's error (positioning codes are already the spec's codes). */
export function toApiError(error: unknown): unknown {
  if (error instanceof PositioningError) {
    const status = error.code === "invalid_parameter" ? 400 : 404;
    return new ApiError(status, error.code, error.message);
  }
  return error;
}

/** Grid of one chain, library errors mapped. */
export function gridOf(services: AppServices, chain: ChainSnapshot, q: Omit<GridQuery, "symbols">): ExposureGrid {
  try {
    return exposureGrid(chain, gridOptions(q), kernelEngine(services));
  } catch (error) {
    throw toApiError(error);
  }
}

/**
 * Run `one` per symbol; symbols that fail with a 404-class error are dropped, and only when every
 * symbol fails is the first such error thrown (spec: unknown symbols dropped, 404 only when none).
 */
export async function perSymbol<T>(symbols: readonly string[], one: (s: string) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let firstMiss: unknown = null;
  for (const s of symbols) {
    try {
      out.push(await one(s));
    } catch (error) {
      const mapped = toApiError(error);
      if (mapped instanceof ApiError && mapped.status === 404) {
        firstMiss ??= mapped;
        continue;
      }
      throw mapped;
    }
  }
  if (out.length === 0) throw firstMiss ?? apiErrors.symbolNotFound(symbols);
  return out;
}

/** 404 `no_data` for a symbol without a board at the instant. */
export function noData(symbol: string, atMs: number): ApiError {
  return new ApiError(404, "no_data", `No snapshot available for ${symbol} at ${new Date(atMs).toISOString()}.`);
}

/** How to credit the data (spec `attribution`). */
export function attribution(simulated: boolean) {
  return {
    text: simulated ? "Data: optionscope simulated market (not real market data)" : "Data: optionscope",
    url: "https://github.com/optionscope/optionscope",
    required: false,
    license: "personal",
    shareable: !simulated,
    shareClass: "derived",
    terms: "https://github.com/optionscope/optionscope/blob/main/docs/api.md#attribution",
  };
}

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
  attribution: z.object({}).loose().optional(),
  flipMethod: z.string().optional().meta({ description: "How `summary.flip` was found (key levels only)." }),
  zeroGammaMethod: z.string().optional().meta({ description: "How `summary.zeroGamma` was found (key levels only)." }),
});
