import { z } from "zod";
import { keyLevels, type KeyLevels } from "../../../lib/positioning";
import { LruCache } from "../../cache/lru-cache";
import { moduleState } from "../../services";
import { defineRoute } from "../define-route";
import {
  gridQueryShape,
  kernelEngine,
  knownSymbols,
  MAX_POSITIONING_SYMBOLS,
  noData,
  optionsKey,
  gridOptions,
  perSymbol,
  PositioningMetaSchema,
  toApiError,
} from "./_shared";

/** Credits per `/v1/gex/levels` call: the spec leaves it open; the reference and the heatmap charge 1. */
export const LEVELS_COST = 1;

const LevelSchema = z.object({
  strike: z.number(),
  value: z.number(),
  nodeType: z.enum(["king", "gatekeeper", "pika", "barney", "significant", "normal"]),
  distancePct: z.number().meta({ description: "Percent distance from spot (negative = below)." }),
});
const FlipSchema = z.object({
  method: z.string(),
  level: z.number(),
  distancePct: z.number(),
  direction: z.enum(["up", "down"]),
});

const LevelsEntrySchema = z.object({
  symbol: z.string(),
  asOf: z.string(),
  spot: z.number(),
  kingNode: LevelSchema.nullable(),
  levels: z.array(LevelSchema),
  summary: z.object({
    netExposure: z.number(),
    positiveWall: LevelSchema.nullable(),
    negativeWall: LevelSchema.nullable(),
    flip: FlipSchema.nullable(),
    zeroCrossings: z.array(FlipSchema),
    lowStrike: z.number().nullable(),
    highStrike: z.number().nullable(),
    zeroGamma: z.object({}).loose(),
  }),
});

const { layout: _layout, ...levelsShape } = gridQueryShape;

/** `GET /v1/gex/levels`: classified nodes strongest first, walls, flip and zero gamma. */
export const levelsRoute = defineRoute({
  host: "base",
  module: "positioning",
  method: "GET",
  path: "/v1/gex/levels",
  operationId: "getLevels",
  cost: LEVELS_COST,
  entitlement: "positioning",
  query: z.object(levelsShape),
  symbolsOf: (q) => q.symbols,
  symbolsLimit: { param: "symbols", max: (p) => Math.min(MAX_POSITIONING_SYMBOLS, p.limits.symbolsPerHeatmapCall) },
  data: z.object({ symbols: z.array(LevelsEntrySchema) }),
  meta: PositioningMetaSchema,
  cacheControl: "private, max-age=5",
  summary: "Key levels (classified nodes) for one or more symbols",
  description:
    "The strikes classified as nodes on the live board (king first, then strongest |value|), each with its distance " +
    "from spot, and a summary: net exposure, the positive and negative walls, where the running sum by strike changes " +
    "sign, and the zero-gamma level of the spot profile. Same board, parameters and 5-second cache as the heatmap.",
  tags: ["Heatmap"],
  handler: async ({ query, services, nowMs }) => {
    const symbols = await knownSymbols(services, query.symbols);
    const q = { ...query, layout: "net" as const };
    const cache = moduleState(services, "positioning.levels", () => new LruCache<string, KeyLevels>(4096, services.heatmapCacheTtlMs));
    let allCached = true;
    const entries = await perSymbol(symbols, async (s) => {
      const key = `${s}|${optionsKey(q)}|${Math.floor(nowMs / 60_000)}`;
      const wall = services.wallNowMs();
      let lv = cache.get(key, wall);
      if (!lv) {
        allCached = false;
        const chain = await services.market.chain(s, nowMs);
        if (!chain) throw noData(s, nowMs);
        try {
          lv = keyLevels(chain, gridOptions(q), kernelEngine(services));
        } catch (error) {
          throw toApiError(error);
        }
        cache.set(key, lv, wall);
      }
      return lv;
    });
    const m = entries[0].meta;
    return {
      data: {
        symbols: entries.map((lv) => ({
          symbol: lv.symbol,
          asOf: lv.asOf,
          spot: lv.spot,
          kingNode: lv.kingNode,
          levels: lv.levels,
          summary: lv.summary,
        })),
      },
      meta: {
        metric: query.metric,
        resolution: "1m",
        mode: "live",
        cached: allCached,
        engine: m.engine,
        simulated: entries.some((e) => e.meta.simulated),
        signModel: m.signModel,
        unit: m.unit,
        flipMethod: m.flipMethod,
        zeroGammaMethod: m.zeroGammaMethod,
      },
    };
  },
});
