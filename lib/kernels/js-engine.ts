// The plain-JS engine: the oracle for the WASM engine and the fallback where WebAssembly is missing.
import { jsExposureInto } from "./_js-exposure";
import { jsGreekExposureInto } from "./_js-greek-exposure";
import { impliedVolsJs } from "./_js-implied-vols";
import { jsProfile } from "./_js-profile";
import { vixStripSumInto } from "./_js-strip-sum";
import { checkChainColumns, checkGreekMetric, checkProfileColumns, checkSpots, checkVixStrip, fitsExposure, fitsGreekExposure, resolveParams } from "./_validate";
import type {
  ChainColumns,
  ExposureParams,
  ExposureResult,
  GreekExposureResult,
  GreekMetric,
  GridParams,
  KernelEngine,
  ProfileColumns,
  ProfileMetric,
  VixStripColumns,
} from "./types";

/**
 * The JS kernel engine (typed arrays, no allocation per contract). Same API and, to about one ulp
 * per exp/log, the same numbers as the WASM engine.
 *
 * @example
 * const r = jsKernels.exposure(columns, { spot: 5800, nStrikes: 250, nExp: 40 });
 * r.gammaTotal; // dollars of delta per 1% move
 * @see docs/methodology.md#exposure-kernel
 */
export const jsKernels: KernelEngine = Object.freeze({
  name: "js" as const,
  exposure(input: ChainColumns, params: GridParams, out?: ExposureResult): ExposureResult {
    checkChainColumns(input, params);
    const p = resolveParams(params);
    const { nStrikes, nExp } = params;
    const target: ExposureResult =
      out && fitsExposure(out, nStrikes, nExp)
        ? out
        : {
            nStrikes,
            nExp,
            gammaGrid: new Float64Array(nStrikes * nExp),
            vannaGrid: new Float64Array(nStrikes * nExp),
            gammaByStrike: new Float64Array(nStrikes),
            vannaByStrike: new Float64Array(nStrikes),
            gammaTotal: 0,
            vannaTotal: 0,
            contributing: 0,
          };
    target.nStrikes = nStrikes;
    target.nExp = nExp;
    jsExposureInto(input, p, nStrikes, nExp, target);
    return target;
  },
  greekExposure(input: ChainColumns, params: GridParams, metric: GreekMetric, out?: GreekExposureResult): GreekExposureResult {
    checkChainColumns(input, params);
    const p = resolveParams(params);
    checkGreekMetric(metric);
    const { nStrikes, nExp } = params;
    const target: GreekExposureResult =
      out && fitsGreekExposure(out, nStrikes, nExp)
        ? out
        : { nStrikes, nExp, metric, grid: new Float64Array(nStrikes * nExp), byStrike: new Float64Array(nStrikes), total: 0, contributing: 0 };
    target.nStrikes = nStrikes;
    target.nExp = nExp;
    target.metric = metric;
    jsGreekExposureInto(input, p, metric, nStrikes, nExp, target);
    return target;
  },
  profile(input: ProfileColumns, params: ExposureParams, spots: Float64Array, metric: ProfileMetric): Float64Array {
    checkProfileColumns(input);
    const p = resolveParams(params);
    checkSpots(spots);
    return jsProfile(input, p, spots, metric);
  },
  impliedVols: impliedVolsJs,
  vixStripSum(input: VixStripColumns, growth: number, contribution: Float64Array): number {
    const n = checkVixStrip(input, growth, contribution);
    return vixStripSumInto(input.strike, input.dK, input.q, growth, contribution, n);
  },
});
