import { loadKernelsSync, type KernelEngine, type KernelEngineName } from "../kernels";
import { ZERO_GAMMA_PROFILE } from "./defaults";
import { EXPOSURE_UNITS, type ExposureUnit } from "./exposure-grid";
import { isoUtc } from "./iso-utc";
import { DEFAULT_SIGN_MODEL, type ExposureGridOptionsInput } from "./options";
import type { PositioningChain, SignModel } from "./types";
import { spotProfile, zeroGammaOf, type ZeroGamma } from "./zero-gamma";

/** Options of {@link spotCurve}: the grid options that apply (expirations, sign model) and the profile's range. */
export interface SpotCurveOptions extends Pick<ExposureGridOptionsInput, "maxExpirations" | "expirations" | "signModel"> {
  /** `gamma` (default) or `vanna`. */
  metric?: "gamma" | "vanna";
  /** Half-width of the spot range, percent of spot (default 10, the zero-gamma profile's). */
  rangePct?: number;
  /** Step between spots, percent of spot (default 0.1). */
  stepPct?: number;
}

/** One symbol's dealer exposure over a grid of hypothetical spots. */
export interface SpotCurve {
  symbol: string;
  asOf: string;
  spot: number;
  metric: "gamma" | "vanna";
  unit: ExposureUnit;
  rangePct: number;
  stepPct: number;
  /** Ascending hypothetical spots and the total exposure at each, dollars. */
  points: { spot: number; value: number }[];
  /** Where the curve crosses zero: every crossing and the one nearest spot (for gamma, the zero-gamma level). */
  zero: Omit<ZeroGamma, "method" | "rangePct" | "stepPct">;
  meta: { engine: KernelEngineName; signModel: SignModel; simulated: boolean };
}

/**
 * The dealer exposure profile over a spot grid: total gamma (or vanna) exposure of the selected
 * expirations, every listed strike, at `spot * (1 + k * stepPct / 100)` within `+-rangePct`,
 * everything else held at the snapshot's. With the default range and step it is the exact curve
 * whose crossing nearest spot `/v1/gex/levels` reports as `zeroGamma`.
 *
 * @example spotCurve(chain, { metric: "gamma" }, engine).zero.level
 * @see docs/methodology.md#spot-curve
 */
export function spotCurve(chain: PositioningChain, options: SpotCurveOptions = {}, engine: KernelEngine = loadKernelsSync()): SpotCurve {
  const metric = options.metric ?? "gamma";
  const profile = { rangePct: options.rangePct ?? ZERO_GAMMA_PROFILE.rangePct, stepPct: options.stepPct ?? ZERO_GAMMA_PROFILE.stepPct };
  const gridOptions: ExposureGridOptionsInput = {
    ...(options.maxExpirations !== undefined ? { maxExpirations: options.maxExpirations } : {}),
    ...(options.expirations ? { expirations: options.expirations } : {}),
    ...(options.signModel ? { signModel: options.signModel } : {}),
  };
  const { spots, totals } = spotProfile(chain, gridOptions, engine, profile, metric);
  const { level, distancePct, crossings } = zeroGammaOf(spots, totals, chain.spot, profile);
  const signModel = options.signModel ?? DEFAULT_SIGN_MODEL;
  return {
    symbol: chain.symbol,
    asOf: isoUtc(chain.asOfMs),
    spot: chain.spot,
    metric,
    unit: EXPOSURE_UNITS[metric],
    rangePct: profile.rangePct,
    stepPct: profile.stepPct,
    points: Array.from(spots, (s, i) => ({ spot: s, value: totals[i] })),
    zero: { level, distancePct, crossings },
    meta: { engine: engine.name, signModel: { calls: signModel.calls, puts: signModel.puts }, simulated: chain.simulated ?? false },
  };
}
