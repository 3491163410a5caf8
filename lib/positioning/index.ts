// Positioning analytics: exposure grid, heatmap frames, velocity, nodes, key levels, daily statistics.
// Every formula and threshold: docs/methodology.md#positioning-methodology.

// Exposure grid
export { exposureGrid, EXPOSURE_UNITS } from "./exposure-grid";
export type { ExposureGrid, ExposureGridMeta, ExposureUnit } from "./exposure-grid";
export { DEFAULT_SIGN_MODEL, parseGridOptions } from "./options";
export { ExposureGridOptionsSchema, SignModelSchema } from "./options-schema";
export type { ExposureGridOptions, ExposureGridOptionsInput } from "./options-schema";
export { selectExpirations } from "./select-expirations";
export { strikeWindow } from "./strike-window";
export { tYearsToSettle } from "./time-to-expiry";

// Heatmap frames, velocity, nodes
export { heatmapFrame } from "./heatmap-frame";
export type { HeatmapFrameOptions } from "./heatmap-frame";
export { velocityPct, velocityReference } from "./velocity";
export { classifyNodes, kingIndex } from "./classify-nodes";
export type { StrikeValue } from "./classify-nodes";
export { NODE_THRESHOLDS, NODE_TYPES } from "./node-thresholds";
export type { NodeType } from "./node-thresholds";

// Key levels
export { keyLevels, levelsFromFrame } from "./key-levels";
export type { FlipLevel, FrameLevels, KeyLevels, Level, LevelsSummary } from "./key-levels";
export { zeroGammaLevel, profileSpots } from "./zero-gamma";

// Exposure by expiry bucket and over a spot grid
export { expiryBuckets, EXPIRY_BUCKETS } from "./expiry-buckets";
export type { ExpiryBucket, ExpiryBucketName, ExpiryBuckets } from "./expiry-buckets";
export { spotCurve } from "./spot-curve";
export type { SpotCurve, SpotCurveOptions } from "./spot-curve";
export type { ZeroGamma } from "./zero-gamma";
export { zeroCrossings, nearestCrossing, cumulativeSum } from "./zero-crossings";
export type { ZeroCrossing } from "./zero-crossings";

// One-call briefs (the intelligence tools)
export { BRIEF_TOP_N, changeBrief, formatUsd, levelsBrief } from "./briefs";
export type { ChangeBrief, LevelsBrief, StrikeChange } from "./briefs";

// Daily statistics
export { dailyStats, sessionFrameInstants } from "./session-frames";
export { dailyStatsInWindow } from "./daily-stats";
export type { DailyStat, StatFrame, StatsWindow } from "./daily-stats";
export { statFrame } from "./stat-frame";
export { averageDailyStats } from "./average-daily-stats";
export type { AverageDailyStats } from "./average-daily-stats";

// Intraday open interest from the tape (`oi=flow`, docs/methodology.md#flow-open-interest)
export { FLOW_OI, FlowOiEstimator, flowOiShares, printOiChange, withFlowOpenInterest } from "./flow-oi";
export type { FlowOiEstimate, FlowOiPrint, FlowOiShares } from "./flow-oi";

// Constants, types, errors
export {
  POSITIONING_DEFAULTS,
  VELOCITY_LOOKBACK_MINUTES,
  VELOCITY_FLOOR_FRACTION,
  ZERO_GAMMA_PROFILE,
  STATS_COMPLETE_AFTER_MS,
  MIN_T_YEARS,
} from "./defaults";
export { PositioningError } from "./errors";
export type { PositioningErrorCode } from "./errors";
export type { ExposureMetric, HeatmapCell, HeatmapFrame, Metric, PositioningChain, SignModel } from "./types";
export { EXPOSURE_METRICS } from "./types";
export { isoUtc } from "./iso-utc";

// Output schemas (zod), for route tables and clients
export {
  NodeTypeSchema,
  HeatmapCellSchema,
  HeatmapFrameSchema,
  LevelSchema,
  FlipLevelSchema,
  ZeroGammaSchema,
  LevelsSummarySchema,
  KeyLevelsEntrySchema,
  DailyStatSchema,
} from "./schemas";
