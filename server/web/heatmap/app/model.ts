// What the heatmap page computes from one board, in the browser, with the library's kernels:
// the strike x expiration grid, its classified per-strike frame, the key levels, the spot profile.
// Pure (no DOM), so the page, the static build and the tests share it.
import type { KernelEngine } from "optionscope/kernels";
import {
  exposureGrid,
  heatmapFrame,
  levelsFromFrame,
  profileSpots,
  zeroCrossings,
  nearestCrossing,
  selectExpirations,
  tYearsToSettle,
  type ExposureGrid,
  type FrameLevels,
  type HeatmapFrame,
  type Metric,
  type PositioningChain,
  type SignModel,
} from "optionscope/positioning";
import type { BoardJson } from "../../../modules/positioning/board-columns";

export type { BoardJson };

/**
 * The board as the library's columnar chain (typed arrays; a missing IV becomes NaN, which the
 * grid solves from the mid exactly as the server does).
 */
export function chainFromBoard(board: BoardJson): PositioningChain {
  const c = board.contracts;
  return {
    symbol: board.symbol,
    asOfMs: board.asOfMs,
    spot: board.spot,
    rate: board.rate,
    dividendYield: board.dividendYield,
    simulated: board.simulated,
    expirations: board.expirations,
    expirySettleMs: board.expirySettleMs,
    expiryRoot: board.expiryRoot,
    strikes: Float64Array.from(board.strikes),
    strikeIndex: Int32Array.from(c.strikeIndex),
    expIndex: Int32Array.from(c.expIndex),
    right: Uint8Array.from(c.right),
    oi: Float64Array.from(c.oi),
    bid: Float64Array.from(c.bid),
    ask: Float64Array.from(c.ask),
    iv: Float64Array.from(c.iv, (v) => (v === null ? Number.NaN : v)),
  };
}

/** Sign conventions the page offers (docs/methodology.md#heatmap-page-sign-conventions). */
export const SIGN_CONVENTIONS: Record<string, { label: string; model: SignModel }> = {
  standard: { label: "Dealers long calls, short puts", model: { calls: 1, puts: -1 } },
  inverted: { label: "Dealers short calls, long puts", model: { calls: -1, puts: 1 } },
  short: { label: "Dealers short both", model: { calls: -1, puts: -1 } },
};

/** What the user controls; everything else comes from the board. */
export interface ViewSettings {
  metric: Metric;
  /** Nearest expirations to net (1-60) or "all". */
  maxExpirations: number | "all";
  /** Strikes nearest spot (1-1000) or "all". */
  maxStrikes: number | "all";
  sign: keyof typeof SIGN_CONVENTIONS;
  /** What-if spot, price units; null = the board's spot. */
  whatIfSpot: number | null;
}

export const DEFAULT_SETTINGS: ViewSettings = { metric: "gamma", maxExpirations: 5, maxStrikes: 40, sign: "standard", whatIfSpot: null };

/** Spot profile of the view: total exposure at hypothetical spots, and where it crosses zero. */
export interface SpotProfile {
  spots: Float64Array;
  totals: Float64Array;
  /** Crossing nearest the (what-if) spot, or null. */
  zero: number | null;
}

/** Everything the page draws for one board and one set of settings. */
export interface HeatmapView {
  grid: ExposureGrid;
  frame: HeatmapFrame;
  levels: FrameLevels;
  /** Zero-gamma level: the gamma spot profile's crossing nearest spot; null for vanna or none. */
  zeroGamma: number | null;
  profile: SpotProfile;
  engine: string;
}

/** The profile's range and step, percent of spot (the zero-gamma method's, docs/methodology.md#zero-gamma). */
const PROFILE = { rangePct: 10, stepPct: 0.1 };

/** The library options of the settings (the what-if spot is not one: it replaces the board's spot). */
function gridOptionsOf(settings: ViewSettings) {
  return {
    metric: settings.metric,
    maxExpirations: settings.maxExpirations,
    maxStrikes: settings.maxStrikes,
    layout: "matrix" as const,
    signModel: SIGN_CONVENTIONS[settings.sign].model,
  };
}

/**
 * Recompute the view: the board at the settings' (what-if) spot, through `exposureGrid`, the
 * node classification and `levelsFromFrame`. The spot profile does not depend on spot (it is the
 * total at every hypothetical spot), so a caller may pass the one it already has for these
 * settings (`spotProfileOf`); the zero crossing is then the one nearest the what-if spot.
 *
 * @example computeView(chainFromBoard(board), DEFAULT_SETTINGS, await loadKernels()).grid.matrix
 */
export function computeView(chain: PositioningChain, settings: ViewSettings, engine: KernelEngine, cachedProfile?: SpotProfile): HeatmapView {
  const at = settings.whatIfSpot !== null && settings.whatIfSpot > 0 ? { ...chain, spot: settings.whatIfSpot } : chain;
  const grid = exposureGrid(at, gridOptionsOf(settings), engine);
  const frame = heatmapFrame(grid, { layout: "matrix" });
  const levels = levelsFromFrame(frame);
  const base = cachedProfile ?? spotProfileOf(chain, settings, engine);
  const best = nearestCrossing(zeroCrossings(base.spots, base.totals), at.spot);
  const profile = { ...base, zero: best ? best.level : null };
  return { grid, frame, levels, zeroGamma: settings.metric === "gamma" ? profile.zero : null, profile, engine: engine.name };
}

/** The spot profile of the board (centred on its own spot) for the settings' metric, expirations and signs. */
export function spotProfileOf(chain: PositioningChain, settings: ViewSettings, engine: KernelEngine): SpotProfile {
  return spotProfile(chain, gridOptionsOf(settings), engine);
}

/**
 * Total exposure of the selected expirations (every listed strike) at hypothetical spots over
 * +-10% in 0.1% steps, and its crossing nearest spot: the zero-gamma method of
 * docs/methodology.md#zero-gamma, for either metric (contracts without an IV are left out).
 */
function spotProfile(chain: PositioningChain, options: { metric: Metric; maxExpirations: number | "all"; signModel: SignModel }, engine: KernelEngine): SpotProfile {
  const expCols = new Set(selectExpirations(chain, { maxExpirations: options.maxExpirations }));
  const rows: number[] = [];
  for (let i = 0; i < chain.oi.length; i++) {
    if (chain.oi[i] > 0 && chain.iv[i] > 0 && expCols.has(chain.expIndex[i])) rows.push(i);
  }
  const n = rows.length;
  const cols = { strike: new Float64Array(n), tYears: new Float64Array(n), iv: new Float64Array(n), oi: new Float64Array(n), right: new Uint8Array(n) };
  rows.forEach((i, k) => {
    const j = chain.expIndex[i];
    cols.strike[k] = chain.strikes[chain.strikeIndex[i]];
    cols.tYears[k] = tYearsToSettle(chain.asOfMs, chain.expirySettleMs[j]) ?? 0;
    cols.iv[k] = chain.iv[i];
    cols.oi[k] = chain.oi[i];
    cols.right[k] = chain.right[i];
  });
  const spots = profileSpots(chain.spot, PROFILE.rangePct, PROFILE.stepPct);
  const totals = engine.profile(
    cols,
    { spot: chain.spot, rate: chain.rate, dividendYield: chain.dividendYield, callSign: options.signModel.calls, putSign: options.signModel.puts },
    spots,
    options.metric,
  );
  const best = nearestCrossing(zeroCrossings(spots, totals), chain.spot);
  return { spots, totals, zero: best ? best.level : null };
}
