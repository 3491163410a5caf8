/**
 * Every constant of the simulated market, in one place, each documented in
 * docs/methodology.md#market-data-and-the-simulated-market (section named beside it).
 */

/** Continuous risk-free rate used for every chain, per year. @see docs/methodology.md#rates-and-dividends */
export const SIM_RATE = 0.045;

/** Daily variance process (GJR-GARCH(1,1)). @see docs/methodology.md#daily-returns */
export const GARCH = {
  alpha: 0.03,
  /** Extra weight of negative shocks (leverage effect). */
  gamma: 0.1,
  beta: 0.9,
  /** Conditional variance kept within [min, max] x long-run variance. */
  minRatio: 0.25,
  maxRatio: 9,
} as const;

/** Share of a day's diffusive variance that arrives overnight (close -> open). @see docs/methodology.md#daily-returns */
export const OVERNIGHT_VARIANCE_SHARE = 0.2;

/** Jumps. @see docs/methodology.md#jumps */
export const JUMPS = {
  /** Probability per session of a jump in the market factor. */
  marketRate: 0.006,
  /** Probability per session of an idiosyncratic jump (non-market symbols). */
  idioRate: 0.008,
  /** Jump mean and sd in units of the conditional daily sd (market jumps are skewed down). */
  marketMean: -1.0,
  marketSd: 2.0,
  idioMean: 0,
  idioSd: 2.5,
  /** Share of jumps that happen overnight (the rest intraday). */
  overnightShare: 0.6,
} as const;

/** Earnings gaps (stocks). @see docs/methodology.md#earnings-gaps */
export const EARNINGS = {
  /** Gap sd in units of the long-run daily sd. */
  gapSdInDailySd: 3.5,
  /** Share of an after-close gap realised in that evening's post-market session. */
  postMarketShare: 0.85,
} as const;

/** Mean reversion of the log price toward the reference trend. @see docs/methodology.md#daily-returns */
export const TREND = {
  /** Pull per session on the log distance to the trend. */
  kappa: 0.003,
  /** Trend growth per year for equities and equity indices (0 for other assets). */
  equityGrowth: 0.08,
} as const;

/** Extended hours. @see docs/methodology.md#extended-hours */
export const EXTENDED = {
  /** Share of the next overnight gap realised in the post-market session (no earnings). */
  postMarketShare: 0.35,
  /** Diffusive variance of the pre-market and post-market sessions, as a share of the day's. */
  preVarianceShare: 0.04,
  postVarianceShare: 0.03,
  /** Share of the day's share volume traded pre-market and post-market. */
  preVolumeShare: 0.04,
  postVolumeShare: 0.03,
} as const;

/** Intraday shapes over x = minute / minutes-in-session. @see docs/methodology.md#intraday-paths */
export const INTRADAY = {
  /** Variance weight: base + open * exp(-x / openDecay) + close * exp(-(1 - x) / closeDecay). */
  varBase: 0.7,
  varOpen: 2.0,
  varOpenDecay: 0.05,
  varClose: 0.6,
  varCloseDecay: 0.05,
  /** Volume weight, same form. */
  volBase: 0.55,
  volOpen: 2.6,
  volOpenDecay: 0.06,
  volClose: 1.8,
  volCloseDecay: 0.04,
  /** Log-normal noise sd of a minute's volume. */
  volNoiseSd: 0.45,
  /** Log-normal noise sd of a day's volume. */
  dayVolumeNoiseSd: 0.25,
  /** High/low excursion beyond open/close, in per-minute sds. */
  wickScale: 0.6,
  /** Share of a minute's volume left unclassified: min + span * u. */
  unclassifiedMin: 0.06,
  unclassifiedSpan: 0.1,
} as const;

/** Implied volatility surface (SSVI). @see docs/methodology.md#implied-volatility-surface */
export const SURFACE = {
  /** Implied over realised variance (variance risk premium), multiplier on variances. */
  varianceRiskPremium: 1.2,
  /** Mean-reversion time of the forward variance curve, years. */
  tauYears: 0.12,
  /** SSVI correlation: indices and broad ETFs, single names. */
  rhoIndex: -0.7,
  rhoStock: -0.2,
  /** SSVI power-law phi(theta) = eta / (theta^gamma (1 + theta)^(1 - gamma)). */
  etaIndex: 1.2,
  etaStock: 1.4,
  gamma: 0.4,
  /** Spot-vol elasticity of the short variance within a session: v *= exp(-2 L ln(S/S_open)). */
  leverageIndex: 4,
  leverageStock: 1.5,
  /** Short-variance multiplier kept within [min, max] within a session. */
  leverageMin: 0.5,
  leverageMax: 3,
} as const;

/** Quotes. @see docs/methodology.md#quotes-and-spreads */
export const SPREAD = {
  /** Full spread = base + relative * price, capped at maxRelative * price for price above 1. */
  baseIndex: 0.1,
  baseEtf: 0.01,
  baseStock: 0.02,
  relative: 0.03,
  /** Half-spread never exceeds this share of the model price (bid stays positive, mid exact). */
  maxHalfShareOfPrice: 0.8,
} as const;

/** Open interest and volume. @see docs/methodology.md#open-interest-and-volume */
export const OI = {
  /** Total open interest of a chain, in days of its average option volume. */
  daysOfVolume: 12,
  /** Moneyness width of the OI bell: min(maxWidth, max(minWidth, widthInSd * sigma * sqrt(T))). */
  minWidth: 0.025,
  maxWidth: 0.12,
  widthInSd: 1.0,
  /** Weight of the far tails relative to the bell. */
  tail: 0.03,
  /** Round-strike multipliers (strike a multiple of 100x, 50x, 25x, 10x the fine spacing-free units). */
  roundMultipliers: [3, 2, 1.4] as const,
  /** Expiration-type multipliers. */
  monthly: 3,
  quarterly: 3.5,
  /** Days over which a new expiration's OI builds up. */
  buildUpDays: 25,
  /** Decay of OI with days to expiry: weight / (1 + days / decayDays). */
  decayDays: 90,
  /** Put/call ratio of OI below spot for indices (calls above are 1). */
  indexPutTilt: 1.8,
  /** Log-normal contract noise sd (keyed by contract, persistent across sessions). */
  noiseSd: 0.6,
} as const;

/** Daily option volume split. @see docs/methodology.md#open-interest-and-volume */
export const VOLUME = {
  /** Share of an index root's daily volume in the expiration settling today (0DTE). */
  zeroDteShareDaily: 0.55,
  /** Share of an equity/ETF chain's volume in the nearest expiration. */
  nearestShare: 0.35,
  /** Moneyness width of the volume bell relative to the OI bell. */
  widthRatio: 0.6,
  /** Log-normal contract noise sd (per session). */
  noiseSd: 0.8,
  /** Exponent range of the per-contract time warp U(m)^p. */
  warpMin: 0.6,
  warpMax: 1.7,
} as const;
