// Standard normal functions for the WASM kernels (f64), the same algorithms and constants as
// lib/math/erf.ts and lib/math/normal.ts: W. J. Cody's rational Chebyshev erf/erfc/erfcx
// (Math. Comp. 23, 1969) and Wichura's AS 241 PPND16 inverse. Parity with the JS engine is
// tested in test/math/wasm-parity.test.ts.
// See docs/methodology.md#normal-distribution

const ONE_OVER_SQRT_PI: f64 = 0.56418958354775628695;
const ONE_OVER_SQRT_TWO_PI: f64 = 0.3989422804014326779399460599343818684758586311649;
const SQRT_HALF: f64 = 0.7071067811865475244008443621048490392848359376887;
const CODY_THRESHOLD: f64 = 0.46875;
const X_SMALL: f64 = 1.11e-16;
const X_BIG: f64 = 26.543;
const X_HUGE: f64 = 6.71e7;
const X_MAX: f64 = 2.53e307;
const X_NEG: f64 = -26.628;
const DBL_MAX: f64 = 1.7976931348623157e308;

// @ts-ignore: decorator
@inline
function erfOverXSmall(y: f64): f64 {
  const ysq: f64 = y > X_SMALL ? y * y : 0.0;
  let num: f64 = 0.185777706184603153 * ysq;
  let den: f64 = ysq;
  num = (num + 3.1611237438705656) * ysq;
  den = (den + 23.6012909523441209) * ysq;
  num = (num + 113.864154151050156) * ysq;
  den = (den + 244.024637934444173) * ysq;
  num = (num + 377.485237685302021) * ysq;
  den = (den + 1282.61652607737228) * ysq;
  return (num + 3209.37758913846947) / (den + 2844.23683343917062);
}

// @ts-ignore: decorator
@inline
function erfcxMiddle(y: f64): f64 {
  const num: f64 =
    ((((((((2.15311535474403846e-8 * y + 0.564188496988670089) * y + 8.88314979438837594) * y +
      66.1191906371416295) * y + 298.635138197400131) * y + 881.95222124176909) * y +
      1712.04761263407058) * y + 2051.07837782607147) * y) + 1230.33935479799725;
  const den: f64 =
    ((((((((y + 15.7449261107098347) * y + 117.693950891312499) * y + 537.181101862009858) * y +
      1621.38957456669019) * y + 3290.79923573345963) * y + 4362.61909014324716) * y +
      3439.36767414372164) * y) + 1230.33935480374942;
  return num / den;
}

function erfcxLarge(y: f64): f64 {
  if (y >= X_HUGE) return y >= X_MAX ? 0.0 : ONE_OVER_SQRT_PI / y;
  const ysq: f64 = 1.0 / (y * y);
  const num: f64 =
    (((((0.0163153871373020978 * ysq + 0.305326634961232344) * ysq + 0.360344899949804439) * ysq +
      0.125781726111229246) * ysq + 0.0160837851487422766) * ysq) + 6.58749161529837803e-4;
  const den: f64 =
    (((((ysq + 2.56852019228982242) * ysq + 1.87295284992346047) * ysq + 0.527905102951428412) * ysq +
      0.0605183413124413191) * ysq) + 0.00233520497626869185;
  return (ONE_OVER_SQRT_PI - (ysq * num) / den) / y;
}

/** exp(-y^2) with y split on a 1/16 grid so the square of the leading part is exact. */
export function expMinusSquare(y: f64): f64 {
  const yh: f64 = Math.trunc(y * 16.0) / 16.0;
  const del: f64 = (y - yh) * (y + yh);
  return Math.exp(-yh * yh) * Math.exp(-del);
}

/** Error function erf(x), full double precision (Cody 1969), as lib/math/erf.ts. */
export function erf(x: f64): f64 {
  const y: f64 = Math.abs(x);
  if (y <= CODY_THRESHOLD) return x * erfOverXSmall(y);
  let r: f64;
  if (y <= 4.0) r = expMinusSquare(y) * erfcxMiddle(y);
  else if (y >= X_BIG) r = 0.0;
  else r = expMinusSquare(y) * erfcxLarge(y);
  const e: f64 = 0.5 - r + 0.5;
  return x < 0.0 ? -e : e;
}

/** Complementary error function, full relative precision in the upper tail. */
export function erfc(x: f64): f64 {
  const y: f64 = Math.abs(x);
  let r: f64;
  if (y <= CODY_THRESHOLD) return 1.0 - x * erfOverXSmall(y);
  if (y <= 4.0) r = expMinusSquare(y) * erfcxMiddle(y);
  else if (y >= X_BIG) r = 0.0;
  else r = expMinusSquare(y) * erfcxLarge(y);
  return x < 0.0 ? 2.0 - r : r;
}

/** Scaled complementary error function exp(x^2) erfc(x). */
export function erfcx(x: f64): f64 {
  const y: f64 = Math.abs(x);
  let r: f64;
  if (y <= CODY_THRESHOLD) {
    const ysq: f64 = y > X_SMALL ? y * y : 0.0;
    return Math.exp(ysq) * (1.0 - x * erfOverXSmall(y));
  }
  if (y <= 4.0) r = erfcxMiddle(y);
  else r = erfcxLarge(y);
  if (x >= 0.0) return r;
  if (x < X_NEG) return DBL_MAX;
  const yh: f64 = Math.trunc(x * 16.0) / 16.0;
  const del: f64 = (x - yh) * (x + yh);
  const e: f64 = Math.exp(yh * yh) * Math.exp(del);
  return e + e - r;
}

/** exp(-x^2/2), split like expMinusSquare beyond |x| = 4. */
export function expMinusHalfSquare(x: f64): f64 {
  const ax: f64 = Math.abs(x);
  if (ax <= 4.0) return Math.exp(-0.5 * x * x);
  if (ax > 39.0) return 0.0;
  const xh: f64 = Math.trunc(x * 16.0) / 16.0;
  return Math.exp(-0.5 * xh * xh) * Math.exp(-0.5 * (x - xh) * (x + xh));
}

/** Standard normal density. */
export function normPdf(x: f64): f64 {
  return ONE_OVER_SQRT_TWO_PI * expMinusHalfSquare(x);
}

/** Standard normal cdf, a few ulp relative error wherever the result is a normal double. */
export function normCdf(x: f64): f64 {
  const y: f64 = -x * SQRT_HALF;
  if (y <= CODY_THRESHOLD) {
    if (y >= -CODY_THRESHOLD) return 0.5 * erfc(y);
    return 1.0 - normCdf(-x);
  }
  return 0.5 * erfcx(y) * expMinusHalfSquare(x);
}

/** Inverse standard normal cdf (Wichura 1988, AS 241 PPND16). */
export function inverseNormCdf(p: f64): f64 {
  if (!(p >= 0.0 && p <= 1.0)) return NaN;
  if (p == 0.0) return -Infinity;
  if (p == 1.0) return Infinity;
  const q: f64 = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r: f64 = 0.180625 - q * q;
    const num: f64 =
      ((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r +
        45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r +
        133.14166789178437745) * r + 3.387132872796366608;
    const den: f64 =
      ((((((5226.495278852854561 * r + 28729.085735721942674) * r + 39307.89580009271061) * r +
        21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r +
        42.313330701600911252) * r + 1.0;
    return q * (num / den);
  }
  let r: f64 = Math.sqrt(-Math.log(q < 0.0 ? p : 1.0 - p));
  let z: f64;
  if (r <= 5.0) {
    r -= 1.6;
    z =
      (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r +
        1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r +
        4.6303378461565452959) * r + 1.42343711074968357734) /
      (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r +
        0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r +
        2.05319162663775882187) * r + 1.0);
  } else {
    r -= 5.0;
    z =
      (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r +
        0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r +
        5.4637849111641143699) * r + 6.6579046435011037772) /
      (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
        7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r +
        0.59983220655588793769) * r + 1.0);
  }
  return q < 0.0 ? -z : z;
}
