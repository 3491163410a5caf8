/**
 * Every constant of the simulated market, in one place, each documented in
 * docs/methodology.md#market-data-and-the-simulated-market (section named beside it).
 */

/** Continuous risk-free rate used for every chain, per year. @see docs/methodology.md#rates-and-dividends */
export const SIM_RATE = 0.045;

/** Daily variance process (GJR-GARCH(1,1)). @see docs/methodology.md#daily-returns */
export const GARCH = {
  alpha: 0.05,
  /** Extra weight of negative shocks (leverage effect). */
  gamma: 0.1,
  beta: 0.86,
  /** Conditional variance kept within [min, max] x long-run variance. */
  minRatio: 0.25,
  maxRatio: 3,
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
  /**
   * Default sd of an earnings gap (log return) per unit of the symbol's long-run annualised vol,
   * for names without a per-name `earningsGapSd` in the universe: MSFT (vol 0.24) 3.6%, NVDA (0.50)
   * 7.5%, TSLA (0.58) 8.7%.
   */
  gapSdPerVol: 0.15,
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
  /** Volume weight of continuous trading, same form. */
  volBase: 0.6,
  volOpen: 1.5,
  volOpenDecay: 0.05,
  volClose: 2.6,
  volCloseDecay: 0.05,
  /** Shares of a stock's or ETF's regular-session volume in the opening and closing auctions (first and last regular bar). */
  openingAuctionShare: 0.02,
  closingAuctionShare: 0.1,
  /** Log-normal noise sd of an auction's size. */
  auctionNoiseSd: 0.2,
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
  /** Mean-reversion time of the forward variance curve, years. */
  tauYears: 0.12,
  /** SSVI correlation of indices and broad ETFs (single names: SKEW and STOCK_SKEW_RHO). */
  rhoIndex: -0.7,
  /** SSVI power-law phi(theta) = eta / (theta^gamma (1 + theta)^(1 - gamma)). */
  etaIndex: 1.2,
  etaStock: 1.4,
  gamma: 0.4,
} as const;

/**
 * Quotes: full spread width `base + relative x price + vegaPerPoint x vega` (vega in USD per vol
 * point) by product class, then placed on the tick grid. @see docs/methodology.md#quotes-and-spreads
 */
export const SPREAD = {
  /** SPX, NDX, RUT (index levels of 1,000 and more). */
  index: { base: 0.1, relative: 0.004, vegaPerPoint: 0.04 },
  /** SPY, QQQ, IWM and XSP: the most liquid option classes. */
  topEtf: { base: 0.01, relative: 0.0008, vegaPerPoint: 0.005 },
  /** Other ETFs. */
  etf: { base: 0.02, relative: 0.003, vegaPerPoint: 0.02 },
  /** Single names. */
  stock: { base: 0.03, relative: 0.004, vegaPerPoint: 0.03 },
} as const;

/** Open interest and volume. @see docs/methodology.md#open-interest-and-volume */
export const OI = {
  /** Total open interest of a chain, in days of its average option volume. */
  daysOfVolume: 12,
  /** Moneyness width of the OI bells: min(maxWidth, max(minWidth, widthInSd * sigma * sqrt(T))). */
  minWidth: 0.025,
  maxWidth: 0.12,
  widthInSd: 1.0,
  /** Weight of the far tails relative to the bell (tails decay as exp(-|m| / (3 width))). */
  tail: 0.03,
  /** Round-strike multipliers (strike a multiple of 10^floor(log10 S) / 10, / 20, / 40). */
  roundMultipliers: [3, 2, 1.4] as const,
  /** Index/ETF puts: the round-strike multiplier is raised to this power (hedgers pick round strikes). */
  putRoundPower: 1.3,
  /** Expiration-type multipliers. */
  monthly: 3,
  quarterly: 3.5,
  /** Days over which a new expiration's OI builds up. */
  buildUpDays: 25,
  /** Decay of OI with days to expiry: weight / (1 + days / decayDays). */
  decayDays: 90,
  /** The OI anchor: EWMA of log closes with this half-life, over this many past sessions. */
  anchorHalfLifeSessions: 5,
  anchorLookback: 40,
  /** Vol regime sqrt(h_total / v) kept within [min, max]. */
  volRatioMin: 0.6,
  volRatioMax: 2.5,
  /** Index/ETF calls: bell centre (in OI widths above the anchor) and width (x OI width). */
  callCentreInWidth: 0.3,
  callWidthRatio: 0.8,
  /** Index/ETF puts: distance below the anchor min(max, base + inWidth * width) / volRatio^power. */
  putDistanceBase: 0.03,
  putDistanceInWidth: 0.8,
  putDistanceMax: 0.1,
  putDistanceVolPower: 0.5,
  /** Index/ETF puts: bell width (x OI width) and mass relative to the calls' x volRatio^power. */
  putWidthRatio: 0.7,
  indexPutMass: 1.3,
  putMassVolPower: 0.5,
  /** Index/ETF puts: the bell's width beyond its centre (further out of the money): min(ratio x its width, max). */
  putFarWidthRatio: 2.5,
  putFarWidthMax: 0.1,
  /** Index/ETF puts: peak of a second, near-the-money put bell (centred at the anchor, the calls' width). */
  putNearMass: 0.3,
  /** Single names: put mass relative to calls (calls 1.3 : puts 1). */
  stockPutMass: 1 / 1.3,
  /** In-the-money contracts (against the anchor) carry this share of the weight (index/ETF: of the far tails only). */
  itmFactor: 0.4,
  /** Log-normal contract noise sd (keyed by contract, persistent across sessions). */
  noiseSd: 0.6,
} as const;

/**
 * How a session's traded volume moves the next session's open interest: the share of a
 * contract's volume opened on both sides (OI +1 per contract) and closed on both sides (OI -1);
 * the rest moves a position between holders. @see docs/methodology.md#open-interest-carry-from-the-tape
 */
export const OI_CARRY = {
  /** Opening share: base, plus up to `openingFar` with the distance from spot (full at `farSd` sds), plus up to `openingNew` with days to expiry (full at `newDays`). */
  openingBase: 0.25,
  openingFar: 0.15,
  farSd: 2,
  openingNew: 0.1,
  newDays: 60,
  /** Closing share: base, plus `closingNearExpiry x exp(-days / nearExpiryDays)`. */
  closingBase: 0.15,
  closingNearExpiry: 0.3,
  nearExpiryDays: 7,
} as const;

/**
 * Daily option volume split of the simulator's former per-contract volume plan. Nothing reads it
 * since boards take their volume from the option tape; kept because the package exports it.
 * @see docs/methodology.md#one-tape-board-volume-from-the-prints
 */
export const VOLUME = {
  /** Share of an index root's daily volume in the expiration settling today (0DTE). */
  zeroDteShareDaily: 0.55,
  /** Share of an equity/ETF chain's volume in the nearest expiration. */
  nearestShare: 0.35,
  /** Side weights of the volume bell: index/ETF puts, single-name calls (the other side 1). */
  putTiltIndex: 1.8,
  callTiltStock: 1.3,
  /** Moneyness width of the volume bell relative to the OI bell. */
  widthRatio: 0.6,
  /** Log-normal contract noise sd (per session). */
  noiseSd: 0.8,
  /** Exponent range of the per-contract time warp U(m)^p. */
  warpMin: 0.6,
  warpMax: 1.7,
  /** The exponent takes one of this many evenly spaced values (midpoints of equal bins). */
  warpLevels: 32,
} as const;

/**
 * Implied volatility as its own state (the short end of the surface), per path owner.
 * @see docs/methodology.md#implied-volatility-state
 */
export const IV_STATE = {
  /** Short implied vol target at the long-run variance, as a multiple of the symbol's vol. */
  shortLevel: 1.1,
  /** Elasticity of the short target to the conditional variance: (h / v)^(psi / 2). */
  psi: 0.6,
  /** Daily pull of ln short vol toward its target. */
  kappa: 0.25,
  /** d ln(short vol) / d ln(spot) for spot below / above the previous close: indices and ETFs, single names. */
  spotBetaIndexDown: -6,
  spotBetaIndexUp: -3.5,
  spotBetaStockDown: -2,
  spotBetaStockUp: -1,
  /** Daily vol-of-vol noise (sd of ln short vol), indices and ETFs, single names. */
  noiseIndex: 0.03,
  noiseStock: 0.035,
  /** Intraday vol noise: sd of a Brownian bridge (pinned at the open and the close) in ln vol. */
  intradayNoise: 0.02,
  /** Long implied vol: longLevel x vol x exp(longBeta (y - y_bar)). */
  longLevel: 1.35,
  longBeta: 0.3,
  /** ln short vol kept within [min, max] x the symbol's vol. */
  minRatio: 0.35,
  maxRatio: 6,
} as const;

/**
 * Scheduled macro events and their move sizes (sd of the S&P 500's log return on the day,
 * beyond an ordinary day). @see docs/methodology.md#event-calendar
 */
export const MACRO_EVENTS = {
  fomcSd: 0.006,
  cpiSd: 0.006,
  electionSd: 0.015,
} as const;

/**
 * Single-name skew: SSVI rho per name (base) plus a slow AR(1) wander.
 * @see docs/methodology.md#implied-volatility-surface
 */
export const SKEW = {
  /** Default SSVI rho of single names without their own entry. */
  stockDefault: -0.2,
  /** Sd and daily persistence of the wander of a single name's rho. */
  wanderSd: 0.06,
  wanderPersistence: 0.97,
  /** rho kept within [min, max]. */
  min: -0.85,
  max: 0.6,
} as const;
