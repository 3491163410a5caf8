import * as z from "zod";
import { NODE_TYPES } from "./node-thresholds";

// zod schemas of what the positioning functions return, for the server's route table (response
// `data` schemas, OpenAPI) and for clients. Names and shapes follow the spec and the reference
// service; fields beyond them are documented supersets (docs/methodology.md#positioning-methodology).

/** One of the six node types. */
export const NodeTypeSchema = z.enum(NODE_TYPES);

/** A heatmap cell: `velocityPct` only on live frames. */
export const HeatmapCellSchema = z.object({
  strike: z.number(),
  value: z.number(),
  nodeType: NodeTypeSchema,
  velocityPct: z.number().optional(),
});

/** A heatmap symbol entry (`data.symbols[]` of `/v1/heatmap` and `/v1/historical`). */
export const HeatmapFrameSchema = z.object({
  symbol: z.string(),
  asOf: z.string(),
  spot: z.number(),
  expirations: z.array(z.string()),
  strikes: z.array(HeatmapCellSchema),
  matrix: z.array(z.array(z.number())).optional(),
});

/** A key level (the reference's `Level`; walls may also be `normal`). */
export const LevelSchema = z.object({
  strike: z.number(),
  value: z.number(),
  nodeType: NodeTypeSchema,
  distancePct: z.number(),
});

/** A zero crossing of the cumulative-by-strike sum. */
export const FlipLevelSchema = z.object({
  method: z.literal("cumulative_by_strike"),
  level: z.number(),
  distancePct: z.number(),
  direction: z.enum(["up", "down"]),
});

/** The profile-based zero-gamma level. */
export const ZeroGammaSchema = z.object({
  method: z.literal("spot_profile"),
  level: z.number().nullable(),
  distancePct: z.number().nullable(),
  crossings: z.array(z.number()),
  rangePct: z.number(),
  stepPct: z.number(),
});

/** `summary` of a key-levels entry. */
export const LevelsSummarySchema = z.object({
  netExposure: z.number(),
  positiveWall: LevelSchema.nullable(),
  negativeWall: LevelSchema.nullable(),
  flip: FlipLevelSchema.nullable(),
  zeroCrossings: z.array(FlipLevelSchema),
  zeroGamma: ZeroGammaSchema,
  lowStrike: z.number().nullable(),
  highStrike: z.number().nullable(),
});

/** A key-levels symbol entry (`data.symbols[]` of `/v1/gex/levels`), without `meta`. */
export const KeyLevelsEntrySchema = z.object({
  symbol: z.string(),
  asOf: z.string(),
  spot: z.number(),
  kingNode: LevelSchema.nullable(),
  levels: z.array(LevelSchema),
  summary: LevelsSummarySchema,
});

/** A daily statistics record (`days[]` of `/v1/stats/daily`). */
export const DailyStatSchema = z.object({
  date: z.string(),
  frames: z.number().int(),
  complete: z.boolean(),
  firstAt: z.string(),
  lastAt: z.string(),
  spotOpen: z.number(),
  spotHigh: z.number(),
  spotLow: z.number(),
  spotClose: z.number(),
  minValue: z.number(),
  maxValue: z.number(),
  peakAbsMean: z.number(),
  peakAbsMax: z.number(),
});
