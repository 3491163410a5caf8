/**
 * Defaults of the positioning functions. Window sizes follow the reference service's documented
 * defaults so that clients written for it see the same board.
 *
 * @see docs/methodology.md#window
 */
export const POSITIONING_DEFAULTS = Object.freeze({
  /** Strikes around spot in the window (`maxStrikes`). */
  maxStrikes: 92,
  /** Nearest expirations netted into each strike (`maxExpirations`). */
  maxExpirations: 5,
  /** Upper bound accepted for `maxStrikes` (above is invalid, never silently reduced). */
  maxStrikesCap: 1000,
  /** Upper bound accepted for `maxExpirations`. */
  maxExpirationsCap: 60,
  /**
   * An interior strike whose every cell is below this in absolute value (dollars of exposure) is
   * "empty" and left out unless `includeEmpty`.
   */
  emptyCellAbsUsd: 50,
  /** Contract multiplier (shares per contract) of US equity and index options. */
  contractMultiplier: 100,
});

/** One minute in milliseconds. */
export const MINUTE_MS = 60_000;

/** A year of 365 days, in minutes: the time-to-expiry denominator. */
export const MINUTES_PER_YEAR = 365 * 24 * 60;

/** Floor of the time to expiry: one minute, in years. */
export const MIN_T_YEARS = 1 / MINUTES_PER_YEAR;

/**
 * Live velocity compares a cell with the same strike this many minutes (frames) earlier.
 *
 * @see docs/methodology.md#velocity
 */
export const VELOCITY_LOOKBACK_MINUTES = 5;

/**
 * The velocity denominator is at least this fraction of the current frame's largest |value|,
 * so a cell that starts near zero does not report an absurd percentage.
 *
 * @see docs/methodology.md#velocity
 */
export const VELOCITY_FLOOR_FRACTION = 0.01;

/** Zero-gamma profile: hypothetical spots cover spot x (1 +- rangePct/100) in stepPct steps. */
export const ZERO_GAMMA_PROFILE = Object.freeze({ rangePct: 10, stepPct: 0.1 });

/** A session's daily statistics become `complete` this long after the session closes. */
export const STATS_COMPLETE_AFTER_MS = 30 * MINUTE_MS;
