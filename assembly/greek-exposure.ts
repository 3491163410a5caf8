// Dealer delta, charm or vomma exposure of a chain, accumulated into one strikes x expirations grid.
// Formulas, units and sign model: docs/methodology.md#greek-exposure-kernel.
// The JS engine (lib/kernels/_js-greek-exposure.ts) performs the same floating-point operations in
// the same order; the engines differ only where vlog/normCdf's exp and Math.log/Math.exp differ.
import { normCdf } from "./normal";
import { vexp, vlog } from "./vmath";

// @ts-ignore: decorator
@inline const INV_SQRT_2PI: f64 = 0.3989422804014327;
/** Contract multiplier (shares per contract). */
// @ts-ignore: decorator
@inline const MULTIPLIER: f64 = 100.0;
/** Calendar days per year: charm per year -> per day. */
// @ts-ignore: decorator
@inline const DAYS_PER_YEAR: f64 = 365.0;

// @ts-ignore: decorator
@inline
function exp1(x: f64): f64 {
  return f64x2.extract_lane(vexp(f64x2.splat(x)), 0);
}

// @ts-ignore: decorator
@inline
function log1(x: f64): f64 {
  return f64x2.extract_lane(vlog(f64x2.splat(x)), 0);
}

/**
 * Accumulates per-contract dealer exposure of one greek: metric 0 delta (dollars per 1% spot
 * move), 1 charm (dollars of delta per calendar day), 2 vomma (dollars of vega per vol point, per
 * vol point). Columns and validity rules as `exposure`; outputs (zeroed first): grid
 * f64[nStrikes*nExp] row-major, byStrike f64[nStrikes] (row sums in column order), total f64[1]
 * (sum of byStrike in row order). Returns the number of contributing contracts, or -(i+1) if
 * contract i has an index outside the grid (outputs then undefined).
 */
export function greekExposure(
  n: i32,
  strikePtr: usize, tPtr: usize, ivPtr: usize, oiPtr: usize,
  rightPtr: usize, expIdxPtr: usize, strikeIdxPtr: usize,
  spot: f64, rate: f64, q: f64, callSign: f64, putSign: f64, metric: i32,
  nStrikes: i32, nExp: i32,
  gridPtr: usize, byStrikePtr: usize, totalPtr: usize,
): i32 {
  const cells = <usize>nStrikes * <usize>nExp;
  memory.fill(gridPtr, 0, cells << 3);
  const rMinusQ = rate - q;
  const negQ = -q;
  const cDelta = MULTIPLIER * 0.01 * spot;
  const cCharm = (MULTIPLIER * spot) / DAYS_PER_YEAR;
  const cVomma = INV_SQRT_2PI * MULTIPLIER * 0.01 * 0.01 * spot;
  let used = 0;
  let runCell: usize = -1;
  let run = 0.0;
  // A contract with the same strike, tYears and iv as the previous contributing one (a call/put
  // pair quoted at one vol) reuses its d1, exponentials and normal cdfs; e^{-qT} is reused while
  // tYears repeats. Reuse changes no value: each is the same function of the same inputs.
  let pk = NaN, pt = NaN, piv = NaN, dqT = NaN;
  let sqrtT = 0.0, sst = 0.0, d1 = 0.0, e = 0.0, dq = 0.0, cdfUp = NaN, cdfDown = NaN;
  for (let i = 0; i < n; i++) {
    const row = load<i32>(strikeIdxPtr + (<usize>i << 2));
    const col = load<i32>(expIdxPtr + (<usize>i << 2));
    if (<u32>row >= <u32>nStrikes || <u32>col >= <u32>nExp) return -(i + 1);
    const o = <usize>i << 3;
    const k = load<f64>(strikePtr + o);
    const t = load<f64>(tPtr + o);
    const iv = load<f64>(ivPtr + o);
    const oi = load<f64>(oiPtr + o);
    if (!(k > 0 && t > 0 && iv > 0 && oi > 0)) continue;
    used++;
    const call = load<u8>(rightPtr + <usize>i) != 0;
    if (!(k == pk && t == pt && iv == piv)) {
      pk = k;
      pt = t;
      piv = iv;
      const lnMoneyness = log1(spot / k);
      sqrtT = Math.sqrt(t);
      sst = iv * sqrtT;
      const rs = 1.0 / sst;
      d1 = (lnMoneyness + (rMinusQ + 0.5 * iv * iv) * t) * rs;
      e = metric == 0 ? 0.0 : exp1(negQ * t - 0.5 * d1 * d1);
      cdfUp = NaN;
      cdfDown = NaN;
    }
    if (t != dqT) {
      dqT = t;
      dq = exp1(negQ * t);
    }
    let x = 0.0;
    if (metric == 0) {
      // theta e^{-qT} Phi(theta d1), per 1% move in dollars.
      if (call) {
        if (cdfUp != cdfUp) cdfUp = normCdf(d1);
        x = dq * cdfUp * cDelta;
      } else {
        if (cdfDown != cdfDown) cdfDown = normCdf(-d1);
        x = -(dq * cdfDown) * cDelta;
      }
    } else if (metric == 1) {
      // theta q e^{-qT} Phi(theta d1) - e^{-qT} phi(d1) (2 (r - q) T - d2 s) / (2 T s), per day.
      const d2 = d1 - sst;
      let qTerm = 0.0;
      if (q != 0) {
        if (call) {
          if (cdfUp != cdfUp) cdfUp = normCdf(d1);
          qTerm = q * dq * cdfUp;
        } else {
          if (cdfDown != cdfDown) cdfDown = normCdf(-d1);
          qTerm = -(q * dq * cdfDown);
        }
      }
      x = (qTerm - (e * INV_SQRT_2PI * (2.0 * rMinusQ * t - d2 * sst)) / (2.0 * t * sst)) * cCharm;
    } else {
      // vega d1 d2 / iv = S e^{-qT} phi(d1) sqrt T d1 d2 / iv, per vol point squared.
      const d2 = d1 - sst;
      x = e * ((sqrtT * d1 * d2) / iv) * cVomma;
    }
    const v = (call ? callSign : putSign) * oi * x;
    const c = (<usize>row * <usize>nExp + <usize>col) << 3;
    if (c == runCell) {
      run += v;
      continue;
    }
    if (runCell != -1) store<f64>(gridPtr + runCell, load<f64>(gridPtr + runCell) + run);
    runCell = c;
    run = v;
  }
  if (runCell != -1) store<f64>(gridPtr + runCell, load<f64>(gridPtr + runCell) + run);
  let total = 0.0;
  for (let row = 0; row < nStrikes; row++) {
    const base = (<usize>row * <usize>nExp) << 3;
    let s = 0.0;
    for (let col = 0; col < nExp; col++) s += load<f64>(gridPtr + base + (<usize>col << 3));
    store<f64>(byStrikePtr + (<usize>row << 3), s);
    total += s;
  }
  store<f64>(totalPtr, total);
  return used;
}
