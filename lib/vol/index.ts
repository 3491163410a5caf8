// Volatility analytics: SVX (the Cboe VIX methodology on a symbol's own chain), term structure,
// IV rank and percentiles, sigma, cones, skew, tilt, SVI smile fits and the surface, events and
// VRP, and compositions over MarketData. Every formula and threshold:
// docs/methodology.md#volatility-methodology.

// Constants, errors
export {
  MINUTE_MS as VOL_MINUTE_MS,
  MINUTES_PER_DAY,
  MINUTES_PER_YEAR as VOL_MINUTES_PER_YEAR,
  SVX_TENOR_MINUTES,
  SVX_TENORS,
  SVX_MIN_TERM_MINUTES,
  VIX_ZERO_BID_STOP,
  CURVE_FLAT_REL,
  IV_WINDOWS,
  IV_WINDOW_MIN_COVERAGE,
  SIGMA_DAYS,
  SIGMA_ODDS_SESSIONS,
  SKEW_DELTA,
  SKEW_TENOR_MINUTES,
  TILT_HEADLINE_DAYS,
  TILT_ROWS,
  TILT_Z_MIN_READINGS,
  SURFACE_DELTAS,
  QUALITY_GOOD_STRIKES,
  QUALITY_FAIR_STRIKES,
  VRP_FORWARD_SESSIONS,
  SPOT_VOL_CORR_SESSIONS,
} from "./defaults";
export type { SvxTenor } from "./defaults";
export { VolError } from "./errors";
export type { VolErrorCode } from "./errors";

// SVX: one VIX term, constant maturity, readings on a chain snapshot
export { vixTermVariance, VixTermParamsSchema, STRIP_PUT, STRIP_CALL, STRIP_K0 } from "./vix-term";
export type { VixTerm, VixTermParams, VixTermQuotes, VixStrip } from "./vix-term";
export { vixStripSumInto } from "./_strip-sum";
export { constantMaturityVariance, varianceToIndex } from "./constant-maturity";
export type { ConstantMaturityVariance, InterpolationMethod, TermPoint } from "./constant-maturity";
export { chainTerms, expirationQuotes, expirationRowRange } from "./chain-terms";
export type { ChainTerms, ChainTermsOptions, TermExpiration, TermRef, VarianceRead } from "./chain-terms";
export { svx, svxAll, svx1d, svx9, svx30, svx3m, svx6m } from "./svx";
export type { SvxReading, SvxReadings, SvxTermSummary } from "./svx";

// Term structure, curve state, ratios
export { termStructure, atmIvAtForward, curveState, termSlopePct, ratioToReference } from "./term-structure";
export type { TermRow, CurveState } from "./term-structure";

// IV rank and percentiles over a daily series
export { ivRank, ivPercentile, ivRankPercentiles } from "./iv-rank";
export type { IvRankPercentiles, IvWindow } from "./iv-rank";

// Implied moves and sigma
export { impliedMove } from "./implied-move";
export type { ImpliedMove } from "./implied-move";
export { sigma, sigmaDays, SigmaInputSchema, SigmaHistoryRowSchema, SigmaModuleSchema, SigmaDaySchema } from "./sigma";
export type { SigmaInput, SigmaHistoryRow, SigmaModule, SigmaDay } from "./sigma";

// Cones: horizons, fixed levels, skew-aware sides, realized comparison
export { CONE_HORIZONS, coneHorizonTargets, coneLevelAnchors, lastTradingDayOfWeek } from "./cone-horizons";
export type { ConeHorizonName, ConeHorizonTarget, ConeLevelAnchor } from "./cone-horizons";
export { cones, coneLevel, sessionsToSettle, ConeHorizonSchema, ConeLevelSchema, ConesModuleSchema } from "./cones";
export type { ConeHorizon, ConeLevel, ConesModule, ConesOptions } from "./cones";
export { smileIv, smileCdf, smileQuantile, smileSides } from "./smile-quantiles";
export type { Smile, SmileSides } from "./smile-quantiles";
export { expirationSmile } from "./term-structure";
export { realizedVolPerSession } from "./realized";

// Skew and tilt
export { skew30, deltaIvs, strikeAtCallDelta } from "./skew";
export type { SkewReading, DeltaIvs } from "./skew";
export { tilt, tiltRow, zScore } from "./tilt";
export type { TiltReading, TiltRow } from "./tilt";

// Smile fit (raw SVI) and its no-arbitrage checks
export { fitSvi, sviTotalVariance, sviDurrlemanG, sviCalendarGap } from "./svi";
export type { SviFit, SviParams } from "./svi";

// Surface: SVI slices, IV by delta bucket and tenor
export { surface, sviIvAtDelta, SurfaceExpirySchema, SurfaceModuleSchema } from "./surface";
export type { SurfaceExpiry, SurfaceModule } from "./surface";

// Module objects (snake_case, the reference service's names)
export { weekdayFactors, weekdayOf, weekendAdjusted } from "./weekday-adjust";
export { meanReversion } from "./reversion";
export { dispersionReading } from "./dispersion";
export type { DispersionReading } from "./dispersion";
export { fearGreed, fearGreedLabel } from "./fear-greed";
export type { FearGreed, FearGreedInputs, FearGreedLabel } from "./fear-greed";
export type { Reversion } from "./reversion";
export { ivModule, termModule, chainQuality, IvModuleSchema, TermModuleSchema, ChainQualitySchema } from "./modules";
export type { IvModule, IvModuleHistory, TermModule, ChainQuality } from "./modules";

// Compositions over MarketData: daily closing readings, sigma of a symbol
export { sessionCloseReading, sigmaHistory, readSigma, readCones } from "./read-market";
export type { SessionCloseReading } from "./read-market";

// Events (earnings implied move, past moves) and VRP
export { eventImpliedMove, pastMoveStats, reactionSessions, reportInstantMs, vrp } from "./events";
export type { EventMove, PastMoves, VrpReading } from "./events";

// Screener fields not covered above
export { optionVolume, spotVolCorrelation, daysToEvent } from "./screener-fields";
