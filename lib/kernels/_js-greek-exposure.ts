// JS delta/charm/vomma exposure kernel: the same floating-point operations, in the same order, as
// assembly/greek-exposure.ts (Math.exp is bitwise the vector exp; Math.log and the vector log
// differ by at most one ulp; lib/math's normCdf is the same algorithm as the WASM one).
import { normCdf } from "../math/normal";
import type { ResolvedParams } from "./_validate";
import { KernelError } from "./errors";
import type { ChainColumns, GreekExposureResult, GreekMetric } from "./types";

const INV_SQRT_2PI = 0.3989422804014327;
/** Contract multiplier (shares per contract). */
const MULTIPLIER = 100;
/** Calendar days per year: charm per year -> per day. */
const DAYS_PER_YEAR = 365;

/** Kernel code of each greek metric (the WASM export's `metric` argument). */
export const GREEK_METRIC_CODE: Readonly<Record<GreekMetric, number>> = Object.freeze({ delta: 0, charm: 1, vomma: 2 });

/**
 * Accumulates dealer delta, charm or vomma exposure into `out` (zeroed first); returns the
 * contributing count. Throws KernelError("invalid_index") for an index outside the grid.
 * @see docs/methodology.md#greek-exposure-kernel
 */
export function jsGreekExposureInto(c: ChainColumns, p: ResolvedParams, metric: GreekMetric, nStrikes: number, nExp: number, out: GreekExposureResult): number {
  const { strike, tYears, iv: ivs, oi: ois, right, expIndex, strikeIndex } = c;
  const { spot, callSign, putSign, q } = p;
  const code = GREEK_METRIC_CODE[metric];
  const grid = out.grid;
  grid.fill(0);
  const rMinusQ = p.rate - q;
  const negQ = -q;
  const cDelta = MULTIPLIER * 0.01 * spot;
  const cCharm = (MULTIPLIER * spot) / DAYS_PER_YEAR;
  const cVomma = INV_SQRT_2PI * MULTIPLIER * 0.01 * 0.01 * spot;
  const n = strike.length;
  let used = 0;
  let runCell = -1;
  let run = 0;
  // A contract with the same strike, tYears and iv as the previous contributing one (a call/put
  // pair quoted at one vol) reuses its d1, exponentials and normal cdfs; e^{-qT} is reused while
  // tYears repeats. Reuse changes no value: each is the same function of the same inputs.
  let pk = Number.NaN;
  let pt = Number.NaN;
  let piv = Number.NaN;
  let dqT = Number.NaN;
  let sqrtT = 0;
  let sst = 0;
  let d1 = 0;
  let e = 0;
  let dq = 0;
  let cdfUp = Number.NaN;
  let cdfDown = Number.NaN;
  for (let i = 0; i < n; i++) {
    const row = strikeIndex[i];
    const col = expIndex[i];
    if (row >>> 0 >= nStrikes || col >>> 0 >= nExp) {
      throw new KernelError("invalid_index", `contract ${i}: (strikeIndex ${row}, expIndex ${col}) outside a ${nStrikes} x ${nExp} grid`);
    }
    const k = strike[i];
    const t = tYears[i];
    const iv = ivs[i];
    const oi = ois[i];
    if (!(k > 0 && t > 0 && iv > 0 && oi > 0)) continue;
    used++;
    const call = right[i] !== 0;
    if (!(k === pk && t === pt && iv === piv)) {
      pk = k;
      pt = t;
      piv = iv;
      const lnMoneyness = Math.log(spot / k);
      sqrtT = Math.sqrt(t);
      sst = iv * sqrtT;
      const rs = 1 / sst;
      d1 = (lnMoneyness + (rMinusQ + 0.5 * iv * iv) * t) * rs;
      e = code === 0 ? 0 : Math.exp(negQ * t - 0.5 * d1 * d1);
      cdfUp = Number.NaN;
      cdfDown = Number.NaN;
    }
    if (t !== dqT) {
      dqT = t;
      dq = Math.exp(negQ * t);
    }
    let x: number;
    if (code === 0) {
      if (call) {
        if (Number.isNaN(cdfUp)) cdfUp = normCdf(d1);
        x = dq * cdfUp * cDelta;
      } else {
        if (Number.isNaN(cdfDown)) cdfDown = normCdf(-d1);
        x = -(dq * cdfDown) * cDelta;
      }
    } else if (code === 1) {
      const d2 = d1 - sst;
      let qTerm = 0;
      if (q !== 0) {
        if (call) {
          if (Number.isNaN(cdfUp)) cdfUp = normCdf(d1);
          qTerm = q * dq * cdfUp;
        } else {
          if (Number.isNaN(cdfDown)) cdfDown = normCdf(-d1);
          qTerm = -(q * dq * cdfDown);
        }
      }
      x = (qTerm - (e * INV_SQRT_2PI * (2 * rMinusQ * t - d2 * sst)) / (2 * t * sst)) * cCharm;
    } else {
      const d2 = d1 - sst;
      x = e * ((sqrtT * d1 * d2) / iv) * cVomma;
    }
    const v = (call ? callSign : putSign) * oi * x;
    const cell = row * nExp + col;
    if (cell === runCell) {
      run += v;
      continue;
    }
    if (runCell >= 0) grid[runCell] += run;
    runCell = cell;
    run = v;
  }
  if (runCell >= 0) grid[runCell] += run;
  let total = 0;
  for (let r = 0; r < nStrikes; r++) {
    const base = r * nExp;
    let s = 0;
    for (let col = 0; col < nExp; col++) s += grid[base + col];
    out.byStrike[r] = s;
    total += s;
  }
  out.total = total;
  out.contributing = used;
  return used;
}
