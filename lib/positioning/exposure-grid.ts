import { loadKernelsSync, type ChainColumns, type GridParams, type KernelEngine, type KernelEngineName } from "../kernels";
import { boardExposureParams, selectColumns } from "./_chain-columns";
import { POSITIONING_DEFAULTS } from "./defaults";
import { parseGridOptions, type ExposureGridOptionsInput } from "./options";
import { selectExpirations } from "./select-expirations";
import { strikeWindow } from "./strike-window";
import type { ExposureMetric, PositioningChain, SignModel } from "./types";

/** What a grid was computed with: the `meta`-ready description echoed by the API. */
export interface ExposureGridMeta {
  /** Kernel engine that ran: `wasm` or `js`. */
  engine: KernelEngineName;
  metric: ExposureMetric;
  /**
   * `usd_per_1pct` (gamma: dollars of delta per 1% spot move; delta: dollars of value per 1% spot
   * move), `usd_per_vol_point` (vanna: dollars of delta per vol point), `usd_per_day` (charm:
   * dollars of delta per calendar day) or `usd_vega_per_vol_point` (vomma). @see docs/methodology.md#exposure
   */
  unit: ExposureUnit;
  /** Dealer sign applied to call and put open interest. */
  signModel: SignModel;
  layout: "net" | "matrix";
  window: {
    maxStrikes: number | "all";
    maxExpirations: number | "all";
    includeEmpty: boolean;
    /** Explicit expirations asked for, or null when the nearest `maxExpirations` were used. */
    expirationsRequested: string[] | null;
    /** Strikes in the window before empty interior strikes were dropped. */
    strikesInWindow: number;
    /** Threshold below which a cell is empty, dollars of exposure. */
    emptyCellAbsUsd: number;
    lowStrike: number | null;
    highStrike: number | null;
  };
  contracts: {
    /** Contracts with open interest in the selected expirations and strike window. */
    selected: number;
    /** Contracts whose IV was solved from the bid/ask mid. */
    ivSolved: number;
    /** Contracts left out for lack of any IV. */
    ivMissing: number;
  };
  /** Time to expiry convention. */
  timeToExpiry: "settlement_instant_365d_minutes_floor_1m";
  simulated: boolean;
}

/** Unit of each metric's values. */
export type ExposureUnit = "usd_per_1pct" | "usd_per_vol_point" | "usd_per_day" | "usd_vega_per_vol_point";

/** The unit of each metric (echoed as `meta.unit`). @see docs/methodology.md#exposure */
export const EXPOSURE_UNITS: Readonly<Record<ExposureMetric, ExposureUnit>> = Object.freeze({
  gamma: "usd_per_1pct",
  vanna: "usd_per_vol_point",
  delta: "usd_per_1pct",
  charm: "usd_per_day",
  vomma: "usd_vega_per_vol_point",
});

/** A strikes x expirations exposure grid and its per-strike net. */
export interface ExposureGrid {
  symbol: string;
  asOfMs: number;
  spot: number;
  metric: ExposureMetric;
  /** Returned strikes, ascending (the window, minus empty interior strikes unless `includeEmpty`). */
  strikes: Float64Array;
  /** Expirations netted, ascending; the matrix's columns. */
  expirations: string[];
  /** Row-major `strikes.length x expirations.length`: cell (i, j) at `i * nExp + j`, dollars. */
  matrix: Float64Array;
  /** Per-strike value: the row sums of `matrix`, dollars. */
  net: Float64Array;
  /** Sum of `net`, dollars. */
  total: number;
  meta: ExposureGridMeta;
}

/**
 * Dealer gamma or vanna exposure of a chain snapshot, as a strikes x expirations grid around spot.
 *
 * Expirations: the explicit `expirations` (unknown dates ignored) or the nearest `maxExpirations`
 * (default 5) unsettled ones. Strikes: the `maxStrikes` (default 92, or `all`) listed strikes
 * nearest spot; interior strikes whose every cell is below $50 in absolute value are dropped unless
 * `includeEmpty`. Time to expiry runs to each expiration's settlement instant, so a 0DTE board
 * decays through the day. Missing IVs are solved from the bid/ask mid.
 *
 * @param chain columnar chain snapshot (`MarketData.chain`)
 * @param options metric, window, layout and dealer sign model (validated; throws `PositioningError`)
 * @param engine kernel engine (default `loadKernelsSync()`) from `loadKernels()` / `loadKernelsSync()` / `jsKernels`
 * @example
 * const engine = loadKernelsSync();
 * const grid = exposureGrid(chain, { metric: "gamma", maxStrikes: 40 }, engine);
 * grid.net; // Float64Array, dollars of delta per 1% move per strike
 * @see docs/methodology.md#exposure
 */
export function exposureGrid(chain: PositioningChain, options: ExposureGridOptionsInput | undefined, engine: KernelEngine = loadKernelsSync()): ExposureGrid {
  const opts = parseGridOptions(options);
  const expCols = selectExpirations(chain, opts);
  const { lo, hi } = strikeWindow(chain.strikes, chain.spot, opts.maxStrikes);
  const sel = selectColumns(chain, expCols, lo, hi, engine);
  const nStrikesWin = hi - lo;
  const nExp = expCols.length;
  const params = {
    ...boardExposureParams(chain, opts.signModel),
    nStrikes: nStrikesWin,
    nExp,
  };
  const { grid, byStrike } = metricGrid(engine, sel.columns, params, opts.metric);

  // Rows kept: the outermost always; interior ones only when some cell is not negligible.
  const keep: number[] = [];
  const floor = POSITIONING_DEFAULTS.emptyCellAbsUsd;
  for (let r = 0; r < nStrikesWin; r++) {
    let ok = opts.includeEmpty || r === 0 || r === nStrikesWin - 1;
    for (let c = 0; !ok && c < nExp; c++) ok = Math.abs(grid[r * nExp + c]) >= floor;
    if (ok) keep.push(r);
  }
  const strikes = new Float64Array(keep.length);
  const matrix = new Float64Array(keep.length * nExp);
  const net = new Float64Array(keep.length);
  let total = 0;
  keep.forEach((r, i) => {
    strikes[i] = chain.strikes[lo + r];
    matrix.set(grid.subarray(r * nExp, (r + 1) * nExp), i * nExp);
    net[i] = byStrike[r];
    total += byStrike[r];
  });

  return {
    symbol: chain.symbol,
    asOfMs: chain.asOfMs,
    spot: chain.spot,
    metric: opts.metric,
    strikes,
    expirations: expCols.map((j) => chain.expirations[j]),
    matrix,
    net,
    total,
    meta: {
      engine: engine.name,
      metric: opts.metric,
      unit: EXPOSURE_UNITS[opts.metric],
      signModel: { calls: opts.signModel.calls, puts: opts.signModel.puts },
      layout: opts.layout,
      window: {
        maxStrikes: opts.maxStrikes,
        maxExpirations: opts.maxExpirations,
        includeEmpty: opts.includeEmpty,
        expirationsRequested: opts.expirations ? [...opts.expirations] : null,
        strikesInWindow: nStrikesWin,
        emptyCellAbsUsd: floor,
        lowStrike: strikes.length ? strikes[0] : null,
        highStrike: strikes.length ? strikes[strikes.length - 1] : null,
      },
      contracts: { selected: sel.selected, ivSolved: sel.ivSolved, ivMissing: sel.ivMissing },
      timeToExpiry: "settlement_instant_365d_minutes_floor_1m",
      simulated: chain.simulated ?? false,
    },
  };
}

/**
 * One metric's grid and row sums: gamma and vanna from the exposure kernel (as always), delta,
 * charm and vomma from the greek-exposure kernel. @see docs/methodology.md#greek-exposure-kernel
 */
function metricGrid(engine: KernelEngine, columns: ChainColumns, params: GridParams, metric: ExposureMetric): { grid: Float64Array; byStrike: Float64Array } {
  if (metric === "gamma" || metric === "vanna") {
    const res = engine.exposure(columns, params);
    const gamma = metric === "gamma";
    return { grid: gamma ? res.gammaGrid : res.vannaGrid, byStrike: gamma ? res.gammaByStrike : res.vannaByStrike };
  }
  const res = engine.greekExposure(columns, params, metric);
  return { grid: res.grid, byStrike: res.byStrike };
}
