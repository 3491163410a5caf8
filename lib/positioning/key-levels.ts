import { finishSteps } from "../finish-steps";
import { loadKernelsSync, type KernelEngine } from "../kernels";
import { exposureGrid, type ExposureGridMeta } from "./exposure-grid";
import { heatmapFrame } from "./heatmap-frame";
import { isoUtc } from "./iso-utc";
import type { NodeType } from "./node-thresholds";
import type { ExposureGridOptionsInput } from "./options";
import type { HeatmapCell, PositioningChain } from "./types";
import { ZERO_GAMMA_PROFILE } from "./defaults";
import { spotProfileSteps, zeroGammaOf, type ZeroGamma } from "./zero-gamma";
import { cumulativeSum, nearestCrossing, zeroCrossings } from "./zero-crossings";

/** A strike as a key level (the reference's `Level`). */
export interface Level {
  strike: number;
  /** Net exposure at the strike, dollars. */
  value: number;
  nodeType: NodeType;
  /** Percent distance from spot: 100 * (strike - spot) / spot (negative = below). */
  distancePct: number;
}

/** A level where the running sum of per-strike values changes sign. */
export interface FlipLevel {
  method: "cumulative_by_strike";
  level: number;
  distancePct: number;
  /** `up`: the running sum turns positive going up the strikes; `down`: it turns negative. */
  direction: "up" | "down";
}

/** Digest of the returned strikes (the reference's `LevelsSummary`, plus crossings and zero gamma). */
export interface LevelsSummary {
  /** Sum of the returned strikes' values, dollars. */
  netExposure: number;
  /** The strike with the largest positive value, or null. */
  positiveWall: Level | null;
  /** The strike with the most negative value, or null. */
  negativeWall: Level | null;
  /** The cumulative-by-strike zero crossing nearest spot, or null. */
  flip: FlipLevel | null;
  /** Every zero crossing of the cumulative-by-strike sum, ascending. */
  zeroCrossings: FlipLevel[];
  lowStrike: number | null;
  highStrike: number | null;
}

/** Key levels of one frame, without the spot profile. */
export interface FrameLevels {
  kingNode: Level | null;
  /** Non-normal strikes, strongest |value| first. */
  levels: Level[];
  summary: LevelsSummary;
}

/** The `/v1/gex/levels` symbol entry. */
export interface KeyLevels extends FrameLevels {
  symbol: string;
  asOf: string;
  spot: number;
  summary: LevelsSummary & { zeroGamma: ZeroGamma };
  meta: ExposureGridMeta & { flipMethod: "cumulative_by_strike"; zeroGammaMethod: "spot_profile" };
}

const pct = (level: number, spot: number) => (100 * (level - spot)) / spot;

/** Is `a` stronger than `b`: larger |value|, then nearer spot, then lower strike. */
function stronger(a: HeatmapCell, b: HeatmapCell, spot: number, key: (c: HeatmapCell) => number): boolean {
  const ka = key(a);
  const kb = key(b);
  if (ka !== kb) return ka > kb;
  const da = Math.abs(a.strike - spot);
  const db = Math.abs(b.strike - spot);
  return da !== db ? da < db : a.strike < b.strike;
}

/**
 * Key levels of a classified frame: king, non-normal levels strongest first, net exposure, walls,
 * and the cumulative-by-strike flip (every crossing plus the one nearest spot).
 *
 * @param frame a heatmap frame (cells ascending by strike, classified)
 * @example levelsFromFrame(heatmapFrame(grid)).summary.flip?.level
 * @see docs/methodology.md#key-levels
 * @see docs/methodology.md#flip
 */
export function levelsFromFrame(frame: { spot: number; strikes: readonly HeatmapCell[] }): FrameLevels {
  const { spot } = frame;
  const cells = [...frame.strikes].sort((a, b) => a.strike - b.strike);
  const asLevel = (c: HeatmapCell): Level => ({
    strike: c.strike,
    value: c.value,
    nodeType: c.nodeType,
    distancePct: pct(c.strike, spot),
  });
  const abs = (c: HeatmapCell) => Math.abs(c.value);
  const nodes = cells.filter((c) => c.nodeType !== "normal");
  nodes.sort((a, b) => (stronger(a, b, spot, abs) ? -1 : stronger(b, a, spot, abs) ? 1 : 0));
  const king = cells.find((c) => c.nodeType === "king");

  let pos: HeatmapCell | null = null;
  let neg: HeatmapCell | null = null;
  let net = 0;
  for (const c of cells) {
    net += c.value;
    if (c.value > 0 && (!pos || stronger(c, pos, spot, (x) => x.value))) pos = c;
    if (c.value < 0 && (!neg || stronger(c, neg, spot, (x) => -x.value))) neg = c;
  }
  const strikes = cells.map((c) => c.strike);
  const crossings: FlipLevel[] = zeroCrossings(strikes, cumulativeSum(cells.map((c) => c.value))).map((c) => ({
    method: "cumulative_by_strike",
    level: c.level,
    distancePct: pct(c.level, spot),
    direction: c.direction,
  }));
  const flip = nearestCrossing(crossings, spot) as FlipLevel | null;
  return {
    kingNode: king ? asLevel(king) : null,
    levels: nodes.map(asLevel),
    summary: {
      netExposure: net,
      positiveWall: pos ? asLevel(pos) : null,
      negativeWall: neg ? asLevel(neg) : null,
      flip,
      zeroCrossings: crossings,
      lowStrike: strikes.length ? strikes[0] : null,
      highStrike: strikes.length ? strikes[strikes.length - 1] : null,
    },
  };
}

/**
 * The key-levels entry of a symbol: the frame's levels and summary (from the returned window)
 * plus the spot-profile zero-gamma level (from the selected expirations' whole ladder).
 *
 * @param chain columnar chain snapshot
 * @param options the {@link exposureGrid} options (metric, window, expirations, sign model)
 * @param engine kernel engine (default `loadKernelsSync()`)
 * @example
 * const lv = keyLevels(chain, { metric: "gamma" }, loadKernelsSync());
 * lv.kingNode?.strike; lv.summary.flip?.level; lv.summary.zeroGamma.level;
 * @see docs/methodology.md#key-levels
 */
export function keyLevels(chain: PositioningChain, options: ExposureGridOptionsInput | undefined, engine: KernelEngine = loadKernelsSync()): KeyLevels {
  return finishSteps(keyLevelsSteps(chain, options, engine, Number.POSITIVE_INFINITY));
}

/**
 * `keyLevels` in pieces: it pauses after the grid's levels and after each `spotChunk` spots of the
 * zero-gamma profile (the profile of a large root is tens of ms), so a caller on an event loop can
 * run other work between them. Same values as `keyLevels`.
 * @example const it = keyLevelsSteps(chain, {}, engine, 25); let r = it.next(); while (!r.done) r = it.next();
 * @see docs/methodology.md#key-levels
 */
export function* keyLevelsSteps(
  chain: PositioningChain,
  options: ExposureGridOptionsInput | undefined,
  engine: KernelEngine,
  spotChunk: number,
): Generator<void, KeyLevels, void> {
  const grid = exposureGrid(chain, options, engine);
  const frame = heatmapFrame(grid, { layout: "net" });
  const base = levelsFromFrame(frame);
  // Delta: no cumulative-by-strike flip (docs/methodology.md#levels-of-the-other-metrics).
  const summary = grid.metric === "delta" ? { ...base.summary, flip: null, zeroCrossings: [] } : base.summary;
  yield;
  const profile = yield* spotProfileSteps(chain, options, engine, ZERO_GAMMA_PROFILE, "gamma", spotChunk);
  return {
    symbol: grid.symbol,
    asOf: isoUtc(grid.asOfMs),
    spot: grid.spot,
    kingNode: base.kingNode,
    levels: base.levels,
    summary: { ...summary, zeroGamma: zeroGammaOf(profile.spots, profile.totals, chain.spot, ZERO_GAMMA_PROFILE) },
    meta: { ...grid.meta, flipMethod: "cumulative_by_strike", zeroGammaMethod: "spot_profile" },
  };
}
