/**
 * Shape-preserving rational cubic interpolation (Delbourgo & Gregory, SIAM J. Sci. Stat. Comput.
 * 6(4), 1985), as used by the initial guess of "Let's Be Rational". Port of Peter Jäckel's
 * `rationalcubic.cpp` (© 2013-2014 Peter Jäckel; permission to use, copy, modify, and distribute
 * freely granted, provided that this notice is preserved).
 *
 * @see docs/methodology.md#implied-volatility
 */

const DBL_EPSILON = 2.220446049250313e-16;
const DBL_MIN = 2.2250738585072014e-308;
const MIN_CONTROL = -(1 - Math.sqrt(DBL_EPSILON));
const MAX_CONTROL = 2 / (DBL_EPSILON * DBL_EPSILON);

function isZero(x: number): boolean {
  return Math.abs(x) < DBL_MIN;
}

/** Interpolate at x between (xl, yl) and (xr, yr) with end slopes dl, dr and control r > -1. */
export function rationalCubicInterpolation(x: number, xl: number, xr: number, yl: number, yr: number, dl: number, dr: number, r: number): number {
  const h = xr - xl;
  if (Math.abs(h) <= 0) return 0.5 * (yl + yr);
  const t = (x - xl) / h;
  if (!(r >= MAX_CONTROL)) {
    const omt = 1 - t;
    const t2 = t * t;
    const omt2 = omt * omt;
    return (yr * t2 * t + (r * yr - h * dr) * t2 * omt + (r * yl + h * dl) * t * omt2 + yl * omt2 * omt) / (1 + (r - 3) * t * omt);
  }
  return yr * t + yl * (1 - t); // linear interpolation without over- or underflow
}

function controlToFitSecondDerivativeLeft(xl: number, xr: number, yl: number, yr: number, dl: number, dr: number, secondDerivativeL: number): number {
  const h = xr - xl;
  const numerator = 0.5 * h * secondDerivativeL + (dr - dl);
  if (isZero(numerator)) return 0;
  const denominator = (yr - yl) / h - dl;
  if (isZero(denominator)) return numerator > 0 ? MAX_CONTROL : MIN_CONTROL;
  return numerator / denominator;
}

function controlToFitSecondDerivativeRight(xl: number, xr: number, yl: number, yr: number, dl: number, dr: number, secondDerivativeR: number): number {
  const h = xr - xl;
  const numerator = 0.5 * h * secondDerivativeR + (dr - dl);
  if (isZero(numerator)) return 0;
  const denominator = dr - (yr - yl) / h;
  if (isZero(denominator)) return numerator > 0 ? MAX_CONTROL : MIN_CONTROL;
  return numerator / denominator;
}

/** Smallest control parameter that keeps the interpolant monotone and convex/concave (3.8, 3.18). */
function minimumControl(dl: number, dr: number, s: number, preferShapePreservation: boolean): number {
  const monotonic = dl * s >= 0 && dr * s >= 0;
  const convex = dl <= s && s <= dr;
  const concave = dl >= s && s >= dr;
  if (!monotonic && !convex && !concave) return MIN_CONTROL;
  const drMinusDl = dr - dl;
  const drMinusS = dr - s;
  const sMinusDl = s - dl;
  let r1 = -Number.MAX_VALUE;
  let r2 = r1;
  if (monotonic) {
    if (!isZero(s)) r1 = (dr + dl) / s;
    else if (preferShapePreservation) r1 = MAX_CONTROL;
  }
  if (convex || concave) {
    if (!(isZero(sMinusDl) || isZero(drMinusS))) {
      r2 = Math.max(Math.abs(drMinusDl / drMinusS), Math.abs(drMinusDl / sMinusDl));
    } else if (preferShapePreservation) r2 = MAX_CONTROL;
  } else if (monotonic && preferShapePreservation) r2 = MAX_CONTROL;
  return Math.max(MIN_CONTROL, Math.max(r1, r2));
}

/** Control parameter matching the second derivative at the left end, kept shape preserving. */
export function convexControlLeft(
  xl: number,
  xr: number,
  yl: number,
  yr: number,
  dl: number,
  dr: number,
  secondDerivativeL: number,
  preferShapePreservation: boolean,
): number {
  const r = controlToFitSecondDerivativeLeft(xl, xr, yl, yr, dl, dr, secondDerivativeL);
  const rMin = minimumControl(dl, dr, (yr - yl) / (xr - xl), preferShapePreservation);
  return Math.max(r, rMin);
}

/** Control parameter matching the second derivative at the right end, kept shape preserving. */
export function convexControlRight(
  xl: number,
  xr: number,
  yl: number,
  yr: number,
  dl: number,
  dr: number,
  secondDerivativeR: number,
  preferShapePreservation: boolean,
): number {
  const r = controlToFitSecondDerivativeRight(xl, xr, yl, yr, dl, dr, secondDerivativeR);
  const rMin = minimumControl(dl, dr, (yr - yl) / (xr - xl), preferShapePreservation);
  return Math.max(r, rMin);
}
