/**
 * Every threshold, window and weight of the flow module, in one place, with its unit.
 * @see docs/methodology.md#flow-methodology
 */

/** Contract multiplier: one option contract covers 100 shares (equity, ETF and index options alike). */
export const CONTRACT_MULTIPLIER = 100;

/**
 * Trade side tolerance: a print within `tol` of a quote is "at" it, with
 * `tol = min(max(SIDE_TOL_ABS_USD, SIDE_TOL_SPREAD_FRACTION * spread), spread / 4)` (spread > 0).
 * @see docs/methodology.md#flow-trade-side
 */
export const SIDE_TOLERANCE = {
  /** Absolute floor of the tolerance, USD per share (half a cent absorbs float noise). */
  absUsd: 0.005,
  /** Fraction of the quoted spread. */
  spreadFraction: 0.1,
} as const;

/**
 * Moneyness bands on `moneynessPct` (percent out of the money, negative in the money).
 * @see docs/methodology.md#flow-moneyness-and-dte
 */
export const MONEYNESS_BANDS = {
  /** `|moneynessPct| <= atmPct` is ATM. */
  atmPct: 3,
  /** `moneynessPct >= deepPct` is DEEP_OTM; `<= -deepPct` is DEEP_ITM. */
  deepPct: 10,
} as const;

/**
 * DTE categories: upper bounds (inclusive, calendar days) of each category after `0DTE`.
 * @see docs/methodology.md#flow-moneyness-and-dte
 */
export const DTE_BOUNDS = { weekly: 7, shortTerm: 30, mediumTerm: 90, longTerm: 180 } as const;

/**
 * Sweep grouping: prints of one contract on one side join a group while each follows the previous
 * within `maxGapMs` and the group spans at most `maxSpanMs`.
 * @see docs/methodology.md#flow-sweeps
 */
export const SWEEP_WINDOW = { maxGapMs: 50, maxSpanMs: 1_000 } as const;

/**
 * Multi-leg packages: multi-leg-conditioned prints of one underlying on one exchange within
 * `maxSpanMs` of the first leg.
 * @see docs/methodology.md#flow-multi-leg-packages
 */
export const MULTI_LEG_WINDOW = { maxSpanMs: 1 } as const;

/**
 * Flow Score conviction weights (sum to 1) and saturation points.
 * @see docs/methodology.md#flow-score
 */
export const FLOW_SCORE_WEIGHTS = {
  size: 0.25,
  sweep: 0.15,
  moneyness: 0.1,
  dte: 0.1,
  volOi: 0.2,
  repeat: 0.2,
} as const;

/** Parameters of the Flow Score other than its weights. @see docs/methodology.md#flow-score */
export const FLOW_SCORE_PARAMS = {
  /** Premium / ticker norm at which the size component reaches 1 (it is 0 at or below the norm). */
  sizeSaturationRatio: 100,
  /** Day volume / open interest at which the vol/OI component reaches 1. */
  volOiSaturation: 2,
  /** Trailing window of the repeat component, ms. */
  repeatWindowMs: 5 * 60_000,
  /** Earlier same-side orders in the window at which the repeat component reaches 1. */
  repeatSaturation: 5,
  /** Smallest conviction multiplier (conviction 0); conviction 1 gives 1. */
  convictionFloor: 0.25,
  /** Direction of a multi-leg leg is scaled by this (a package leg's side says less). */
  multiLegDirectionFactor: 0.5,
} as const;

/** Moneyness component of the conviction by category. @see docs/methodology.md#flow-score */
export const MONEYNESS_CONVICTION = { DEEP_ITM: 0.2, ITM: 0.4, ATM: 0.7, OTM: 1, DEEP_OTM: 0.8 } as const;

/** DTE component of the conviction by category. @see docs/methodology.md#flow-score */
export const DTE_CONVICTION = {
  "0DTE": 1,
  WEEKLY: 0.85,
  SHORT_TERM: 0.7,
  MEDIUM_TERM: 0.5,
  LONG_TERM: 0.35,
  LEAPS: 0.2,
} as const;

/** Labels of a Flow Score and a FlowBonus. @see docs/methodology.md#flow-score */
export const FLOW_LABELS = {
  strong: 60,
  directional: 20,
  highConviction: 70,
  moderateConviction: 40,
} as const;

/** Ratio caps and interpretation thresholds. @see docs/methodology.md#flow-ratios-and-interpretation */
export const RATIO_PARAMS = {
  /** Cap of a ratio whose denominator is zero (and numerator positive). */
  cap: 999,
  /** |fir| (percent) below which the bias is NEUTRAL or MIXED. */
  biasFirPct: 10,
  /** Directional premium share at or above which a balanced book reads MIXED rather than NEUTRAL. */
  mixedDirectionalShare: 0.5,
  /** Side share (ask + bid trades / all trades) for HIGH and MEDIUM aggression. */
  highAggressionShare: 0.7,
  mediumAggressionShare: 0.4,
  /** Trade counts for HIGH and MEDIUM confidence. */
  highConfidenceTrades: 100,
  mediumConfidenceTrades: 20,
} as const;

/** Momentum trend thresholds. @see docs/methodology.md#flow-momentum */
export const MOMENTUM_PARAMS = {
  /** |fir| of a window that counts as directional, percent. */
  directionalFirPct: 20,
  /** 5-minute fir that counts as strong, percent. */
  strongFirPct: 30,
  /** How far the 5-minute fir must pull away from the 1-hour fir, percent points. */
  pullAwayPct: 20,
  /** |z| of the 5-minute fir against its baseline for an accelerating trend. */
  zScore: 1.5,
  /** Baseline sessions needed for a baseline (a standard deviation needs two). */
  minBaselineDays: 2,
} as const;

/** Trailing sessions of the market overview's premium RVOL. @see docs/methodology.md#flow-market-overview */
export const PREMIUM_RVOL_LOOKBACK_SESSIONS = 20;
