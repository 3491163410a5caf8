import { finishSteps } from "../finish-steps";
import { loadKernelsSync, type KernelEngine, type ProfileMetric } from "../kernels";
import { boardExposureParams, selectColumns } from "./_chain-columns";
import { ZERO_GAMMA_PROFILE } from "./defaults";
import { parseGridOptions, type ExposureGridOptionsInput } from "./options";
import { selectExpirations } from "./select-expirations";
import type { PositioningChain } from "./types";
import { nearestCrossing, zeroCrossings } from "./zero-crossings";

/** The profile-based zero-gamma level; the method is named so clients can tell it from `flip`. */
export interface ZeroGamma {
  method: "spot_profile";
  /** Spot level where total dealer gamma exposure crosses zero nearest spot, or null when it never does in range. */
  level: number | null;
  /** Percent distance from spot (negative = below), or null. */
  distancePct: number | null;
  /** Every crossing found in the range, ascending. */
  crossings: number[];
  /** Half-width of the hypothetical-spot range, percent of spot. */
  rangePct: number;
  /** Step between hypothetical spots, percent of spot. */
  stepPct: number;
}

/**
 * Hypothetical spots `spot * (1 + k * stepPct / 100)` for k = -K..K, K = round(rangePct / stepPct).
 *
 * @example profileSpots(100, 10, 0.1).length // 201
 */
export function profileSpots(spot: number, rangePct: number, stepPct: number): Float64Array {
  const k = Math.round(rangePct / stepPct);
  const out = new Float64Array(2 * k + 1);
  for (let i = -k; i <= k; i++) out[i + k] = spot * (1 + (i * stepPct) / 100);
  return out;
}

/**
 * Zero-gamma level by the spot profile: total dealer gamma exposure of the selected expirations
 * (every listed strike, not just the window) recomputed with the profile kernel at hypothetical
 * spots over +-10% in 0.1% steps; the root is interpolated linearly between the bracketing levels,
 * the crossing nearest spot wins; null when the profile never changes sign.
 *
 * @param chain columnar chain snapshot
 * @param options the same options as {@link exposureGrid} (the expirations filter applies; the metric does not: this is always gamma)
 * @param engine kernel engine (default `loadKernelsSync()`)
 * @example zeroGammaLevel(chain, {}, loadKernelsSync()).level // e.g. 5712.4
 * @see docs/methodology.md#zero-gamma
 */
export function zeroGammaLevel(
  chain: PositioningChain,
  options: ExposureGridOptionsInput | undefined,
  engine: KernelEngine = loadKernelsSync(),
  profile: { rangePct: number; stepPct: number } = ZERO_GAMMA_PROFILE,
): ZeroGamma {
  const { spots, totals } = spotProfile(chain, options, engine, profile, "gamma");
  return zeroGammaOf(spots, totals, chain.spot, profile);
}

/**
 * The zero-gamma reading of a gamma profile: every crossing (linear interpolation between
 * bracketing levels of opposite sign) and the one nearest spot.
 * @see docs/methodology.md#zero-gamma
 */
export function zeroGammaOf(spots: Float64Array, totals: Float64Array, spot: number, profile: { rangePct: number; stepPct: number }): ZeroGamma {
  const all = zeroCrossings(spots, totals);
  const best = nearestCrossing(all, spot);
  return {
    method: "spot_profile",
    level: best ? best.level : null,
    distancePct: best ? (100 * (best.level - spot)) / spot : null,
    crossings: all.map((c) => c.level),
    rangePct: profile.rangePct,
    stepPct: profile.stepPct,
  };
}

/**
 * Total dealer gamma or vanna exposure of the selected expirations (every listed strike) at the
 * hypothetical spots `profileSpots(spot, rangePct, stepPct)`, greeks' other inputs held: the curve
 * behind the zero-gamma level.
 *
 * @param options the {@link exposureGrid} options (expirations and sign model apply; window and metric do not)
 * @example spotProfile(chain, {}, engine, { rangePct: 10, stepPct: 0.1 }, "gamma").totals.length // 201
 * @see docs/methodology.md#spot-curve
 */
export function spotProfile(
  chain: PositioningChain,
  options: ExposureGridOptionsInput | undefined,
  engine: KernelEngine,
  profile: { rangePct: number; stepPct: number },
  metric: ProfileMetric,
): { spots: Float64Array; totals: Float64Array } {
  return finishSteps(spotProfileSteps(chain, options, engine, profile, metric, Number.POSITIVE_INFINITY));
}

/**
 * `spotProfile` `chunk` hypothetical spots per kernel call, pausing after each (a whole profile
 * of a large root is tens of ms): each spot's total is its own sum over the contracts, so the
 * totals equal one call's.
 * @example const it = spotProfileSteps(chain, {}, engine, { rangePct: 10, stepPct: 0.1 }, "gamma", 25);
 */
export function* spotProfileSteps(
  chain: PositioningChain,
  options: ExposureGridOptionsInput | undefined,
  engine: KernelEngine,
  profile: { rangePct: number; stepPct: number },
  metric: ProfileMetric,
  chunk: number,
): Generator<void, { spots: Float64Array; totals: Float64Array }, void> {
  const opts = parseGridOptions(options);
  const expCols = selectExpirations(chain, opts);
  const { columns } = selectColumns(chain, expCols, 0, chain.strikes.length, engine);
  const spots = profileSpots(chain.spot, profile.rangePct, profile.stepPct);
  const params = boardExposureParams(chain, opts.signModel);
  if (!(chunk < spots.length)) return { spots, totals: engine.profile(columns, params, spots, metric) };
  const totals = new Float64Array(spots.length);
  for (let i = 0; i < spots.length; i += chunk) {
    totals.set(engine.profile(columns, params, spots.slice(i, i + chunk), metric), i);
    yield;
  }
  return { spots, totals };
}
