/**
 * Constants of the volatility module. Every one is documented with its reason.
 *
 * @see docs/methodology.md#volatility-methodology
 */

/** One minute in milliseconds. */
export const MINUTE_MS = 60_000;

/** Minutes in a day. */
export const MINUTES_PER_DAY = 1_440;

/** A year of 365 days in minutes (the Cboe `N365`): the annualisation of every variance. */
export const MINUTES_PER_YEAR = 525_600;

/**
 * SVX target maturities in minutes (Cboe's VIX1D, VIX9D, VIX, VIX3M and VIX6M targets).
 *
 * @see docs/methodology.md#svx-tenors-and-term-selection
 */
export const SVX_TENOR_MINUTES = Object.freeze({
  svx1d: 1 * MINUTES_PER_DAY,
  svx9: 9 * MINUTES_PER_DAY,
  svx30: 30 * MINUTES_PER_DAY,
  svx3m: 93 * MINUTES_PER_DAY,
  svx6m: 184 * MINUTES_PER_DAY,
});

/** The five SVX tenors, shortest first. */
export const SVX_TENORS = ["svx1d", "svx9", "svx30", "svx3m", "svx6m"] as const;

/** One SVX tenor name. */
export type SvxTenor = (typeof SVX_TENORS)[number];

/**
 * An expiration takes part in SVX (and every implied-variance read) only with at least this many
 * minutes to its settlement: a 0DTE in its last minutes is a few strikes quoted at the spread floor.
 *
 * @see docs/methodology.md#svx-tenors-and-term-selection
 */
export const SVX_MIN_TERM_MINUTES = 10;

/** Consecutive zero bids that end a strip (Cboe's rule). @see docs/methodology.md#strike-selection */
export const VIX_ZERO_BID_STOP = 2;

/**
 * Curve-state threshold: relative difference between two SVX readings below which they count as
 * equal (2%).
 *
 * @see docs/methodology.md#curve-state-and-term-slope
 */
export const CURVE_FLAT_REL = 0.02;

/**
 * Trailing windows of IV rank and percentiles in sessions, and the share of a window's sessions
 * that must be present for it to be reported.
 *
 * @see docs/methodology.md#iv-rank-and-percentile
 */
export const IV_WINDOWS = Object.freeze({ "1y": 252, "3y": 756, "5y": 1260 });
export const IV_WINDOW_MIN_COVERAGE = 0.9;

/** Sessions of history in the `sigma` module's `days` (the reference's "last 60 sessions"). */
export const SIGMA_DAYS = 60;

/** Trailing sessions behind the historical odds of the `sigma` module (one year). */
export const SIGMA_ODDS_SESSIONS = 252;

/** Skew: the delta of the risk reversal and butterfly wings, and their tenor (30 days, minutes). */
export const SKEW_DELTA = 0.25;
export const SKEW_TENOR_MINUTES = 30 * MINUTES_PER_DAY;

/**
 * Tilt: the headline expiry is the first with at least 21 days to settlement; rows for up to 6
 * nearby expirations; a z-score needs 20 readings.
 *
 * @see docs/methodology.md#tilt
 */
export const TILT_HEADLINE_DAYS = 21;
export const TILT_ROWS = 6;
export const TILT_Z_MIN_READINGS = 20;

/** Surface delta buckets as forward call deltas: 10-delta put, 25-delta put, 25-delta call, 10-delta call. */
export const SURFACE_DELTAS = [0.9, 0.75, 0.25, 0.1] as const;

/** Chain quality: strikes in SVX30's thinner strip for `good` and for `fair`. @see docs/methodology.md#chain-quality */
export const QUALITY_GOOD_STRIKES = 30;
export const QUALITY_FAIR_STRIKES = 10;

/** VRP: sessions of realized vol compared with SVX30 (about 30 calendar days). @see docs/methodology.md#events-and-vrp */
export const VRP_FORWARD_SESSIONS = 21;

/** Sessions of the spot-vol correlation. @see docs/methodology.md#screener-fields */
export const SPOT_VOL_CORR_SESSIONS = 60;

/**
 * Weekend-adjusted readings: weekday factors from the last 252 daily readings, each weekday
 * needing 8 ratios. @see docs/methodology.md#weekend-adjusted-readings
 */
export const ADJ_WINDOW_SESSIONS = 252;
export const ADJ_MIN_PER_WEEKDAY = 8;

/** Mean-reversion odds: sessions ahead (about a month) and samples needed. @see docs/methodology.md#mean-reversion-odds */
export const REVERSION_HORIZON_SESSIONS = 21;
export const REVERSION_MIN_SAMPLES = 10;

/**
 * Dispersion: the Magnificent Seven against QQQ, equal weights, at least 5 members read.
 * @see docs/methodology.md#dispersion
 */
export const DISPERSION_INDEX = "QQQ";
export const DISPERSION_MEMBERS = Object.freeze(["AAPL", "MSFT", "NVDA", "AMZN", "GOOGL", "META", "TSLA"] as const);
export const DISPERSION_MIN_MEMBERS = 5;

/**
 * Fear and greed: sessions of the momentum return, components needed for a score, and the label
 * bands (upper bounds of extreme fear, fear, neutral, greed). @see docs/methodology.md#fear-and-greed
 */
export const FEAR_GREED_MOMENTUM_SESSIONS = 20;
export const FEAR_GREED_MIN_COMPONENTS = 3;
export const FEAR_GREED_BANDS = Object.freeze([25, 45, 55, 75] as const);
