import type { NodeType } from "./node-thresholds";

/** Which greek's dealer exposure a grid holds (the spec's two). */
export type Metric = "gamma" | "vanna";

/** Every exposure metric a grid can hold: the spec's gamma and vanna, plus delta, charm and vomma. @see docs/methodology.md#exposure */
export const EXPOSURE_METRICS = ["gamma", "vanna", "delta", "charm", "vomma"] as const;

/** One of {@link EXPOSURE_METRICS}. */
export type ExposureMetric = (typeof EXPOSURE_METRICS)[number];

/**
 * The columnar chain snapshot fields the positioning functions read. Structurally a subset of
 * `lib/market`'s `ChainSnapshot` (docs/architecture.md "Chain snapshot"), so any snapshot fits.
 */
export interface PositioningChain {
  symbol: string;
  /** Snapshot instant, ms since the epoch. */
  asOfMs: number;
  /** Underlying price, in strike units. */
  spot: number;
  /** Continuous risk-free rate per year, decimal. */
  rate: number;
  /** Continuous dividend yield per year, decimal. */
  dividendYield: number;
  simulated?: boolean;
  /** Expiration dates `YYYY-MM-DD`, ascending. */
  expirations: readonly string[];
  /** Settlement instant of each expiration, ms (09:30 ET AM-settled, 16:00 ET PM-settled). */
  expirySettleMs: ArrayLike<number>;
  /** Option root of each expiration (e.g. `SPX` for an AM monthly inside an `SPXW` board). */
  expiryRoot?: readonly string[];
  /** Unique strikes, ascending. */
  strikes: ArrayLike<number>;
  /** Per contract: row in `strikes`. */
  strikeIndex: ArrayLike<number>;
  /** Per contract: index in `expirations`. */
  expIndex: ArrayLike<number>;
  /** Per contract: 1 call, 0 put. */
  right: ArrayLike<number>;
  /** Per contract: open interest, contracts. */
  oi: ArrayLike<number>;
  /** Per contract: bid and ask, option price units. */
  bid: ArrayLike<number>;
  ask: ArrayLike<number>;
  /** Per contract: implied volatility, decimal; NaN or <= 0 means missing (solved from the mid). */
  iv: ArrayLike<number>;
}

/** Dealer sign model: the sign applied to call and to put open interest. */
export interface SignModel {
  calls: number;
  puts: number;
}

/** One cell of a heatmap frame. */
export interface HeatmapCell {
  strike: number;
  /** Net dealer exposure at this strike, summed over the frame's expirations (dollars; see methodology). */
  value: number;
  nodeType: NodeType;
  /** Live frames only: percent change versus the same strike `VELOCITY_LOOKBACK_MINUTES` earlier. */
  velocityPct?: number;
}

/** One heatmap frame: the spec's heatmap symbol entry (plus the reference's `expirations`/`matrix`). */
export interface HeatmapFrame {
  symbol: string;
  /** ISO-8601 UTC instant of the board. */
  asOf: string;
  spot: number;
  /** Expirations netted into each value. */
  expirations: string[];
  /** Ascending by strike. */
  strikes: HeatmapCell[];
  /** With `layout=matrix`: `matrix[i][j]` is strike i, expiration j. */
  matrix?: number[][];
}
