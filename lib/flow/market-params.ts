/**
 * Thresholds and windows of the market-wide flow screens (top underlyings and contracts over a
 * week, unusual volume and OI, sectors, breadth, market tide), each with its unit.
 * @see docs/methodology.md#flow-market-wide-screens
 */

/** Sessions in a "weekly" rollup: the trailing 5 trading days ending on `date`. */
export const WEEKLY_SESSIONS = 5;

/** `avg_period` of the unusual-volume screen: `{N}d`, N sessions from 2 to 365 (reference bounds). */
export const UNUSUAL_AVG_PERIOD = { min: 2, max: 365 } as const;

/**
 * Sentiment labels on a FIR (percent, -100..100): `strong_bullish` >= 50, `bullish` >= 25,
 * `slightly_bullish` >= 10, mirrored below 0, else `neutral`.
 */
export const SENTIMENT_FIR = { strong: 50, normal: 25, slight: 10 } as const;

/** Sector rotation signals on a sector's FIR: `strong_inflow` >= 40, `inflow` >= 15, mirrored, else `neutral`. */
export const ROTATION_FIR = { strong: 40, normal: 15 } as const;

/** Advance/decline ratio cap (advancing over declining when there are few decliners). */
export const ADVANCE_DECLINE_RATIO_CAP = 100;

/** The indices of the breadth's `majorIndices`, in order. */
export const BREADTH_MAJOR_INDICES = ["SPY", "QQQ", "IWM"] as const;

/** Deep in the money for the market tide's `exclude_deep_itm`: `moneynessPct < -20` (percent). */
export const TIDE_DEEP_ITM_PCT = -20;
