import { erfc, erfcx } from "./erf";

/**
 * Standard normal density, cumulative distribution and its inverse, to full double precision
 * (relative error a few ulp everywhere the result is a normal number).
 *
 * @see docs/methodology.md#normal-distribution
 */

const ONE_OVER_SQRT_TWO_PI = 0.3989422804014326779399460599343818684758586311649;
const SQRT_HALF = 0.7071067811865475244008443621048490392848359376887;
const CODY_THRESHOLD = 0.46875;

/**
 * exp(-x^2 / 2) without the relative error x^2 * eps / 2 that rounding x^2 would cost in the
 * tails: x = xh + xl with xh on a 1/16 grid, so xh^2 / 2 is exact.
 */
export function expMinusHalfSquare(x: number): number {
  const ax = Math.abs(x);
  if (ax <= 4) return Math.exp(-0.5 * x * x);
  if (ax > 39) return 0; // exp(-760) underflows; also keeps +-Infinity from making NaN
  const xh = Math.trunc(x * 16) / 16;
  return Math.exp(-0.5 * xh * xh) * Math.exp(-0.5 * (x - xh) * (x + xh));
}

/**
 * Standard normal probability density phi(x) = exp(-x^2/2) / sqrt(2 pi).
 *
 * @example normPdf(0) // 0.3989422804014327
 * @see docs/methodology.md#normal-distribution
 */
export function normPdf(x: number): number {
  return ONE_OVER_SQRT_TWO_PI * expMinusHalfSquare(x);
}

/**
 * Standard normal cumulative distribution Phi(x), relative error of a few ulp for every x
 * whose result is a normal double (down to x = -37.5, Phi = 4.6e-308), computed as
 * erfc(-x / sqrt 2) / 2 with the lower tail scaled (erfcx times an exactly-split exponential)
 * so nothing cancels or loses digits to the rounding of x^2.
 *
 * @example normCdf(-1) // 0.15865525393145702 (exact: 0.158655253931457051...)
 * @see docs/methodology.md#normal-distribution
 */
export function normCdf(x: number): number {
  const y = -x * SQRT_HALF;
  if (y <= CODY_THRESHOLD) {
    // Upper half (and the central band): 0.5 * erfc(y) with erfc(y) in [0.5, 2], no cancellation
    // worse than 1 ulp; the complement is the small lower tail computed accurately below.
    return y >= -CODY_THRESHOLD ? 0.5 * erfc(y) : 1 - normCdf(-x);
  }
  return 0.5 * erfcx(y) * expMinusHalfSquare(x);
}

// Wichura (1988), Algorithm AS 241 PPND16, Appl. Statist. 37(3) 477-484.
const A = [
  3.387132872796366608, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125,
  45921.953931549871457, 67265.770927008700853, 33430.575583588128105, 2509.0809287301226727,
];
const B = [
  1, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077, 21213.794301586595867,
  39307.89580009271061, 28729.085735721942674, 5226.495278852854561,
];
const C = [
  1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504,
  1.27045825245236838258, 0.24178072517745061177, 0.0227238449892691845833,
  7.7454501427834140764e-4,
];
const D = [
  1, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455,
  0.14810397642748007459, 0.0151986665636164571966, 5.475938084995344946e-4,
  1.05075007164441684324e-9,
];
const E = [
  6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123,
  0.026532189526576123093, 0.0012426609473880784386, 2.71155556874348757815e-5,
  2.01033439929228813265e-7,
];
const F = [
  1, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525,
  7.868691311456132591e-4, 1.8463183175100546818e-5, 1.4215117583164458887e-7,
  2.04426310338993978564e-15,
];

function ratio(c: readonly number[], d: readonly number[], r: number): number {
  let num = c[7];
  let den = d[7];
  for (let i = 6; i >= 0; i--) {
    num = num * r + c[i];
    den = den * r + d[i];
  }
  return num / den;
}

/**
 * Inverse of the standard normal cdf, Phi^-1(p), by Wichura's AS 241 (PPND16), relative
 * accuracy about 1e-16. Returns -Infinity at 0, +Infinity at 1, NaN outside [0, 1].
 *
 * @example inverseNormCdf(0.975) // 1.9599639845400536
 * @see docs/methodology.md#normal-distribution
 */
export function inverseNormCdf(p: number): number {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    return q * ratio(A, B, 0.180625 - q * q);
  }
  const r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  const z = r <= 5 ? ratio(C, D, r - 1.6) : ratio(E, F, r - 5);
  return q < 0 ? -z : z;
}
