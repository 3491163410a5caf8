/**
 * Error function family after W. J. Cody, "Rational Chebyshev approximations for the error
 * function", Math. Comp. 23 (1969) 631-638, as in netlib `specfun/erf` (CALERF) and
 * Peter Jäckel's `erf_cody.cpp`. Three rational approximations (|x| <= 0.46875, <= 4, > 4),
 * each good to about 18 significant digits, so the results are limited by double rounding.
 *
 * @see docs/methodology.md#normal-distribution
 */

// Coefficients from Cody (1969), as published in netlib specfun/erf, each written as the shortest
// decimal that reads back as the same double.
const A0 = 3.1611237438705655,
  A1 = 113.86415415105016,
  A2 = 377.485237685302;
const A3 = 3209.3775891384694,
  A4 = 0.18577770618460315;
const B0 = 23.601290952344122,
  B1 = 244.02463793444417,
  B2 = 1282.6165260773723;
const B3 = 2844.236833439171;
const C0 = 0.5641884969886701,
  C1 = 8.883149794388377,
  C2 = 66.11919063714163;
const C3 = 298.6351381974001,
  C4 = 881.952221241769,
  C5 = 1712.0476126340707;
const C6 = 2051.0783778260716,
  C7 = 1230.3393547979972,
  C8 = 2.1531153547440383e-8;
const D0 = 15.744926110709835,
  D1 = 117.6939508913125,
  D2 = 537.1811018620099;
const D3 = 1621.3895745666903,
  D4 = 3290.7992357334597,
  D5 = 4362.619090143247;
const D6 = 3439.3676741437216,
  D7 = 1230.3393548037495;
const P0 = 0.30532663496123236,
  P1 = 0.36034489994980445,
  P2 = 0.12578172611122926;
const P3 = 0.016083785148742275,
  P4 = 6.587491615298378e-4,
  P5 = 0.016315387137302097;
const Q0 = 2.568520192289822,
  Q1 = 1.8729528499234604,
  Q2 = 0.5279051029514285;
const Q3 = 0.06051834131244132,
  Q4 = 0.0023352049762686918;

const ONE_OVER_SQRT_PI = 0.5641895835477563;
const THRESHOLD = 0.46875;
const X_SMALL = 1.11e-16;
const X_BIG = 26.543; // erfc(x) underflows beyond this
const X_HUGE = 6.71e7; // 1 - 1/(2x^2) == 1 beyond this
const X_MAX = 2.53e307; // erfcx(x) underflows beyond this
const X_NEG = -26.628; // erfcx(x) overflows below this

/** erf(x) / x on |x| <= 0.46875 (rational in x^2). */
function erfOverXSmall(y: number): number {
  const ysq = y > X_SMALL ? y * y : 0;
  let num = A4 * ysq;
  let den = ysq;
  num = (num + A0) * ysq;
  den = (den + B0) * ysq;
  num = (num + A1) * ysq;
  den = (den + B1) * ysq;
  num = (num + A2) * ysq;
  den = (den + B2) * ysq;
  return (num + A3) / (den + B3);
}

/** erfcx(y) = exp(y^2) erfc(y) on 0.46875 < y <= 4. */
function erfcxMiddle(y: number): number {
  const num = (((((((C8 * y + C0) * y + C1) * y + C2) * y + C3) * y + C4) * y + C5) * y + C6) * y + C7;
  const den = (((((((y + D0) * y + D1) * y + D2) * y + D3) * y + D4) * y + D5) * y + D6) * y + D7;
  return num / den;
}

/** erfcx(y) on y > 4 (rational in 1/y^2). */
function erfcxLarge(y: number): number {
  if (y >= X_HUGE) return y >= X_MAX ? 0 : ONE_OVER_SQRT_PI / y;
  const ysq = 1 / (y * y);
  const num = ((((P5 * ysq + P0) * ysq + P1) * ysq + P2) * ysq + P3) * ysq + P4;
  const den = ((((ysq + Q0) * ysq + Q1) * ysq + Q2) * ysq + Q3) * ysq + Q4;
  return (ONE_OVER_SQRT_PI - (ysq * num) / den) / y;
}

/**
 * exp(-y^2) for y >= 0 without losing digits to the rounding of y^2: y is split into a part
 * with at most 4 fractional bits (whose square is exact) and a small remainder (Cody's device).
 */
function expMinusSquare(y: number): number {
  const yh = Math.trunc(y * 16) / 16;
  const del = (y - yh) * (y + yh);
  return Math.exp(-yh * yh) * Math.exp(-del);
}

/**
 * The error function erf(x), full double precision (Cody 1969).
 *
 * @example erf(0.5) // 0.5204998778130465
 * @see docs/methodology.md#normal-distribution
 */
export function erf(x: number): number {
  const y = Math.abs(x);
  if (y <= THRESHOLD) return x * erfOverXSmall(y);
  let r: number;
  if (y <= 4) r = expMinusSquare(y) * erfcxMiddle(y);
  else if (y >= X_BIG) r = 0;
  else r = expMinusSquare(y) * erfcxLarge(y);
  const e = 0.5 - r + 0.5;
  return x < 0 ? -e : e;
}

/**
 * The complementary error function erfc(x) = 1 - erf(x), to full relative precision also in
 * the upper tail (no cancellation for x > 0; exactly 0 only past x = 26.543).
 *
 * @example erfc(3) // 2.2090496998585438e-5
 * @see docs/methodology.md#normal-distribution
 */
export function erfc(x: number): number {
  const y = Math.abs(x);
  let r: number;
  if (y <= THRESHOLD) return 1 - x * erfOverXSmall(y);
  if (y <= 4) r = expMinusSquare(y) * erfcxMiddle(y);
  else if (y >= X_BIG) r = 0;
  else r = expMinusSquare(y) * erfcxLarge(y);
  return x < 0 ? 2 - r : r;
}

/**
 * The scaled complementary error function erfcx(x) = exp(x^2) erfc(x), which decays like
 * 1/(x sqrt(pi)) instead of underflowing; +Infinity-free down to x = -26.628.
 *
 * @example erfcx(10) // 0.05614099274382258
 * @see docs/methodology.md#normal-distribution
 */
export function erfcx(x: number): number {
  const y = Math.abs(x);
  let r: number;
  if (y <= THRESHOLD) {
    const ysq = y > X_SMALL ? y * y : 0;
    return Math.exp(ysq) * (1 - x * erfOverXSmall(y));
  }
  if (y <= 4) r = erfcxMiddle(y);
  else r = erfcxLarge(y);
  if (x >= 0) return r;
  if (x < X_NEG) return Number.MAX_VALUE;
  // erfcx(-y) = 2 exp(y^2) - erfcx(y); exp(y^2) split like expMinusSquare for accuracy.
  const yh = Math.trunc(x * 16) / 16;
  const del = (x - yh) * (x + yh);
  const e = Math.exp(yh * yh) * Math.exp(del);
  return e + e - r;
}
