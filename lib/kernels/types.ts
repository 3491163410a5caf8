// Types shared by both kernel engines. See docs/methodology.md#kernels-exposure-profile-implied-vol-batch.

/**
 * A chain as structure-of-arrays columns, one row per contract, all of length n.
 * @see docs/architecture.md (Chain columns)
 */
export interface ChainColumns {
  /** Strike in the underlying's price units. */
  strike: Float64Array;
  /** Time to settlement in years of 365 days (floored at one minute by the caller). */
  tYears: Float64Array;
  /** Implied volatility, decimal (0.2 = 20%). */
  iv: Float64Array;
  /** Open interest, contracts. */
  oi: Float64Array;
  /** 1 call, 0 put. */
  right: Uint8Array;
  /** Column of the exposure grid, 0..nExp-1. */
  expIndex: Int32Array;
  /** Row of the exposure grid, 0..nStrikes-1. */
  strikeIndex: Int32Array;
}

/** The columns the profile kernel reads (no grid indexes needed). */
export type ProfileColumns = Pick<ChainColumns, "strike" | "tYears" | "iv" | "oi" | "right">;

/**
 * Market and convention parameters of an exposure computation.
 * @see docs/methodology.md#sign-model-in-the-kernels
 */
export interface ExposureParams {
  /** Underlying spot, price units (> 0). */
  spot: number;
  /** Continuous risk-free rate, decimal per year. Default 0. */
  rate?: number;
  /** Continuous dividend yield, decimal per year. Default 0. */
  dividendYield?: number;
  /** Dealer sign applied to call open interest. Default +1 (dealers long calls). */
  callSign?: number;
  /** Dealer sign applied to put open interest. Default -1 (dealers short puts). */
  putSign?: number;
}

/** Exposure grid parameters: the grid's shape. */
export interface GridParams extends ExposureParams {
  /** Rows of the grid (distinct strikes). */
  nStrikes: number;
  /** Columns of the grid (expirations). */
  nExp: number;
}

/**
 * Dealer exposure of a chain. Grids are row-major: cell (strikeRow, expCol) is at
 * `strikeRow * nExp + expCol`. Gamma in dollars of delta per 1% spot move, vanna in dollars
 * of delta per one vol point.
 * @see docs/methodology.md#exposure-kernel
 */
export interface ExposureResult {
  nStrikes: number;
  nExp: number;
  gammaGrid: Float64Array;
  vannaGrid: Float64Array;
  /** Row sums of gammaGrid (over all expirations), length nStrikes. */
  gammaByStrike: Float64Array;
  /** Row sums of vannaGrid, length nStrikes. */
  vannaByStrike: Float64Array;
  /** Sum of gammaByStrike. */
  gammaTotal: number;
  /** Sum of vannaByStrike. */
  vannaTotal: number;
  /** Contracts that contributed (OI > 0, iv > 0, tYears > 0, strike > 0). */
  contributing: number;
}

/**
 * The greeks of the single-grid exposure kernel (beside gamma and vanna, which `exposure` computes together).
 * @see docs/methodology.md#greek-exposure-kernel
 */
export type GreekMetric = "delta" | "charm" | "vomma";

/**
 * Dealer exposure of one greek: delta in dollars per 1% spot move, charm in dollars of delta per
 * calendar day, vomma in dollars of vega (per vol point) per vol point. Grid layout as in
 * {@link ExposureResult}.
 * @see docs/methodology.md#greek-exposure-kernel
 */
export interface GreekExposureResult {
  nStrikes: number;
  nExp: number;
  metric: GreekMetric;
  grid: Float64Array;
  /** Row sums of grid (over all expirations), length nStrikes. */
  byStrike: Float64Array;
  /** Sum of byStrike. */
  total: number;
  /** Contracts that contributed (OI > 0, iv > 0, tYears > 0, strike > 0). */
  contributing: number;
}

/** Which exposure a spot profile sums. */
export type ProfileMetric = "gamma" | "vanna";

/**
 * Inputs of a batch implied-vol computation: one option price per row.
 * @see docs/methodology.md#implied-vol-batch
 */
export interface ImpliedVolInput {
  /** Option prices, price units per share (not per contract). */
  prices: Float64Array;
  /** Underlying spot, price units. */
  spot: number;
  strike: Float64Array;
  tYears: Float64Array;
  /** 1 call, 0 put. */
  right: Uint8Array;
  /** Continuous risk-free rate, decimal. Default 0. */
  rate?: number;
  /** Continuous dividend yield, decimal. Default 0. */
  dividendYield?: number;
}

/** Alias of ImpliedVolInput that does not collide with lib/math's single-option type. */
export type ImpliedVolBatchInput = ImpliedVolInput;

/** Batch implied-vol output. */
export interface ImpliedVolResult {
  /** Implied vols, decimal; NaN where no vol exists (price outside the no-arbitrage bounds). */
  vols: Float64Array;
  /**
   * Householder refinement steps spent on each row (>= 0), or why no vol exists: -1 price below
   * intrinsic, -2 price at or above the upper bound, -3 invalid input (lib/math's IV_CODE_*).
   */
  iterations: Int32Array;
  /**
   * Price evaluations spent on each row: calls of the normalised Black function or its
   * complement, initial guess included (0 where no vol exists). Both engines fill it and agree
   * exactly; optional only so that older `out` objects without it stay valid (it is then added).
   * @see docs/methodology.md#implied-volatility
   */
  evaluations?: Int32Array;
  /** Rows with no vol (NaN). */
  failures: number;
}

/** Alias of ImpliedVolResult that does not collide with lib/math's single-option type. */
export type ImpliedVolBatchResult = ImpliedVolResult;

/** The engine names. */
export type KernelEngineName = "wasm" | "js";

/**
 * One API, two engines. Every method validates its input (throws KernelInputError) and
 * never keeps references to it.
 */
export interface KernelEngine {
  /** Which engine this is: "wasm" or "js". */
  readonly name: KernelEngineName;
  /** Dealer gamma/vanna exposure grids, per-strike sums and totals; `out` is reused when its shape fits. */
  exposure(input: ChainColumns, params: GridParams, out?: ExposureResult): ExposureResult;
  /** Dealer delta, charm or vomma exposure grid, per-strike sums and total; `out` is reused when its shape fits. */
  greekExposure(input: ChainColumns, params: GridParams, metric: GreekMetric, out?: GreekExposureResult): GreekExposureResult;
  /** Total exposure recomputed with spot moved to each of `spots` (same units as `exposure`). */
  profile(input: ProfileColumns, params: ExposureParams, spots: Float64Array, metric: ProfileMetric): Float64Array;
  /** Implied vols of a batch of prices. */
  impliedVols(input: ImpliedVolInput, out?: ImpliedVolResult): ImpliedVolResult;
  /**
   * The VIX strip sum of one term: fills `contribution[i] = dK[i] / K[i]^2 * growth * Q[i]` and
   * returns the total (`growth = e^{RT}`). @see docs/methodology.md#vix-strip-sum-kernel
   */
  vixStripSum(input: VixStripColumns, growth: number, contribution: Float64Array): number;
}

/**
 * One VIX term's selected strikes (ascending), all of one length.
 * @see docs/methodology.md#variance-per-term
 */
export interface VixStripColumns {
  strike: Float64Array;
  /** Strike interval of each strike, price units. */
  dK: Float64Array;
  /** Mid price used for the strike, `Q(K)`. */
  q: Float64Array;
}

/** Engine choice: "auto" = WASM when WebAssembly is available, else JS. */
export type KernelEngineChoice = KernelEngineName | "auto";

/** Options of loadKernels / loadKernelsSync. */
export interface LoadKernelsOptions {
  engine?: KernelEngineChoice;
}

/** What kernelsInfo() reports. */
export interface KernelsInfo {
  /** Whether the WASM engine has been instantiated (by loadKernels/loadKernelsSync). */
  wasmInstantiated: boolean;
  /** Whether this runtime has WebAssembly at all. */
  webAssembly: boolean;
  /** sha256 of the inline .wasm (hex). */
  wasmSha256: string;
  /** Size of the inline .wasm in bytes. */
  wasmByteLength: number;
}
