// JS delta/charm/vomma exposure kernel: the same floating-point operations, in the same order, as
// assembly/greek-exposure.ts (Math.exp is bitwise the vector exp; Math.log and the vector log
// differ by at most one ulp; lib/math's erfc and erfcx are the same algorithms as the WASM ones).
import { erfc, erfcx } from "../math/erf";
import type { ResolvedParams } from "./_validate";
import { KernelError } from "./errors";
import type { ChainColumns, GreekExposureResult, GreekMetric } from "./types";

const INV_SQRT_2PI = 0.3989422804014327;
/** Contract multiplier (shares per contract). */
const MULTIPLIER = 100;
/** Calendar days per year: charm per year -> per day. */
const DAYS_PER_YEAR = 365;
/** 1/sqrt(2): Phi(x) = erfc(-x / sqrt 2) / 2. */
const SQRT_HALF = Math.SQRT1_2;
/** Cody's erfc split: at or below it erfc(y) = 1 - y R(y) needs no exponential. */
const CODY_THRESHOLD = 0.46875;

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
  const twoRMinusQ = 2 * rMinusQ;
  // Delta, and charm's q term, need dq Phi(+-d1); charm without a dividend yield and vomma do not.
  const tails = code === 0 || (code === 1 && q !== 0);
  const n = strike.length;
  let used = 0;
  let runCell = -1;
  let run = 0;
  // A contract with the same strike, tYears and iv as the previous contributing one (a call/put
  // pair quoted at one vol) reuses its per-call and per-put values (the WASM kernel's compacted
  // row); e^{-qT} is computed again only when tYears changes. Reuse changes no value.
  let pk = Number.NaN;
  let pt = Number.NaN;
  let piv = Number.NaN;
  let dqT = Number.NaN;
  let dq = 0;
  let xCall = 0;
  let xPut = 0;
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
      const sqrtT = Math.sqrt(t);
      const sst = iv * sqrtT;
      const rs = 1 / sst;
      const d1 = (lnMoneyness + (rMinusQ + 0.5 * iv * iv) * t) * rs;
      const e = Math.exp(negQ * t - 0.5 * d1 * d1); // e^{-qT} phi(d1) sqrt(2 pi)
      const d2 = d1 - sst;
      let common = 0;
      if (code === 1) {
        // e^{-qT} phi(d1) (2 (r - q) T - d2 s) / (2 T s); without q the value is -common per day.
        common = (e * INV_SQRT_2PI * (twoRMinusQ * t - d2 * sst)) / (2 * t * sst);
        xCall = (0 - common) * cCharm;
      } else if (code === 2) {
        // vega d1 d2 / iv = S e^{-qT} phi(d1) sqrt T d1 d2 / iv, per vol point squared.
        xCall = e * ((sqrtT * d1 * d2) / iv) * cVomma;
      }
      xPut = xCall;
      if (tails) {
        if (t !== dqT) {
          dqT = t;
          dq = Math.exp(negQ * t);
        }
        // tail = e^{-qT} Phi(-|d1|): Cody's erfc at or below the split; beyond it
        // erfcx(|d1|/sqrt 2) e^{-d1^2/2} / 2, whose exponential times e^{-qT} is e.
        const ay = Math.abs(d1) * SQRT_HALF;
        const tail = ay <= CODY_THRESHOLD ? dq * (0.5 * erfc(ay)) : 0.5 * erfcx(ay) * e;
        const up = d1 >= 0 ? dq - tail : tail; // e^{-qT} Phi(d1)
        const down = d1 >= 0 ? tail : dq - tail; // e^{-qT} Phi(-d1)
        if (code === 0) {
          // theta e^{-qT} Phi(theta d1), per 1% move in dollars.
          xCall = up * cDelta;
          xPut = -down * cDelta;
        } else {
          // theta q e^{-qT} Phi(theta d1) - common, per day.
          xCall = (q * up - common) * cCharm;
          xPut = (-(q * down) - common) * cCharm;
        }
      }
    }
    const v = (call ? callSign : putSign) * oi * (call ? xCall : xPut);
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
